import type { Kysely } from 'kysely';
import { epochMillisecondsType } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * A webhook receiver that keeps failing is paused per subscription, not per delivery (DESIGN 17):
 * `failing_since` (its first failure since it last answered 2xx), `paused_until` (no delivery to it is
 * tried before then; the deliveries wait without spending a try), `failures` (in a row, for the
 * backoff) and `last_failure` (a short class: timeout, refused, tls, http-status 503 ...). Shown to
 * admins. Times are epoch milliseconds; all empty while it answers.
 */
export async function up(db: AnyDb): Promise<void> {
  const millis = epochMillisecondsType(db);
  await db.schema
    .alterTable('webhooks')
    .addColumn('failing_since', millis)
    .execute();
  await db.schema.alterTable('webhooks').addColumn('paused_until', millis).execute();
  await db.schema
    .alterTable('webhooks')
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('webhooks').addColumn('last_failure', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of ['last_failure', 'failures', 'paused_until', 'failing_since']) await db.schema.alterTable('webhooks').dropColumn(column).execute();
}
