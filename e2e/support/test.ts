import { test as base } from '@playwright/test';
import { type OwnServer, startOwnServer } from './admin';

let current: OwnServer | undefined;

/** This worker's server (its address, its data folder): started before the worker's first test. */
export function workerServer(): OwnServer {
  if (!current) throw new Error('no server for this worker yet: import `test` from e2e/support/test.ts');
  return current;
}

/**
 * Playwright's `test` with a server of its own for each worker: the compiled server (`npm run build`) on a
 * free port with a fresh DATA_DIR, stopped, its folder removed, when the worker ends. Workers share
 * nothing, so the specs run in parallel; within a worker they run one after another on its server, as
 * they did on the one server before. `baseURL` is the worker's server.
 */
export const test = base.extend<object, { workerServer: OwnServer }>({
  workerServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from its first parameter's pattern.
    async ({}, provide) => {
      // No load shedding (@fastify/under-pressure, tested in api/plugins/health.test.ts): with a browser and a
      // server per core, a busy CI machine lags the event loop past the limit, and a journey answered 503 proves nothing.
      const server = await startOwnServer({ PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' });
      current = server;
      try {
        await provide(server);
      } finally {
        current = undefined;
        await server.stop();
      }
    },
    { scope: 'worker', auto: true },
  ],
  baseURL: async ({ workerServer: server }, provide) => {
    await provide(server.baseURL);
  },
});
