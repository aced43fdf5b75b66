import type { Kysely } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

const leadTables = ['demo_requests', 'contact_submissions', 'support_tickets', 'get_started_requests'];

/**
 * The staff lists filter by status (`?status=`) in their usual order. Without these, a filter for a
 * status that few rows have (the last "new" leads among thousands "closed") walks the whole
 * `(created_at, id)` index to fill a page; with them it reads the page and stops, on SQLite and
 * PostgreSQL alike, and the counts by status are grouped from the index alone. On chat sessions
 * the index costs one more entry moved per chat message (its row is rewritten anyway), the price of
 * a filtered inbox that stays fast when open sessions are few and old.
 */
export async function up(db: AnyDb): Promise<void> {
  for (const table of leadTables) {
    await db.schema.createIndex(`${table}_status_created_at_id`).on(table).columns(['status', 'created_at', 'id']).execute();
  }
  await db.schema.createIndex('chat_sessions_status_last_message_at').on('chat_sessions').columns(['status', 'last_message_at', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('chat_sessions_status_last_message_at').execute();
  for (const table of leadTables) await db.schema.dropIndex(`${table}_status_created_at_id`).execute();
}
