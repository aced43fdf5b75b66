// @scaled: backup and restore of each database
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../db/client';
import { freshPostgresUrl, onPostgres } from '../test/support/database';
import { validInput } from '../test/support/factories';
import { runScript } from '../test/support/process';
import { startAppProcess } from './services/app-process';

/** The contact leads stored in the SQLite file at `path`, by email. */
async function storedEmails(path: string): Promise<Set<string>> {
  const { db } = createDb(path);
  try {
    return new Set((await db.selectFrom('contactSubmissions').select('email').execute()).map((row) => row.email));
  } finally {
    await db.destroy();
  }
}

describe.skipIf(onPostgres)('db:backup under write load, and db:restore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-backup-'));
  const env = { DATABASE_PATH: join(dir, 'app.db'), DATA_DIR: dir, RATE_LIMIT_ALLOWLIST: '127.0.0.1' };
  const backupFile = join(dir, 'backups', 'lotwise.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies every acknowledged lead while 8 writers post, refuses a restore while the server runs, and puts the copy back once it is stopped', async () => {
    const server = await startAppProcess(env);
    let writing = true;
    // Each lead's email, once the server answered 201 for it.
    const acknowledged: string[] = [];
    const writer = async (id: number) => {
      for (let n = 0; writing; n += 1) {
        const email = `w${id}-${n}@backup.example`;
        const response = await fetch(`${server.url}/api/contact-submission`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...validInput.contact(), email }),
        });
        if (response.status === 201) acknowledged.push(email);
        else throw new Error(`writer ${id}: ${response.status} ${await response.text()}`);
      }
    };
    const writers = Array.from({ length: 8 }, (_, id) => writer(id));
    try {
      await sleep(500);
      const beforeBackup = [...acknowledged];
      const backup = await runScript('scripts/db-backup.ts', ['--out', backupFile], env);
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      expect(backup.stdout).toContain(`Backed up ${env.DATABASE_PATH} to ${backupFile}`);
      const afterBackup = acknowledged.length;
      await sleep(200);
      writing = false;
      await Promise.all(writers);
      expect(beforeBackup.length).toBeGreaterThan(8);
      expect(acknowledged.length).toBeGreaterThan(afterBackup);
      expect(statSync(backupFile).mode & 0o077).toBe(0);

      const whileRunning = await runScript('scripts/db-restore.ts', ['--from', backupFile], env);
      expect(whileRunning.code).toBe(1);
      expect(whileRunning.stderr.trim()).toBe(`A server (process ${server.pid}) is using ${env.DATABASE_PATH}: stop it before restoring`);
      // Refused, so nothing changed: the server still has every lead.
      expect((await storedEmails(env.DATABASE_PATH)).size).toBe(acknowledged.length);

      await server.stop();
      const restore = await runScript('scripts/db-restore.ts', ['--from', backupFile], env);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    const restored = await storedEmails(env.DATABASE_PATH);
    // Every lead acknowledged before the backup began is back; the ones after it finished are not.
    expect(beforeBackup.filter((email) => !restored.has(email))).toEqual([]);
    expect(acknowledged.slice(afterBackup).filter((email) => restored.has(email))).toEqual([]);
    } finally {
      writing = false;
      await Promise.allSettled(writers);
      await server.stop();
    }

    // The restored file serves again.
    const again = await startAppProcess(env);
    try {
      const created = await fetch(`${again.url}/api/contact-submission`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(validInput.contact()),
      });
      expect(created.status).toBe(201);
    } finally {
      await again.stop();
    }
  });

  it('refuses a file that is not a backup of this app, changing nothing', async () => {
    const before = await storedEmails(env.DATABASE_PATH);
    writeFileSync(join(dir, 'notes.txt'), 'not a database');
    const notABackup = await runScript('scripts/db-restore.ts', ['--from', join(dir, 'notes.txt')], env);
    const missing = await runScript('scripts/db-restore.ts', ['--from', join(dir, 'nothing-here.db')], env);
    const noOption = await runScript('scripts/db-backup.ts', [], env);
    expect([notABackup.code, missing.code, noOption.code]).toEqual([1, 1, 1]);
    expect(notABackup.stderr.trim()).toBe(`${join(dir, 'notes.txt')} is not a SQLite database`);
    expect(missing.stderr.trim()).toBe(`No backup at ${join(dir, 'nothing-here.db')}`);
    expect(noOption.stderr.trim()).toBe('Usage: npm run db:backup -- --out FILE');
    expect(await storedEmails(env.DATABASE_PATH)).toEqual(before);
  });
});

describe.runIf(onPostgres)('db:backup on PostgreSQL', () => {
  it('points to pg_dump', async () => {
    const result = await runScript('scripts/db-backup.ts', ['--out', join(tmpdir(), 'never.db')], { DATABASE_URL: await freshPostgresUrl() });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('DATABASE_URL is PostgreSQL: back it up with pg_dump (see README, "Backups")');
  });
});
