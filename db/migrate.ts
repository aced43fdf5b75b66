import { Migrator } from 'kysely';
import type { Db } from './client';
import { migrations } from './migrations';

/** Kysely's migrator over the project's migrations (for stepping up or down one by one). */
export function migratorFor(db: Db): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/** The one migration runner: used by server start, `npm run db:migrate` and the tests. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await migratorFor(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
