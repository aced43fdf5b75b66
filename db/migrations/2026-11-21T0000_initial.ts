import { type Kysely, sql } from 'kysely';
import { autoIncrementId, epochMillisecondsType } from './dialect';

// Frozen once landed: later changes go in a new migration file. (Ids and epoch milliseconds are
// written through ./dialect since PostgreSQL came: the same schema as ever on SQLite.)

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

const leadColumns = (db: AnyDb, table: ReturnType<AnyDb['schema']['createTable']>) =>
  table
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('new').check(sql`status in ('new', 'contacted', 'closed')`))
    .addColumn('note', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull());

const leadTables = ['demo_requests', 'contact_submissions', 'support_tickets', 'get_started_requests'];

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('username', 'text', (col) => col.notNull().unique())
    .addColumn('email', 'text', (col) => col.unique())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('admins')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('sid', 'text', (col) => col.primaryKey())
    .addColumn('data', 'text', (col) => col.notNull())
    .addColumn('expires_at', epochMillisecondsType(db), (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull().unique())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('used', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  await leadColumns(db, db.schema.createTable('demo_requests'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('company', 'text', (col) => col.notNull())
    .addColumn('phone', 'text')
    .addColumn('message', 'text')
    .execute();

  await leadColumns(db, db.schema.createTable('contact_submissions'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('company', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .execute();

  await leadColumns(db, db.schema.createTable('support_tickets'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('company', 'text', (col) => col.notNull())
    .addColumn('priority', 'text', (col) => col.notNull())
    .addColumn('category', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .execute();

  await leadColumns(db, db.schema.createTable('get_started_requests'))
    .addColumn('first_name', 'text', (col) => col.notNull())
    .addColumn('last_name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('dealership_name', 'text', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('city', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('zip_code', 'text', (col) => col.notNull())
    .addColumn('inventory_size', 'text', (col) => col.notNull())
    .addColumn('launch_date', 'text', (col) => col.notNull())
    .addColumn('current_website', 'text')
    .addColumn('primary_goals', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('current_website_provider', 'text')
    .addColumn('current_sticker_photo_company', 'text')
    .addColumn('current_feed_provider', 'text')
    .addColumn('feed_export_destinations', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('additional_feed_destinations', 'text')
    .addColumn('additional_info', 'text')
    .addColumn('allow_marketing', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  // Every list is read newest first, by keyset on (created_at, id).
  for (const table of leadTables) {
    await db.schema.createIndex(`${table}_created_at_id`).on(table).columns(['created_at', 'id']).execute();
  }

  await db.schema
    .createTable('trial_signups')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('company', 'text')
    .addColumn('plan', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('chat_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('visitor_id', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open').check(sql`status in ('open', 'resolved')`))
    .addColumn('page_url', 'text')
    .addColumn('referrer', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('sender_email', 'text')
    .addColumn('last_read_message_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_message_at', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('chat_sessions_last_message_at').on('chat_sessions').columns(['last_message_at', 'id']).execute();

  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('session_id', 'text', (col) => col.notNull().references('chat_sessions.id').onDelete('cascade'))
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('sender_email', 'text')
    .addColumn('sender_name', 'text')
    .addColumn('is_from_user', 'integer', (col) => col.notNull())
    .addColumn('client_id', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  // One session's history in order, and the per-session aggregates of the staff inbox.
  await db.schema.createIndex('chat_messages_session_id_id').on('chat_messages').columns(['session_id', 'id']).execute();
  await db.schema.createIndex('chat_messages_created_at_id').on('chat_messages').columns(['created_at', 'id']).execute();
  // A retried send with the same clientId is stored once.
  await db.schema
    .createIndex('chat_messages_session_client_id')
    .on('chat_messages')
    .columns(['session_id', 'client_id'])
    .unique()
    .where(sql.ref('client_id'), 'is not', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'chat_messages',
    'chat_sessions',
    'trial_signups',
    ...leadTables,
    'password_resets',
    'sessions',
    'admins',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
