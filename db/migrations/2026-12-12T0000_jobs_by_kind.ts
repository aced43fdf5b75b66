import type { Kysely } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * The jobs of one kind by when they were first due: how many lead notices a minute holds (the
 * digest, api/modules/leads/lead-notices.ts), read once per notice, without a walk through a
 * week of finished jobs.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('jobs_kind_due_at').on('jobs').columns(['kind', 'due_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('jobs_kind_due_at').execute();
}
