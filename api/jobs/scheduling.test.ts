// @scaled: the runner on the database clock, PostgreSQL only in part
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { transactionsFor } from '../../db/writes';
import { onPostgres, testDatabaseOpener } from '../../test/support/database';
import { EventBus } from '../events/bus';
import { createWrite } from '../events/write';
import { findJob } from './jobs.repository';
import { type JobClass, JobDeferral, JobRunner, type RunnerOptions, type RunnerTimers } from './runner';

const silent: FastifyBaseLogger = new Proxy({} as FastifyBaseLogger, {
  get: (_target, name) => (name === 'child' ? () => silent : name === 'level' ? 'silent' : () => undefined),
});

/**
 * A clock the test moves by hand, with the runner's timers on it: a timer fires only when the test
 * moves the clock past it. With a poll of an hour, a job runs only by the mechanism under test.
 */
class ManualClock implements RunnerTimers {
  now = Date.now();
  private timers: { at: number; fire: () => void }[] = [];
  after(ms: number, fire: () => void): () => void {
    const timer = { at: this.now + ms, fire };
    this.timers.push(timer);
    return () => void (this.timers = this.timers.filter((each) => each !== timer));
  }
  advance(ms: number): void {
    this.now += ms;
    const due = this.timers.filter((timer) => timer.at <= this.now);
    this.timers = this.timers.filter((timer) => timer.at > this.now);
    for (const timer of due) timer.fire();
  }
}

const second = 1000;
const hour = 3600 * second;
const oneSlotEach: Record<JobClass, number> = { access: 1, mail: 1, realtime: 1, webhook: 1, maintenance: 1 };
const options: RunnerOptions = { leaseMs: 60 * second, retryBaseMs: 10 * second, retryForMs: 24 * hour, pollMs: hour, slots: oneSlotEach };

/** Resolves when `release` is called: a job that holds its slot until the test lets it go. */
function gate() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return { released, release };
}

const poll = { timeout: 5000, interval: 10 };

describe(`the job runner's loop (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, async () => {
  const databases: (() => Db)[] = [];
  for (let index = 0; index < 8; index += 1) {
    const open = await testDatabaseOpener(`jobs-loop-${index}`);
    await migrateToLatest(open());
    databases.push(open);
  }
  const runners: JobRunner[] = [];
  afterAll(async () => {
    for (const runner of runners) await runner.stop(100);
  });
  let used = 0;

  /**
   * A node as the app wires it (a write here wakes its runner), on `clock`; `afterSingle` runs after
   * each of the runner's own statements (claims, outcomes) has run and before the runner hears back.
   */
  function node(
    clock: ManualClock | { now: number },
    overrides: Partial<RunnerOptions> = {},
    hooks: { afterSingle?: () => Promise<void>; sameDatabaseAs?: number } = {},
  ) {
    const index = hooks.sameDatabaseAs ?? used++;
    const db = databases[index]!();
    const now = () => clock.now;
    const transactions = transactionsFor(db);
    const write = createWrite({ transactions, bus: new EventBus(), now, classOfJob: (kind) => runner.classOf(kind), onJobsAdded: (at) => runner.jobsAdded(at) });
    const single = async <T>(statement: (db: Db) => Promise<T>): Promise<T> => {
      const result = await transactions.single(statement);
      await hooks.afterSingle?.();
      return result;
    };
    const timers = clock instanceof ManualClock ? clock : undefined;
    const runner: JobRunner = new JobRunner(db, write, single, { ...options, ...overrides }, silent, now, timers);
    runners.push(runner);
    return { db, write, runner, index };
  }

  it('runs a job added while a claim is on its way, without waiting for the poll', async () => {
    const clock = new ManualClock();
    let hold: ReturnType<typeof gate> | undefined;
    let held = false;
    const afterSingle = async () => {
      if (!hold) return;
      held = true;
      await hold.released;
    };
    // Two slots: the claim of the first is not full, so nothing but the wake makes the runner look again.
    const { runner, write } = node(clock, { slots: { ...oneSlotEach, mail: 2 } }, { afterSingle });
    const ran: string[] = [];
    runner.define('note', { class: 'mail', payload: z.object({ name: z.string() }), handle: async ({ name }) => void ran.push(name) });
    await runner.start();
    hold = gate();
    await write(async (tx) => tx.enqueue({ kind: 'note', payload: { name: 'first' } }));
    // The claim of the first has run; the runner has not heard back yet when the second is added.
    await expect.poll(() => held, poll).toBe(true);
    await write(async (tx) => tx.enqueue({ kind: 'note', payload: { name: 'second' } }));
    // The wake it made has gone off (it waits for the end of a turn of the event loop) while the claim was held.
    await new Promise((resolve) => setTimeout(resolve, 10));
    hold.release();
    hold = undefined;
    await expect.poll(() => ran.slice().sort(), poll).toEqual(['first', 'second']);
  });

  it('after a full claim, still wakes for a job due later in that class', async () => {
    const clock = new ManualClock();
    const { runner, write, db } = node(clock);
    const ran: string[] = [];
    const first = gate();
    runner.define('hold', { class: 'mail', payload: z.object({}), handle: () => first.released.then(() => void ran.push('held')) });
    runner.define('later', { class: 'mail', payload: z.object({}), handle: async () => void ran.push('later') });
    await write(async (tx) => {
      tx.enqueue({ kind: 'hold', payload: {} });
      tx.enqueue({ kind: 'later', payload: {}, runAt: clock.now + 5 * second });
    });
    await runner.start();
    await expect.poll(() => runner.liveness().running, poll).toBe(1);
    first.release();
    await expect.poll(() => ran, poll).toEqual(['held']);
    // The one slot freed: the runner read when the next is due and sleeps until then, not for the hour.
    await expect.poll(async () => (await db.selectFrom('jobs').select('state').where('kind', '=', 'hold').executeTakeFirst())?.state, poll).toBe('done');
    clock.advance(5 * second - 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).toEqual(['held']);
    clock.advance(1);
    await expect.poll(() => ran, poll).toEqual(['held', 'later']);
  });

  it('runs a job that fell due while every slot of its class was busy as soon as one frees', async () => {
    const clock = new ManualClock();
    const { runner, write } = node(clock);
    const ran: string[] = [];
    const busy = gate();
    runner.define('busy', { class: 'mail', payload: z.object({}), handle: () => busy.released.then(() => void ran.push('busy')) });
    runner.define('waiting', { class: 'mail', payload: z.object({}), handle: async () => void ran.push('waiting') });
    await write(async (tx) => tx.enqueue({ kind: 'busy', payload: {} }));
    await runner.start();
    await expect.poll(() => runner.liveness().running, poll).toBe(1);
    // Its class's one slot is held: the job waits, and no timer is moved to let it run.
    await write(async (tx) => tx.enqueue({ kind: 'waiting', payload: {} }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).toEqual([]);
    busy.release();
    await expect.poll(() => ran, poll).toEqual(['busy', 'waiting']);
  });

  it('keeps a class to its own slots: a full webhook class holds up no mail', async () => {
    const clock = new ManualClock();
    const { runner, write } = node(clock, { slots: { ...oneSlotEach, webhook: 2 } });
    const hung = gate();
    const ran: string[] = [];
    let started = 0;
    runner.define('deliver', { class: 'webhook', payload: z.object({ n: z.number() }), handle: () => ((started += 1), hung.released) });
    runner.define('reset', { class: 'access', payload: z.object({}), handle: async () => void ran.push('reset') });
    await write(async (tx) => {
      for (let n = 0; n < 200; n += 1) tx.enqueue({ kind: 'deliver', payload: { n } });
    });
    await runner.start();
    await expect.poll(() => started, poll).toBe(2);
    await write(async (tx) => tx.enqueue({ kind: 'reset', payload: {} }));
    await expect.poll(() => ran, poll).toEqual(['reset']);
    expect(started).toBe(2);
    hung.release();
  });

  it('reads as behind while a class is full only once its jobs pass their deadline, not while a long job runs', async () => {
    const clock = new ManualClock();
    // Looks every 5 s; a lease of 60 s gives a deadline at 48 s.
    const { runner, write } = node(clock, { pollMs: 5 * second });
    const long = gate();
    runner.define('retention-like', { class: 'maintenance', payload: z.object({}), handle: () => long.released });
    await write(async (tx) => tx.enqueue({ kind: 'retention-like', payload: {} }));
    await runner.start();
    await expect.poll(() => runner.liveness().running, poll).toBe(1);
    // Longer than /readyz's 30 s of patience, within the job's deadline: the runner keeps up.
    for (let step = 0; step < 9; step += 1) {
      clock.advance(5 * second);
      // The poll's look, each time: the runner keeps up.
      await expect.poll(() => runner.liveness().behindMs, poll).toBe(0);
    }
    // Past the deadline the held slot counts: behind by how long the job has overrun it.
    clock.advance(10 * second);
    await expect.poll(() => runner.liveness().behindMs, poll).toBe(9 * 5 * second + 10 * second - 48 * second);
    long.release();
    await expect.poll(() => runner.liveness().running, poll).toBe(0);
    clock.advance(5 * second);
    await expect.poll(() => runner.liveness().behindMs, poll).toBe(0);
  });

  it("tells a job its deadline at 0.8 of the lease, and counts the overrun", async () => {
    const clock = new ManualClock();
    const { runner, write, db } = node(clock, { leaseMs: 10 * second });
    const overruns: string[] = [];
    runner.onOverrun((jobClass, kind) => overruns.push(`${jobClass}:${kind}`));
    let aborted: unknown;
    runner.define('slow', {
      class: 'mail',
      payload: z.object({}),
      handle: (_payload, { signal }) =>
        new Promise<void>((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            reject(new Error('gave up at the deadline'));
          }),
        ),
    });
    await write(async (tx) => tx.enqueue({ kind: 'slow', payload: {}, dedupeKey: 'slow' }));
    await runner.start();
    await expect.poll(() => runner.liveness().running, poll).toBe(1);
    clock.advance(8 * second - 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(aborted).toBeUndefined();
    clock.advance(1);
    await expect.poll(() => overruns, poll).toEqual(['mail:slow']);
    expect(String(aborted)).toContain('deadline');
    // It failed as any job that throws: due again after the first retry's wait.
    await expect.poll(async () => (await db.selectFrom('jobs').select(['lastError', 'lockedBy']).where('dedupeKey', '=', 'slow').executeTakeFirst())?.lockedBy, poll).toBeNull();
  });

  it('puts off a deferred job without counting the attempt', async () => {
    const clock = new ManualClock();
    const { runner, write, db } = node(clock);
    let tries = 0;
    runner.define('later-please', {
      class: 'webhook',
      payload: z.object({}),
      handle: async () => {
        tries += 1;
        if (tries === 1) throw new JobDeferral(clock.now + 30 * second, 'receiver paused');
      },
    });
    await write(async (tx) => tx.enqueue({ kind: 'later-please', payload: {}, dedupeKey: 'defer' }));
    await runner.start();
    const row = () => db.selectFrom('jobs').selectAll().where('dedupeKey', '=', 'defer').executeTakeFirstOrThrow();
    await expect.poll(() => tries, poll).toBe(1);
    await expect.poll(async () => (await row()).lockedBy, poll).toBeNull();
    expect(await row()).toMatchObject({ state: 'pending', attempts: 0, runAt: clock.now + 30 * second });
    clock.advance(30 * second);
    await expect.poll(async () => (await row()).state, poll).toBe('done');
    expect((await findJob(db, (await row()).id))!.attempts).toBe(1);
  });

  it.runIf(onPostgres)('never lets two nodes whose clocks differ by more than a lease both run a job (leases by the database clock)', async () => {
    const leaseMs = 10 * second;
    const onTime = new ManualClock();
    // Three leases ahead: by its own clock, the first node's lease ran out long ago.
    const ahead = new ManualClock();
    ahead.now = onTime.now + 3 * leaseMs;
    const a = node(onTime, { leaseMs });
    const b = node(ahead, { leaseMs }, { sameDatabaseAs: a.index });
    const runs: string[] = [];
    const hung = gate();
    a.runner.define('only-once', { class: 'mail', payload: z.object({}), handle: () => (runs.push('a'), hung.released) });
    b.runner.define('only-once', { class: 'mail', payload: z.object({}), handle: async () => void runs.push('b') });
    await a.write(async (tx) => tx.enqueue({ kind: 'only-once', payload: {}, dedupeKey: 'skew' }));
    await a.runner.start();
    await expect.poll(() => runs, poll).toEqual(['a']);
    await b.runner.start();
    await b.runner.runDue();
    expect(runs).toEqual(['a']);
    hung.release();
    await expect.poll(async () => (await a.db.selectFrom('jobs').select('state').where('dedupeKey', '=', 'skew').executeTakeFirst())?.state, poll).toBe('done');
    expect(runs).toEqual(['a']);
  });
});
