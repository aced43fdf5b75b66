import { Migrator } from 'kysely';
import type { Db } from './client';
import { migrations } from './migrations';

/** The one migration runner: used by server start, `npm run db:migrate` and the tests. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
