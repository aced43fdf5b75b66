import { type Kysely, sql } from 'kysely';
import { autoIncrementId, epochMillisecondsType } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * Work promised for later (api/jobs): one row a job, inserted by the write that promises it. Times
 * are epoch milliseconds. `state` is `pending` (due at `run_at`, claimed while `locked_until` is
 * ahead), `done` or `dead` (kept with its `last_error` for an admin to retry). `due_at` is when it
 * was first due: retries stop 24 hours after it. A `dedupe_key` is unique: a second pending job with
 * the same key is not added.
 */
export async function up(db: AnyDb): Promise<void> {
  const millis = epochMillisecondsType(db);
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('run_at', millis, (col) => col.notNull())
    .addColumn('due_at', millis, (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', millis)
    .addColumn('locked_by', 'text')
    .addColumn('dedupe_key', 'text', (col) => col.unique())
    .addColumn('last_error', 'text')
    .addColumn('created_at', millis, (col) => col.notNull())
    .addColumn('finished_at', millis)
    .execute();
  // The runner's one question: the pending jobs in order of when they are due.
  await db.schema
    .createIndex('jobs_pending_run_at')
    .on('jobs')
    .columns(['run_at', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  await db.schema.createIndex('jobs_state_finished_at').on('jobs').columns(['state', 'finished_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
