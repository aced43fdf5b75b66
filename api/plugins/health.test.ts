// @scaled: readiness of PostgreSQL and Redis, and their outages
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operatorPaths, type Readiness } from '../contract/operations';
import { apiPaths } from '../contract/paths';
import { startPostgres } from '../../scripts/services/postgres';
import { startRedis } from '../../scripts/services/redis';
import { onPostgres } from '../../test/support/database';
import { cleanUpLater } from '../../test/support/cleanup';
import { buildTestServer } from '../../test/support/helper';
import { waitFor, waitUntil } from '../../test/support/wait';
import { measuredEventLoopLag } from '../lib/event-loop-lag';

async function readyz(app: FastifyInstance): Promise<{ status: number; body: Readiness }> {
  const response = await app.inject({ method: 'GET', url: operatorPaths.readyz });
  return { status: response.statusCode, body: response.json<Readiness>() };
}

/** Asks /readyz until `wanted` holds (an outage takes a moment to be seen, a recovery to reconnect). */
async function readyzUntil(app: FastifyInstance, wanted: (answer: { status: number; body: Readiness }) => boolean, withinMs = 20_000) {
  let answer = await readyz(app);
  // Past `withinMs` the last answer is returned, for the test's expectation to show.
  await waitUntil(async () => wanted((answer = await readyz(app))), { timeoutMs: withinMs, intervalMs: 100 }).catch(() => undefined);
  return answer;
}

describe('GET /healthz and GET /readyz', () => {
  it('answer 200 with each part ready, set no cookie, and are never rate limited', async () => {
    const { app } = await buildTestServer();
    const health = await app.inject({ method: 'GET', url: operatorPaths.healthz });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ ok: true });

    const { status, body } = await readyz(app);
    expect(status).toBe(200);
    expect(body.ready).toBe(true);
    expect(body.failing).toEqual([]);
    expect(body.checks.database.ok).toBe(true);
    expect(body.checks.jobs).toMatchObject({ ok: true, running: 0 });
    expect(body.checks.pressure.ok).toBe(true);
    // Redis is checked only where it is configured (the server-scaled project).
    expect(body.checks.redis?.ok).toBe(onPostgres ? true : undefined);

    const answers = await Promise.all(Array.from({ length: 60 }, () => app.inject({ method: 'GET', url: operatorPaths.readyz })));
    expect(answers.map((answer) => answer.statusCode).filter((code) => code !== 200)).toEqual([]);
    expect(answers.some((answer) => answer.headers['set-cookie'])).toBe(false);
    // The old probe stays for the scripts that use it.
    expect((await app.inject({ method: 'GET', url: apiPaths.health })).statusCode).toBe(200);
  });

  it('answers 503 naming jobs while the job runner is stuck, and 200 once it moves again', async () => {
    let release = () => {};
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const { app } = await buildTestServer(
      // A lease of 1 s: the job's deadline is at 0.8 s, and a class held past it by a job that does not end is stuck.
      { JOBS_CONCURRENCY: '1', JOBS_POLL_MS: '50', JOBS_STUCK_SECONDS: '0.5', JOBS_LEASE_SECONDS: '1' },
      { beforeReady: (built) => void built.jobs.define('test.hang', { class: 'mail', payload: z.object({}), handle: () => hanging }) },
    );
    expect((await readyz(app)).status).toBe(200);

    // Its one slot is held by a job that never ends: the runner no longer looks at the table.
    await app.write(async (tx) => tx.enqueue({ kind: 'test.hang', payload: {} }));
    const stuck = await readyzUntil(app, (answer) => answer.status === 503);
    expect(stuck.status).toBe(503);
    expect(stuck.body.failing).toEqual(['jobs']);
    expect(stuck.body.checks.jobs).toMatchObject({ ok: false, error: 'the job runner is stuck', running: 1 });
    expect(stuck.body.checks.database.ok).toBe(true);
    expect((await app.inject({ method: 'GET', url: operatorPaths.healthz })).statusCode).toBe(200);

    release();
    const moving = await readyzUntil(app, (answer) => answer.status === 200);
    expect(moving.status).toBe(200);
    expect(moving.body.checks.jobs.ok).toBe(true);
  });
});

// A node of its own on a PostgreSQL and a Redis of its own, stopped and started again under it.
describe.runIf(onPostgres)('GET /readyz while PostgreSQL or Redis is away', () => {
  it('answers 503 naming redis, then database, and 200 again once each is back', async () => {
    const postgres = await startPostgres();
    let redis = await startRedis();
    // Registered before the server's own close, so they run after it (cleanups run last made, first run).
    // Inside a running test: an afterAll here would be dropped, and both servers left running.
    cleanUpLater(() => postgres.stop());
    cleanUpLater(() => redis.stop());
    const { app } = await buildTestServer({ DATABASE_URL: await postgres.createDatabase(), REDIS_URL: redis.url });
    expect((await readyz(app)).status).toBe(200);

    await redis.stop();
    const withoutRedis = await readyzUntil(app, (answer) => answer.status === 503);
    expect(withoutRedis.status).toBe(503);
    expect(withoutRedis.body.failing).toEqual(['redis']);
    expect(withoutRedis.body.checks.redis).toEqual({ ok: false, error: 'unreachable' });
    expect(withoutRedis.body.checks.database.ok).toBe(true);

    redis = await startRedis(redis.port);
    const redisBack = await readyzUntil(app, (answer) => answer.status === 200);
    expect(redisBack.status).toBe(200);
    expect(redisBack.body.checks.redis?.ok).toBe(true);

    await postgres.halt();
    const withoutDatabase = await readyzUntil(app, (answer) => answer.status === 503);
    expect(withoutDatabase.status).toBe(503);
    expect(withoutDatabase.body.failing).toEqual(['database']);
    expect(withoutDatabase.body.checks.database.ok).toBe(false);
    // The process still answers: a restart would not bring the database back.
    expect((await app.inject({ method: 'GET', url: operatorPaths.healthz })).statusCode).toBe(200);

    await postgres.resume();
    const databaseBack = await readyzUntil(app, (answer) => answer.status === 200);
    expect(databaseBack.status).toBe(200);
    expect(databaseBack.body.failing).toEqual([]);
  }, 90_000);
});

describe('load shedding', () => {
  it('answers 503 with Retry-After while the event loop lags past the limit, but not the probes; then serves again', async () => {
    // The lag the server sees is the test's: no blocked loop, no waiting for a sample.
    let lagMs: number | undefined;
    const { app } = await buildTestServer({ PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '20', PRESSURE_RETRY_AFTER_SECONDS: '7' }, { eventLoopLag: { delayMs: () => lagMs } });
    const health = () => app.inject({ method: 'GET', url: apiPaths.health });

    // Before the first sample: serving, and readyz says the lag is not known yet (null, not NaN).
    expect((await health()).statusCode).toBe(200);
    const unmeasured = await readyz(app);
    expect(unmeasured.status).toBe(200);
    expect(unmeasured.body.checks.pressure).toEqual({ ok: true, eventLoopDelayMs: null });

    lagMs = 20;
    expect((await health()).statusCode).toBe(200);
    expect((await readyz(app)).body.checks.pressure).toEqual({ ok: true, eventLoopDelayMs: 20 });

    lagMs = 20.6;
    const shed = await health();
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('7');
    expect(shed.json()).toEqual({ message: 'The server is busy: please try again in 7 seconds' });
    // The probes answer under pressure: the process is alive, and not ready for more work.
    expect((await app.inject({ method: 'GET', url: operatorPaths.healthz })).statusCode).toBe(200);
    const pressed = await readyz(app);
    expect(pressed.status).toBe(503);
    expect(pressed.body.failing).toEqual(['pressure']);
    expect(pressed.body.checks.pressure).toEqual({ ok: false, error: 'requests are being shed', eventLoopDelayMs: 21 });

    lagMs = 3;
    expect((await health()).statusCode).toBe(200);
    expect((await readyz(app)).status).toBe(200);
  });

  it('a lag source that answers no number is reported as not measured, and sheds nothing', async () => {
    const { app } = await buildTestServer({ PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '20' }, { eventLoopLag: { delayMs: () => Number.NaN } });
    expect((await app.inject({ method: 'GET', url: apiPaths.health })).statusCode).toBe(200);
    const { status, body } = await readyz(app);
    expect(status).toBe(200);
    expect(body.checks.pressure).toEqual({ ok: true, eventLoopDelayMs: null });
  });
});

describe('the measured event loop lag', () => {
  it('is unknown before its first sample, and a loop blocked for a whole sample reads as at least the block, never NaN', async () => {
    const lag = measuredEventLoopLag(50);
    cleanUpLater(() => lag.stop());
    expect(lag.delayMs()).toBeUndefined();
    // Blocked for four sample intervals: no timer of the histogram fires in the sample (its mean is
    // NaN, which @fastify/under-pressure reported as Infinity, and readyz as no number).
    const until = performance.now() + 200;
    while (performance.now() < until);
    await waitFor(() => expect(lag.delayMs()).toBeDefined(), { timeoutMs: 5000, intervalMs: 5 });
    expect(lag.delayMs()).toBeGreaterThanOrEqual(150);
  });
});
