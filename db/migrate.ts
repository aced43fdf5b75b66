import { Migrator, PostgresAdapter, sql } from 'kysely';
import type { Db } from './client';
import { migrations } from './migrations';

/** Kysely's migrator over the project's migrations (for stepping up or down one by one). */
export function migratorFor(db: Db): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

// Any number, the same in every process: the key of the advisory lock below.
const migrationLockKey = 7_305_611_421;

async function migrate(db: Db): Promise<string[]> {
  const { error, results } = await migratorFor(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/**
 * The one migration runner: used by server start, `npm run db:migrate` and the tests. On PostgreSQL
 * several processes may start at once: Kysely's migrator locks around the migrations themselves, but
 * creates its own tables before that, and two `create table if not exists` at once can fail. One
 * session-level advisory lock around the whole run makes the others wait, then find nothing to do.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return migrate(db);
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${migrationLockKey})`.execute(connection);
    try {
      return await migrate(connection);
    } finally {
      await sql`select pg_advisory_unlock(${migrationLockKey})`.execute(connection);
    }
  });
}
