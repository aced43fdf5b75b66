import type { Kysely } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * What the reports (DESIGN.md 11) need of a conversation that nothing recorded yet:
 * - `resolved_at`: when staff last marked it resolved (ISO text, as every timestamp); a reopened
 *   session keeps it until it is resolved again. Null for sessions resolved before this migration.
 * - `resolved_by_staff_id`: who resolved it; null once that account is gone.
 * - an index on `created_at`: the reports read the sessions started in a date range.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('chat_sessions').addColumn('resolved_at', 'text').execute();
  await db.schema
    .alterTable('chat_sessions')
    .addColumn('resolved_by_staff_id', 'integer', (col) => col.references('admins.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('chat_sessions_created_at').on('chat_sessions').columns(['created_at', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('chat_sessions_created_at').execute();
  await db.schema.alterTable('chat_sessions').dropColumn('resolved_by_staff_id').execute();
  await db.schema.alterTable('chat_sessions').dropColumn('resolved_at').execute();
}
