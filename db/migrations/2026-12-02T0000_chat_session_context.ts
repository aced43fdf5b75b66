import { type Kysely, sql } from 'kysely';
import { autoIncrementId } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

const leadTables = ['demo_requests', 'contact_submissions', 'support_tickets', 'get_started_requests'];

/**
 * The visitor's context beside a conversation in the staff inbox:
 * - `chat_sessions.time_zone`: the visitor's IANA zone, given with the first message (their local time).
 * - `chat_page_views`: the pages of the visit, oldest first by id, the last 50 of a session kept.
 * - Earlier conversations and leads of the same person are found by the email, whatever its case (emails
 *   are stored as typed), and by the visitor identity: `lower(email)` indexes, one on `visitor_id`.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('chat_sessions').addColumn('time_zone', 'text').execute();
  await db.schema
    .createTable('chat_page_views')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('session_id', 'text', (col) => col.notNull().references('chat_sessions.id').onDelete('cascade'))
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('viewed_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('chat_page_views_session_id_id').on('chat_page_views').columns(['session_id', 'id']).execute();

  await db.schema.createIndex('chat_sessions_visitor_id').on('chat_sessions').column('visitor_id').execute();
  await db.schema.createIndex('chat_sessions_sender_email_lower').on('chat_sessions').expression(sql`lower(sender_email)`).execute();
  for (const table of leadTables) {
    await db.schema.createIndex(`${table}_email_lower`).on(table).expression(sql`lower(email)`).execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of leadTables) await db.schema.dropIndex(`${table}_email_lower`).execute();
  await db.schema.dropIndex('chat_sessions_sender_email_lower').execute();
  await db.schema.dropIndex('chat_sessions_visitor_id').execute();
  await db.schema.dropTable('chat_page_views').execute();
  await db.schema.alterTable('chat_sessions').dropColumn('time_zone').execute();
}
