import { type Kysely, sql } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * The visitor's rating of a conversation and the staff's escalation mail (DESIGN.md 10):
 * - `rating` (`good` or `bad`), `rating_comment` and `rated_at`: one rating per session, given once.
 * - `rating_asked_at`: when the widget (or a mail) asked for it; set once, so a session is asked
 *   once and mailed the question at most once.
 * - `escalated_at`: when an unread visitor message was last mailed to NOTIFY_EMAIL (one per 15 minutes).
 * All nullable, no index: they are read with the session row, never searched.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('chat_sessions')
    .addColumn('rating', 'text', (col) => col.check(sql`rating in ('good', 'bad')`))
    .execute();
  for (const column of ['rating_comment', 'rated_at', 'rating_asked_at', 'escalated_at']) {
    await db.schema.alterTable('chat_sessions').addColumn(column, 'text').execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of ['escalated_at', 'rating_asked_at', 'rated_at', 'rating_comment', 'rating']) {
    await db.schema.alterTable('chat_sessions').dropColumn(column).execute();
  }
}
