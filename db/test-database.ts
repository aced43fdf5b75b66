import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createDb, type Db } from './client';
import { migrateToLatest } from './migrate';

/** For a test file: a migrated database on a real SQLite file in a temp folder, removed after the file's tests. */
export async function testDatabase(name: string): Promise<Db> {
  return (await testDatabaseFile(name)).db;
}

/** testDatabase(), with the file's path, for a test that opens a second connection to it. */
export async function testDatabaseFile(name: string): Promise<{ db: Db; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), `lotwise-${name}-`));
  const path = join(dir, 'app.db');
  const { db } = createDb(path);
  await migrateToLatest(db);
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, path };
}
