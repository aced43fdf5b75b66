import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { cleanUpLater } from './cleanup';
import { freshPostgresUrl, onPostgres } from './database';
import { buildApp, type BuildOptions } from '../../api/app';
import { parseConfig, type Config } from '../../api/config';

export interface TestServer {
  app: FastifyInstance;
  config: Config;
  dir: string;
}

/** The environment of a fresh database besides DATABASE_PATH: on the PostgreSQL run, a new database's DATABASE_URL. */
export async function freshDatabaseEnv(): Promise<Record<string, string>> {
  return onPostgres ? { DATABASE_URL: await freshPostgresUrl(), DATABASE_POOL_SIZE: '5' } : {};
}

const testSessionSecret = 'test-session-secret-that-is-long-enough-0123456789';

/**
 * With the `server-scaled` project: the run's Redis, under a key prefix of this server's own, so
 * test files share no counters. Two servers given the same `REDIS_KEY_PREFIX` act as two nodes.
 */
function scaledEnv(): Record<string, string> {
  const redisUrl = inject('redisUrl') as string | undefined;
  if (!redisUrl) return {};
  return { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:`, SESSION_SECRET: testSessionSecret };
}

/**
 * A real server on a fresh database, as each server test file uses: a SQLite file in its own temp
 * folder, or on the `server-scaled` project a fresh PostgreSQL database (its data folder is a temp
 * folder all the same). `env` overrides the environment (e.g. `{ STAFF_IDLE_MINUTES: '0.05' }`;
 * `{ LOG_LEVEL: 'info' }` with a `logStream` to read the log); closed after the test that made it, or
 * after the file when made outside a test (test/support/cleanup.ts).
 */
export async function buildTestServer(
  env: Record<string, string> = {},
  options: {
    listen?: boolean;
    logStream?: BuildOptions['logStream'];
    onRoute?: BuildOptions['onRoute'];
    /** The server's clock for its in-memory bounds (test/support/clock.ts's manualClock). */
    clock?: BuildOptions['clock'];
    /** The event loop's lag the server sees (its load shedding, /readyz), set by the test. */
    eventLoopLag?: BuildOptions['eventLoopLag'];
    /** Runs on the built app before it is ready (a test defines a kind of job here). */
    beforeReady?: (app: FastifyInstance) => void;
    /** The built web app to serve (dist/web's layout); none by default. */
    webRoot?: string;
  } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-test-'));
  const parsed = parseConfig({
    NODE_ENV: 'test',
    DATABASE_PATH: join(dir, 'app.db'),
    ...(await freshDatabaseEnv()),
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    ...scaledEnv(),
    ...env,
  });
  const config: Config = { ...parsed, sessionSecret: testSessionSecret };
  const app = await buildApp(config, {
    webRoot: options.webRoot ?? join(dir, 'no-web'),
    logStream: options.logStream,
    onRoute: options.onRoute,
    clock: options.clock,
    eventLoopLag: options.eventLoopLag,
  });
  options.beforeReady?.(app);
  if (options.listen) await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();
  cleanUpLater(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { app, config, dir };
}

/** The Cookie header that carries every cookie a response set, for the next request. */
export function cookiesFrom(response: { cookies: { name: string; value: string }[] }, previous = ''): string {
  const jar = new Map(previous ? previous.split('; ').map((pair) => pair.split('=') as [string, string]) : []);
  for (const cookie of response.cookies) jar.set(cookie.name, cookie.value);
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}
