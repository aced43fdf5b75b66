import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { cleanUpLater } from './cleanup';
import { createPostgresDatabase } from '../../scripts/services/postgres';
import { createDb, createPostgresDb, type Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';

/** The superuser URL of the run's PostgreSQL on the `server-scaled` project; undefined on SQLite runs. */
export function testPostgresUrl(): string | undefined {
  return inject('postgresUrl');
}

/** True on the PostgreSQL run: SQLite-only tests skip with `describe.skipIf(onPostgres)`. */
export const onPostgres = testPostgresUrl() !== undefined;

/** A fresh, empty PostgreSQL database on the run's server (only on the `server-scaled` project). */
export async function freshPostgresUrl(): Promise<string> {
  const url = testPostgresUrl();
  if (!url) throw new Error('no PostgreSQL in this run (project server-scaled starts one)');
  return createPostgresDatabase(url);
}

/**
 * For a test file: a migrated database, closed after the test or file that made it (cleanup.ts). A real SQLite file in a temp
 * folder, or on the `server-scaled` project a fresh PostgreSQL database.
 */
export async function testDatabase(name: string): Promise<Db> {
  if (onPostgres) {
    const db = createPostgresDb(await freshPostgresUrl(), 5);
    await migrateToLatest(db);
    cleanUpLater(() => db.destroy());
    return db;
  }
  return (await testDatabaseFile(name)).db;
}

/** A migrated SQLite database on a file, with the file's path, for a test that opens a second connection to it. */
export async function testDatabaseFile(name: string): Promise<{ db: Db; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), `lotwise-${name}-`));
  const path = join(dir, 'app.db');
  const { db } = createDb(path);
  await migrateToLatest(db);
  cleanUpLater(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, path };
}

/**
 * A fresh, empty database (not migrated) and a way to open connections to it, as several server
 * processes would: SQLite files share one file, PostgreSQL pools one database. Closed after the test or file that made it.
 */
export async function testDatabaseOpener(name: string): Promise<() => Db> {
  const opened: Db[] = [];
  cleanUpLater(async () => {
    for (const db of opened) await db.destroy();
  });
  if (onPostgres) {
    const url = await freshPostgresUrl();
    return () => {
      const db = createPostgresDb(url, 2);
      opened.push(db);
      return db;
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `lotwise-${name}-`));
  cleanUpLater(() => rmSync(dir, { recursive: true, force: true }));
  return () => {
    const { db } = createDb(join(dir, 'app.db'));
    opened.push(db);
    return db;
  };
}
