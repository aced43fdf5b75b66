import { type Kysely, sql } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * The runner's index leads with `state`. SQLite, which has no statistics unless ANALYZE ran, took
 * `state = 'pending'` as selective and read the pending jobs through `jobs_state_finished_at`, sorting
 * all of them on every claim and next-due read: with 10,000 notices waiting, 1 to 5 ms each, most of
 * a node's time while it drained them (bench:jobs). Equal on `state`, this index also gives the range
 * on `run_at` and the order, so both engines take it; it still holds pending jobs only.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('jobs_pending_run_at').execute();
  await db.schema
    .createIndex('jobs_pending_run_at')
    .on('jobs')
    .columns(['state', 'run_at', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('jobs_pending_run_at').execute();
  await db.schema.createIndex('jobs_pending_run_at').on('jobs').columns(['run_at', 'id']).where(sql.ref('state'), '=', 'pending').execute();
}
