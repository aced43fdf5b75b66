import type { Kysely } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * `chat_sessions.version`: counts every change of a session's state (a message, its status, staff
 * reading it), bumped by the statement that makes the change. A reconnecting dashboard sends the
 * versions it holds and gets back the sessions whose version moved (api/modules/chat/chat.resync.ts).
 * A per-session counter cannot be skipped by a transaction that commits late, as a time cursor can.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('chat_sessions').addColumn('version', 'integer', (col) => col.notNull().defaultTo(0)).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('chat_sessions').dropColumn('version').execute();
}
