import type { Kysely } from 'kysely';
import { autoIncrementId, epochMillisecondsType } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * Webhooks (api/modules/webhooks): a subscription is a URL, the event types it wants (a JSON list)
 * and the secret its deliveries are signed with. A delivery is one event for one subscription,
 * named by a random id (the receiver's idempotency key); it points at what the event is about
 * (`subject_kind`, `subject_id`) and holds no copy of it: the body is read when it is sent. Each
 * try is an attempt row: when, the status code or the error, how long. Times are epoch milliseconds.
 */
export async function up(db: AnyDb): Promise<void> {
  const millis = epochMillisecondsType(db);
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('events', 'text', (col) => col.notNull())
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('created_at', millis, (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('webhook_id', 'integer', (col) => col.notNull())
    .addColumn('event_id', 'text', (col) => col.notNull())
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('subject_kind', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'text', (col) => col.notNull())
    .addColumn('event_at', millis, (col) => col.notNull())
    .addColumn('delivered_at', millis)
    .execute();
  // An event fans out once per subscription, however often its fan-out job runs.
  await db.schema.createIndex('webhook_deliveries_event').unique().on('webhook_deliveries').columns(['event_id', 'webhook_id']).execute();
  await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'event_at']).execute();
  await db.schema.createIndex('webhook_deliveries_subject').on('webhook_deliveries').columns(['subject_kind', 'subject_id']).execute();
  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('delivery_id', 'text', (col) => col.notNull())
    .addColumn('at', millis, (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
