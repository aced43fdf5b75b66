import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * Every chat message costs a write to the table and to each of its indexes, on the path between
 * a visitor pressing Enter and staff seeing the message. Two of those writes bought nothing:
 * - AUTOINCREMENT kept a counter row in `sqlite_sequence`, written with every message, only to
 *   promise ids are never reused after a delete. Messages are never deleted on their own (only with
 *   their session, by cascade), and a plain integer key still counts up from the largest id.
 * - The `(created_at, id)` index served the staff's list of all messages, which now pages by id:
 *   ids are given in the order messages are stored, the same order as their timestamps.
 * SQLite cannot drop AUTOINCREMENT in place: the table is rebuilt, ids and rows kept.
 */
async function rebuild(db: AnyDb, options: { autoIncrement: boolean }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.schema
      .createTable('chat_messages_rebuilt')
      .addColumn('id', 'integer', (col) => (options.autoIncrement ? col.primaryKey().autoIncrement() : col.primaryKey()))
      .addColumn('session_id', 'text', (col) => col.notNull().references('chat_sessions.id').onDelete('cascade'))
      .addColumn('message', 'text', (col) => col.notNull())
      .addColumn('sender_email', 'text')
      .addColumn('sender_name', 'text')
      .addColumn('is_from_user', 'integer', (col) => col.notNull())
      .addColumn('client_id', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await sql`insert into chat_messages_rebuilt (id, session_id, message, sender_email, sender_name, is_from_user, client_id, created_at)
      select id, session_id, message, sender_email, sender_name, is_from_user, client_id, created_at from chat_messages`.execute(trx);
    await trx.schema.dropTable('chat_messages').execute();
    await trx.schema.alterTable('chat_messages_rebuilt').renameTo('chat_messages').execute();
    // One session's history in order, and the per-session aggregates of the staff inbox.
    await trx.schema.createIndex('chat_messages_session_id_id').on('chat_messages').columns(['session_id', 'id']).execute();
    // A retried send with the same clientId is stored once.
    await trx.schema
      .createIndex('chat_messages_session_client_id')
      .on('chat_messages')
      .columns(['session_id', 'client_id'])
      .unique()
      .where(sql.ref('client_id'), 'is not', null)
      .execute();
    if (options.autoIncrement) {
      await trx.schema.createIndex('chat_messages_created_at_id').on('chat_messages').columns(['created_at', 'id']).execute();
    }
  });
}

// PostgreSQL keeps no counter row per insert (its identity column is a sequence, never rebuilt):
// only the index goes.
export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) await db.schema.dropIndex('chat_messages_created_at_id').execute();
  else await rebuild(db, { autoIncrement: false });
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) await db.schema.createIndex('chat_messages_created_at_id').on('chat_messages').columns(['created_at', 'id']).execute();
  else await rebuild(db, { autoIncrement: true });
}
