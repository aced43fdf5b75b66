import { type Kysely, sql } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * Per-session message order. Ids are given when a row is inserted, but several processes commit in
 * any order: a message with a smaller id can become visible after one with a larger id, and a
 * client that read up to the larger id would skip it for ever. So each message gets `seq`, its place
 * in its session, taken from `chat_sessions.last_seq` under the session row's lock in the message's
 * own transaction: within a session, seq order is commit order. History, unread counts (the read
 * marker is now `last_read_seq`) and dedupe go by it. Existing rows are numbered in id order, which
 * was their order on one process. The `(session_id, seq)` index replaces `(session_id, id)`.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('chat_sessions').addColumn('last_seq', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('chat_sessions').addColumn('last_read_seq', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('chat_messages').addColumn('seq', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await sql`update chat_messages set seq = numbered.seq
    from (select id, row_number() over (partition by session_id order by id) as seq from chat_messages) as numbered
    where chat_messages.id = numbered.id`.execute(db);
  await sql`update chat_sessions set
    last_seq = coalesce((select max(m.seq) from chat_messages m where m.session_id = chat_sessions.id), 0),
    last_read_seq = coalesce((select max(m.seq) from chat_messages m where m.session_id = chat_sessions.id and m.id <= chat_sessions.last_read_message_id), 0)`.execute(db);
  await db.schema.alterTable('chat_sessions').dropColumn('last_read_message_id').execute();
  await db.schema.createIndex('chat_messages_session_id_seq').on('chat_messages').columns(['session_id', 'seq']).unique().execute();
  await db.schema.dropIndex('chat_messages_session_id_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.createIndex('chat_messages_session_id_id').on('chat_messages').columns(['session_id', 'id']).execute();
  await db.schema.dropIndex('chat_messages_session_id_seq').execute();
  await db.schema.alterTable('chat_sessions').addColumn('last_read_message_id', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await sql`update chat_sessions set last_read_message_id = coalesce(
    (select max(m.id) from chat_messages m where m.session_id = chat_sessions.id and m.seq <= chat_sessions.last_read_seq), 0)`.execute(db);
  await db.schema.alterTable('chat_messages').dropColumn('seq').execute();
  await db.schema.alterTable('chat_sessions').dropColumn('last_read_seq').execute();
  await db.schema.alterTable('chat_sessions').dropColumn('last_seq').execute();
}
