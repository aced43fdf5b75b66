import type { Kysely } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * `plan`: the pricing plan an application was started from (`/get-started?plan=`), or null. The API
 * accepts only the pricing plans' ids; no check constraint, so a new plan needs no migration.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('get_started_requests').addColumn('plan', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('get_started_requests').dropColumn('plan').execute();
}
