// @scaled: a killed server process and what its database kept
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../db/open';
import { freshDatabaseEnv } from '../test/support/helper';
import { contactSubmission, staffEmail, staffEnv, staffPassword } from '../test/support/factories';
import { startAppProcess } from '../scripts/services/app-process';

/** The real server process, as `npm start` runs it, on a data folder that outlives it. */
describe('durability of the real server process', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-durable-'));
  const env: Record<string, string> = {
    ...staffEnv,
    DATABASE_PATH: join(dir, 'app.db'),
    ...(await freshDatabaseEnv()),
    DATA_DIR: dir,
    RATE_LIMIT_ALLOWLIST: '127.0.0.1',
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const postJson = (baseUrl: string, path: string, body: unknown, cookie?: string) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });

  it('keeps data and signed-in sessions across a restart', async () => {
    const first = await startAppProcess(env);
    const created = await postJson(first.url, '/api/contact-submission', contactSubmission({ name: 'Before Restart' }));
    expect(created.status).toBe(201);
    const signIn = await postJson(first.url, '/api/admin-login', { username: staffEmail, password: staffPassword });
    const cookie = signIn.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    expect(cookie).toContain('lw_session=');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await startAppProcess(env);
    try {
      const session = await (await fetch(`${second.url}/api/session`, { headers: { cookie } })).json();
      expect(session.admin).toMatchObject({ email: staffEmail });
      const list = await fetch(`${second.url}/api/contact-submissions`, { headers: { cookie } });
      expect(list.status).toBe(200);
      expect((await list.json()).map((row: { name: string }) => row.name)).toContain('Before Restart');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('loses no acknowledged submission when killed with SIGKILL under write load', async () => {
    const server = await startAppProcess(env);
    const acknowledged = new Map<number, string>();
    let sent = 0;
    let stop = false;
    const worker = async (workerId: number) => {
      while (!stop) {
        const name = `Load ${workerId}-${sent++}`;
        try {
          const response = await postJson(server.url, '/api/contact-submission', contactSubmission({ name }));
          if (response.status === 201) acknowledged.set(((await response.json()) as { id: number }).id, name);
        } catch {
          // The connection died with the process: not acknowledged, so not owed.
        }
      }
    };
    const workers = Array.from({ length: 12 }, (_, id) => worker(id));
    // Kill in the middle of the load, with requests in flight.
    while (acknowledged.size < 200) await sleep(20);
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe('SIGKILL');
    stop = true;
    await Promise.all(workers);

    const db = connectDatabase({ url: env.DATABASE_URL, path: env.DATABASE_PATH!, poolSize: 1 });
    try {
      const stored = new Map(
        (await db.selectFrom('contactSubmissions').select(['id', 'name']).execute()).map((row) => [row.id, row.name] as const),
      );
      const missing = [...acknowledged].filter(([id, name]) => stored.get(id) !== name);
      expect(acknowledged.size).toBeGreaterThanOrEqual(200);
      expect(missing).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
