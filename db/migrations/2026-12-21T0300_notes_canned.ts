import type { Kysely } from 'kysely';
import { autoIncrementId } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * Private notes and canned replies (DESIGN.md 11). Notes have a table of their own, not a `kind` of
 * chat message: no query a visitor's path runs over `chat_messages` can return one, and the messages'
 * `seq` (the visitor's cursor) counts messages only. As with messages, a deleted account leaves its
 * notes, their author unknown (`set null`).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('chat_notes')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('session_id', 'text', (col) => col.notNull().references('chat_sessions.id').onDelete('cascade'))
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('author_staff_id', 'integer', (col) => col.references('admins.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('chat_notes_session').on('chat_notes').columns(['session_id', 'id']).execute();

  await db.schema
    .createTable('canned_replies')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('canned_replies').execute();
  await db.schema.dropTable('chat_notes').execute();
}
