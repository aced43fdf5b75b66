// @scaled: job claims and leases, statements per dialect
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { onPostgres, testDatabaseOpener } from '../../test/support/database';
import { transactionsFor } from '../../db/writes';
import { EventBus } from '../events/bus';
import { createWrite } from '../events/write';
import { countJobs, findJob } from './jobs.repository';
import { retryDelayMs, JobRunner, type RunnerOptions } from './runner';

const silent: FastifyBaseLogger = new Proxy({} as FastifyBaseLogger, {
  get: (_target, name) => (name === 'child' ? () => silent : name === 'level' ? 'silent' : () => undefined),
});

const second = 1000;
const options: RunnerOptions = { leaseMs: 60 * second, retryBaseMs: 10 * second, retryForMs: 24 * 3600 * second, pollMs: 50, slots: { access: 4, mail: 4, realtime: 4, webhook: 4, maintenance: 4 } };

/** A node: its own connection to the shared database, its own runner, on a clock the test may move. */
function nodeOn(db: Db, clock?: { now: number }, overrides: Partial<RunnerOptions> = {}) {
  const now = clock ? () => clock.now : Date.now;
  const transactions = transactionsFor(db);
  // Rows are written with the class the runner's definitions name (as api/events does in the app).
  const write = createWrite({ transactions, bus: new EventBus(), now, classOfJob: (kind) => runner.classOf(kind) });
  const runner: JobRunner = new JobRunner(db, write, (statement) => transactions.single(statement), { ...options, ...overrides }, silent, now);
  return { db, write, runner };
}

describe(`jobs (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, async () => {
  // A database of its own for each test, migrated, opened as often as the test has nodes.
  const databases: (() => Db)[] = [];
  for (let index = 0; index < 7; index += 1) {
    const open = await testDatabaseOpener(`jobs-${index}`);
    await migrateToLatest(open());
    databases.push(open);
  }
  // Registered after the databases: stopped before they close.
  const runners: JobRunner[] = [];
  afterAll(async () => {
    for (const runner of runners) await runner.stop(100);
  });
  let current = -1;
  beforeEach(() => void (current += 1));
  const node = (...args: Parameters<typeof nodeOn> extends [Db, ...infer Rest] ? Rest : never) => {
    const made = nodeOn(databases[current]!(), ...args);
    runners.push(made.runner);
    return made;
  };

  it('runs each due job once across two runners claiming at the same time', async () => {
    const done: number[] = [];
    const [a, b] = [node(), node()];
    for (const [name, { runner }] of [['a', a], ['b', b]] as const) {
      runner.define('count', {
        class: 'mail',
        payload: z.object({ n: z.number() }),
        handle: async ({ n }) => {
          await new Promise((resolve) => setTimeout(resolve, 2));
          done.push(n);
          void name;
        },
      });
    }
    await a.write(async (tx) => {
      for (let n = 0; n < 60; n += 1) tx.enqueue({ kind: 'count', payload: { n } });
    });
    await Promise.all([a.runner.start(), b.runner.start()]);
    await Promise.all([a.runner.runDue(), b.runner.runDue()]);
    await Promise.all([a.runner.runDue(), b.runner.runDue()]);
    expect(done.slice().sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, n) => n));
    // Jobs ending together are recorded together (runner.ts markDone): each is done, once.
    expect(await countJobs(a.db)).toEqual({ pending: 0, done: 60, dead: 0 });
    const unfinished = await a.db.selectFrom('jobs').select('id').where((eb) => eb.or([eb('finishedAt', 'is', null), eb('lockedBy', 'is not', null)])).execute();
    expect(unfinished).toEqual([]);
  });

  it('takes a job again once the lease of a node that stopped answering runs out', async () => {
    const clock = { now: Date.now() };
    const dead = node(clock);
    const alive = node(clock);
    const runs: string[] = [];
    dead.runner.define('lease', {
      class: 'mail',
      payload: z.object({}),
      // The node dies mid-job: its handler never ends.
      handle: () => new Promise<void>(() => runs.push('dead node')),
    });
    alive.runner.define('lease', { class: 'mail', payload: z.object({}), handle: async () => void runs.push('other node') });
    await dead.write(async (tx) => tx.enqueue({ kind: 'lease', payload: {}, dedupeKey: 'lease-test' }));
    await dead.runner.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runs).toEqual(['dead node']);
    // Before the lease ends the other node leaves it alone.
    await alive.runner.start();
    await alive.runner.runDue();
    expect(runs).toEqual(['dead node']);
    // The node has stopped answering (it claims nothing more); its lease runs out: on PostgreSQL by
    // the database's clock (runner.ts), on SQLite by the runner's.
    await dead.runner.stop(0);
    clock.now += options.leaseMs + 1;
    if (onPostgres) await alive.db.updateTable('jobs').set((eb) => ({ lockedUntil: eb('lockedUntil', '-', options.leaseMs + 1) })).where('dedupeKey', '=', 'lease-test').execute();
    await alive.runner.runDue();
    expect(runs).toEqual(['dead node', 'other node']);
    const row = await alive.db.selectFrom('jobs').selectAll().where('dedupeKey', '=', 'lease-test').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('retries a failing job after 10 s, 20 s, 40 s ... at most an hour apart, and keeps it dead after 24 hours', async () => {
    const clock = { now: Date.now() };
    const { runner, write, db } = node(clock);
    let attempts = 0;
    runner.define('flaky', {
      class: 'mail',
      payload: z.object({}),
      handle: async () => {
        attempts += 1;
        throw new Error(`SMTP said no (${attempts})`);
      },
    });
    await write(async (tx) => tx.enqueue({ kind: 'flaky', payload: {}, dedupeKey: 'flaky-test' }));
    const job = () => db.selectFrom('jobs').selectAll().where('dedupeKey', '=', 'flaky-test').executeTakeFirstOrThrow();
    await runner.start();
    await runner.runDue();
    const delays: number[] = [];
    for (;;) {
      const row = await job();
      if (row.state !== 'pending') break;
      delays.push(Number(row.runAt) - clock.now);
      // Not a moment early.
      clock.now = Number(row.runAt) - 1;
      await runner.runDue();
      expect((await job()).attempts).toBe(delays.length);
      clock.now += 1;
      await runner.runDue();
    }
    expect(delays.slice(0, 6)).toEqual([10, 20, 40, 80, 160, 320].map((s) => s * second));
    expect(Math.max(...delays)).toBe(3600 * second);
    const row = await job();
    expect(row.state).toBe('dead');
    expect(row.lastError).toBe(`Error: SMTP said no (${attempts})`);
    expect(clock.now - Number(row.dueAt)).toBeLessThanOrEqual(24 * 3600 * second);
    expect(clock.now + 3600 * second - Number(row.dueAt)).toBeGreaterThan(24 * 3600 * second - 3600 * second);
    expect(retryDelayMs(40, 10 * second)).toBe(3600 * second);
  });

  it('adds a job with a dedupe key once while one waits, and again once it is done', async () => {
    const { runner, write, db } = node();
    const seen: string[] = [];
    runner.define('once', { class: 'mail', payload: z.object({ note: z.string() }), handle: async ({ note }) => void seen.push(note) });
    await write(async (tx) => tx.enqueue({ kind: 'once', payload: { note: 'first' }, dedupeKey: 'once:1' }));
    await write(async (tx) => tx.enqueue({ kind: 'once', payload: { note: 'second' }, dedupeKey: 'once:1' }));
    expect(await db.selectFrom('jobs').select('id').where('dedupeKey', '=', 'once:1').execute()).toHaveLength(1);
    await runner.start();
    await runner.runDue();
    expect(seen).toEqual(['first']);
    await write(async (tx) => tx.enqueue({ kind: 'once', payload: { note: 'third' }, dedupeKey: 'once:1' }));
    await runner.runDue();
    expect(seen).toEqual(['first', 'third']);
  });

  it('fires a delayed job on time after a restart, on a new process', async () => {
    const before = node();
    const fired: number[] = [];
    before.runner.define('timer', { class: 'mail', payload: z.object({}), handle: async () => void fired.push(Date.now()) });
    const dueAt = Date.now() + 800;
    await before.write(async (tx) => tx.enqueue({ kind: 'timer', payload: {}, runAt: dueAt, dedupeKey: 'timer-test' }));
    await before.runner.start();
    await before.runner.stop();
    await before.db.destroy();

    // A poll a minute apart: firing on time means the runner slept until the job was due.
    const after = node(undefined, { pollMs: 60_000 });
    after.runner.define('timer', { class: 'mail', payload: z.object({}), handle: async () => void fired.push(Date.now()) });
    await after.runner.start();
    await expect.poll(() => fired.length, { timeout: 5000, interval: 20 }).toBe(1);
    // Not early, and on time: the new runner slept until it was due, not a whole poll period more.
    expect(fired[0]!).toBeGreaterThanOrEqual(dueAt);
    expect(fired[0]! - dueAt).toBeLessThan(1000);
  });

  it('ends a job of an unknown kind or with a bad payload dead with its error, and goes on with the others', async () => {
    const clock = { now: Date.now() };
    const { runner, write, db } = node(clock);
    const ran: number[] = [];
    runner.define('typed', { class: 'mail', payload: z.object({ id: z.number().int() }), handle: async ({ id }) => void ran.push(id) });
    const ids = await write(async (tx) => {
      tx.enqueue({ kind: 'no-such-kind', payload: { id: 1 }, dedupeKey: 'bad:kind' });
      tx.enqueue({ kind: 'typed', payload: { id: 'not a number' }, dedupeKey: 'bad:payload' });
      tx.enqueue({ kind: 'typed', payload: { id: 7 }, dedupeKey: 'good' });
    }).then(async () => db.selectFrom('jobs').select(['id', 'dedupeKey']).where('dedupeKey', 'in', ['bad:kind', 'bad:payload', 'good']).execute());
    await runner.start();
    await runner.runDue();
    expect(ran).toEqual([7]);
    // No node knows the kind: once due for longer than a lease, it is dead, not waiting forever.
    expect(await findJob(db, ids.find((row) => row.dedupeKey === 'bad:kind')!.id)).toMatchObject({ state: 'pending' });
    clock.now += options.leaseMs + 1;
    await runner.killUnknownKinds();
    const byKey = Object.fromEntries(await Promise.all(ids.map(async (row) => [row.dedupeKey, await findJob(db, row.id)] as const)));
    expect(byKey['bad:kind']).toMatchObject({ state: 'dead', attempts: 0 });
    expect(byKey['bad:kind']!.lastError).toContain('no handler for job kind no-such-kind');
    expect(byKey['bad:payload']).toMatchObject({ state: 'dead', attempts: 1 });
    expect(byKey['bad:payload']!.lastError).toContain('bad payload');
    expect(byKey.good).toMatchObject({ state: 'done' });
  });

  it('runs periodic work on one node of two, once per period, as one self-rescheduling row', async () => {
    const runs: string[] = [];
    const [a, b] = [node(), node()];
    a.runner.every('tick', 300, async () => void runs.push('a'));
    b.runner.every('tick', 300, async () => void runs.push('b'));
    await Promise.all([a.runner.start(), b.runner.start()]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await Promise.all([a.runner.stop(), b.runner.stop()]);
    // About three periods: each ran once, by one node or the other.
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(4);
    const rows = await a.db.selectFrom('jobs').selectAll().where('kind', '=', 'tick').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'pending', dedupeKey: 'every:tick', attempts: 0 });
  });
});
