import type { Kysely } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * `escalated_seq`: the newest visitor message an escalation mail has covered (DESIGN.md 10). A visitor
 * message is the first that staff have neither read nor been mailed when the one before it is at or
 * below both pointers: only that one promises an escalation, so the messages after it add no job row.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('chat_sessions').addColumn('escalated_seq', 'integer', (col) => col.notNull().defaultTo(0)).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('chat_sessions').dropColumn('escalated_seq').execute();
}
