import type { Kysely } from 'kysely';
import { epochMillisecondsType } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

const leadTables = ['demo_requests', 'contact_submissions', 'support_tickets', 'get_started_requests'];

/**
 * Assignment (DESIGN.md 11): an optional assignee (a staff account's id) on each chat session and
 * lead, and `settings`, one row per setting (auto-assignment's lives under `auto-assignment`).
 *
 * Indexes: each list's Mine / Unassigned filter in the list's own order; on chat sessions also
 * `(assignee_id, status, created_at, id)`, which counts an agent's open conversations and reads the
 * queue (open, unassigned, oldest first) without a scan; `(assignee_id, assigned_at)` finds when an
 * agent was last given one (ISO text): among agents with as many open, the least recent goes first.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('chat_sessions').addColumn('assignee_id', 'integer').execute();
  await db.schema.alterTable('chat_sessions').addColumn('assigned_at', 'text').execute();
  await db.schema.createIndex('chat_sessions_assignee_last_message_at').on('chat_sessions').columns(['assignee_id', 'last_message_at', 'id']).execute();
  await db.schema.createIndex('chat_sessions_assignee_status_created_at').on('chat_sessions').columns(['assignee_id', 'status', 'created_at', 'id']).execute();
  await db.schema.createIndex('chat_sessions_assignee_assigned_at').on('chat_sessions').columns(['assignee_id', 'assigned_at']).execute();
  for (const table of leadTables) {
    await db.schema.alterTable(table).addColumn('assignee_id', 'integer').execute();
    await db.schema.createIndex(`${table}_assignee_created_at_id`).on(table).columns(['assignee_id', 'created_at', 'id']).execute();
  }
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('updated_at', epochMillisecondsType(db), (col) => col.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('settings').execute();
  for (const table of leadTables) {
    await db.schema.dropIndex(`${table}_assignee_created_at_id`).execute();
    await db.schema.alterTable(table).dropColumn('assignee_id').execute();
  }
  await db.schema.dropIndex('chat_sessions_assignee_assigned_at').execute();
  await db.schema.dropIndex('chat_sessions_assignee_status_created_at').execute();
  await db.schema.dropIndex('chat_sessions_assignee_last_message_at').execute();
  await db.schema.alterTable('chat_sessions').dropColumn('assigned_at').execute();
  await db.schema.alterTable('chat_sessions').dropColumn('assignee_id').execute();
}
