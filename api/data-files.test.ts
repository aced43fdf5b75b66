import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settleSessionSecret, parseConfig } from './config';
import { validInput } from '../test/support/factories';
import { onPostgres } from '../test/support/database';
import { buildTestServer } from '../test/support/helper';
import { readOutbox } from '../test/support/outbox';

/** The permission bits a path grants to its group and to everyone else. */
function othersBits(path: string): number {
  return statSync(path).mode & 0o077;
}

describe('data files are private to the server user', async () => {
  const { app, dir } = await buildTestServer({ NOTIFY_EMAIL: 'staff@lotwise.example' });
  // A data folder that does not exist yet, as on a first start.
  const dataDir = join(dir, 'fresh', 'data');
  const server = await buildTestServer({ DATABASE_PATH: join(dataDir, 'app.db'), DATA_DIR: dataDir, NOTIFY_EMAIL: 'staff@lotwise.example' });

  it.skipIf(onPostgres)('creates the database folder 0700 and the database, its WAL, shared memory and pid file 0600 (SQLite: the PostgreSQL run has no file)', async () => {
    const created = await server.app.inject({ method: 'POST', url: '/api/contact-submission', payload: validInput.contact() });
    expect(created.statusCode).toBe(201);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dataDir).filter((name) => name.startsWith('app.db'));
    // app.db.pid: this server's process id, so a restore is refused while it runs (db/backup.ts).
    expect(files.sort()).toEqual(['app.db', 'app.db-shm', 'app.db-wal', 'app.db.pid']);
    for (const name of files) expect(othersBits(join(dataDir, name))).toBe(0);
  });

  it('writes the mail outbox 0700 and each mail 0600', async () => {
    await app.inject({ method: 'POST', url: '/api/contact-submission', payload: validInput.contact() });
    await app.jobs.runDue();
    const [mail] = await readOutbox(dir);
    expect(mail).toBeDefined();
    expect(statSync(join(dir, 'outbox')).mode & 0o777).toBe(0o700);
    expect(othersBits(join(dir, 'outbox', mail!.file))).toBe(0);
  });

  it('makes the outbox again, 0700, when it was removed while the server ran: the mail is not lost', async () => {
    rmSync(join(dir, 'outbox'), { recursive: true, force: true });
    const context = { jobId: 990_001, attempt: 1, dueAt: Date.now(), log: app.log, signal: new AbortController().signal };
    await app.mail.send({ purpose: 'security', to: 'staff@lotwise.example', compose: () => ({ subject: 'After the outbox went', text: 'written all the same' }) }, context);
    const mails = await readOutbox(dir);
    expect(mails.map((each) => each.text.trim())).toEqual(['written all the same']);
    expect(statSync(join(dir, 'outbox')).mode & 0o777).toBe(0o700);
  });

  it('keeps the generated session secret in a private folder and file', () => {
    const secretDir = join(dir, 'secret-home');
    settleSessionSecret(parseConfig({ DATA_DIR: secretDir }));
    expect(statSync(secretDir).mode & 0o777).toBe(0o700);
    expect(othersBits(join(secretDir, 'session-secret'))).toBe(0);
  });
});
