import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanUpLater } from './cleanup';
import type { Db } from '../../db/client';
import { connectDatabase } from '../../db/open';
import { type AppProcess, startAppProcess } from '../../scripts/services/app-process';
import { freshDatabaseEnv } from './helper';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

export interface CrashHarness {
  /** What every process gets: the database (a file here, or the run's PostgreSQL), a data folder, the sink as SMTP server, and the test's own settings. */
  env: Record<string, string>;
  /** The database the processes share, opened by the test to look at it. */
  db: Db;
  sink: SmtpSink;
  /** A real server process, as `npm start` runs it (kill it -9 and start another). */
  start: () => Promise<AppProcess>;
}

/**
 * For a describe block whose real server processes die (kill -9) and come back on one database that
 * outlives them, mailing a real SMTP server on loopback. Call it in the block's body: its processes,
 * the database handle, the sink and the folder are gone after the block's tests.
 */
export async function crashHarness(name: string, settings: Record<string, string>): Promise<CrashHarness> {
  const dir = mkdtempSync(join(tmpdir(), `lotwise-${name}-`));
  const sink = await startSmtpSink();
  const env: Record<string, string> = {
    DATABASE_PATH: join(dir, 'app.db'),
    ...(await freshDatabaseEnv()),
    DATA_DIR: dir,
    RATE_LIMIT_ALLOWLIST: '127.0.0.1',
    SMTP_URL: sink.url,
    ...settings,
  };
  const db = connectDatabase({ url: env.DATABASE_URL, path: env.DATABASE_PATH!, poolSize: 1 });
  const nodes: AppProcess[] = [];
  cleanUpLater(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await db.destroy();
    await sink.down();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    env,
    db,
    sink,
    async start() {
      const node = await startAppProcess(env);
      nodes.push(node);
      return node;
    },
  };
}
