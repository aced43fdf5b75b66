import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client';
import type { JobRow } from '../../db/schema';
import type { SingleStatementWrite } from '../events';
import type { Write } from '../events/write';
import type { JobClass } from './classes';
import { type JobContext, JobDeferral, type JobDefinition, type JobKind } from './definition';
import * as repository from './jobs.repository';
import { JobOutcomes } from './outcomes';
import type { BatchRequest } from './jobs.repository';

export { type JobClass, jobClasses } from './classes';
export { JobDeferral, retryDelayMs, type JobContext, type JobKind } from './definition';

export interface RunnerOptions {
  /** How long a claim lasts: after it, another node takes the job again (JOBS_LEASE_SECONDS). */
  leaseMs: number;
  /** The first retry's delay, doubling, at most an hour (JOBS_RETRY_BASE_SECONDS). */
  retryBaseMs: number;
  /** How long after it was first due a job is retried before it is dead (24 hours). */
  retryForMs: number;
  /** The longest wait between two looks at the table when nothing is due. */
  pollMs: number;
  /** Jobs of each class this node runs at once (JOBS_SLOTS_<CLASS>): a class never takes another's. */
  slots: Record<JobClass, number>;
}

/** Timers the runner waits with: real ones, or a test's clock. */
export interface RunnerTimers {
  /** Calls `fire` after `ms`; answers a function that cancels it. */
  after(ms: number, fire: () => void): () => void;
}

const realTimers: RunnerTimers = {
  after(ms, fire) {
    const timer = setTimeout(fire, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** A job's deadline, as a share of its lease: it ends (or is told to) well before another node may take it. */
export const deadlineShareOfLease = 0.8;

const emptyPayload = z.object({});


/**
 * The jobs of this node: every node runs one. It is one loop:
 *
 *   sleep until the next job is due, at most `pollMs`, or until woken (a write here added a job, a
 *   slot of a class that had due work freed); read when the next job of each class is due (one
 *   statement); claim up to the free slots of each class with work due; repeat at once while a claim
 *   came back full.
 *
 * A due job is claimed by exactly one runner (one statement; PostgreSQL skips rows another runner is
 * claiming) for a lease, reckoned by the database's clock on PostgreSQL; the runner of a node that dies
 * mid-job loses it when the lease ends, and another takes it. Every job has a deadline (an AbortSignal)
 * before its lease ends. A failure is retried with exponential backoff for 24 hours, then the job is
 * dead: kept with its error, for an admin.
 */
export class JobRunner {
  readonly node = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly definitions = new Map<string, JobDefinition<unknown>>();
  /** The classes with kinds this runner does, with their kinds (every module defines its kinds before start). */
  private kindsByClass = new Map<JobClass, string[]>();
  /** Its queries for those kinds, built at start. */
  private queries!: ReturnType<typeof repository.jobQueriesFor>;
  private readonly periodic = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private readonly runningByClass = new Map<JobClass, number>();
  /** Classes that had work due, or a full claim, with no slot left: a slot of theirs freeing wakes the loop. */
  private readonly waitingForSlot = new Set<JobClass>();
  /** When the loop last looked for due jobs, and when each class last had a free slot at a look (epoch ms). */
  private lastLookAt = 0;
  private readonly lastFreeLookAt = new Map<JobClass, number>();
  /** What becomes of each run: done (batched), retried, put off or dead (outcomes.ts). */
  private readonly outcomes: JobOutcomes;
  private readonly overrunObservers: ((jobClass: JobClass, kind: string) => void)[] = [];
  private started = false;
  private stopping = false;
  /** A look is wanted: set by a wake, taken by the loop when it starts a look (a wake during a look makes another). */
  private lookWanted = false;
  private looking = false;
  /** The loop's sleep: when it ends, and how to end it now. */
  private sleepingUntil: number | undefined;
  private endSleep: (() => void) | undefined;
  private rearmSleep: ((at: number) => void) | undefined;
  /** A wake waits for the end of this turn of the event loop (wake). */
  private wakePending = false;

  constructor(
    private readonly db: Db,
    private readonly write: Write,
    private readonly single: SingleStatementWrite,
    private readonly options: RunnerOptions,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
    private readonly timers: RunnerTimers = realTimers,
  ) {
    this.outcomes = new JobOutcomes({
      single,
      node: this.node,
      now,
      retryBaseMs: options.retryBaseMs,
      retryForMs: options.retryForMs,
      periodEveryMs: (kind) => this.periodic.get(kind),
      dueAgainAt: (runAt) => this.expect(runAt),
    });
  }

  /** Names a kind of job and how it is done. */
  define<P>(kind: string, definition: JobDefinition<P>): JobKind<P> {
    if (this.definitions.has(kind)) throw new Error(`job kind ${kind} is defined twice`);
    if (this.started) throw new Error(`job kind ${kind} is defined after the runner started`);
    this.definitions.set(kind, definition);
    return { kind, request: (payload, options = {}) => ({ kind, payload: payload as Record<string, unknown>, ...options }) };
  }

  /** The class of a kind, as its definition names it: what a job row is written with. A kind no runner here knows waits as maintenance. */
  classOf(kind: string): JobClass {
    return this.definitions.get(kind)?.class ?? 'maintenance';
  }

  /**
   * Work done every `everyMs` on one node of all (expired sessions, cleanups): one job under the
   * dedupe key `every:<kind>`, which reschedules itself when it ends, never a timer on every node.
   */
  every(kind: string, everyMs: number, handle: (context: JobContext) => Promise<void>): void {
    this.define(kind, { class: 'maintenance', payload: emptyPayload, handle: (_payload, context) => handle(context) });
    this.periodic.set(kind, everyMs);
  }

  /** Hears of each job still running at its deadline (for /metrics). */
  onOverrun(observer: (jobClass: JobClass, kind: string) => void): void {
    this.overrunObservers.push(observer);
  }

  /** How many jobs of these kinds first due in `[from, to)` came before job `beforeId`: a job's place in a burst (the staff notices of one budget). */
  countDueBefore(query: { kinds: readonly string[]; from: number; to: number; beforeId: number }): Promise<number> {
    return repository.countJobsDueBefore(this.db, query);
  }

  /**
   * Adds an item to the open batch job of its key, in a write of its own: many promises that go out
   * as one piece of work (a digest). See jobs.repository.ts `addToBatch`.
   */
  async addToBatch(batch: BatchRequest): Promise<void> {
    await this.write((tx) => repository.addToBatch(tx.db, { ...batch, class: this.classOf(batch.kind) }, this.now()));
    this.jobsAdded(batch.runAt);
  }

  /**
   * For a running job that acts on what it reads: its dedupe key is let go before it reads, so a
   * promise made after that look (enqueued under the same key) is a new job, not lost behind this one.
   */
  async releaseDedupeKey(jobId: number): Promise<void> {
    await this.single((db) => repository.releaseDedupeKey(db, jobId));
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const [kind, definition] of this.definitions) {
      const kinds = this.kindsByClass.get(definition.class) ?? [];
      kinds.push(kind);
      this.kindsByClass.set(definition.class, kinds);
    }
    this.queries = repository.jobQueriesFor(this.kindsByClass);
    const now = this.now();
    this.lastLookAt = now;
    for (const jobClass of this.kindsByClass.keys()) this.lastFreeLookAt.set(jobClass, now);
    const periodic = [...this.periodic].map(([kind, everyMs]) => ({ kind, payload: {}, runAt: now + everyMs, dedupeKey: `every:${kind}` }));
    // A periodic job already waiting (another node, an earlier start) keeps its time.
    if (periodic.length > 0) await this.write(async (tx) => periodic.forEach((job) => tx.enqueue(job)));
    await this.killUnknownKinds();
    this.lookWanted = true;
    void this.loop();
  }

  /**
   * Ends dead the pending jobs no runner here knows, once due for longer than a lease (a node with
   * newer code takes a new kind within that time): runs at start and with every sweep.
   */
  async killUnknownKinds(): Promise<void> {
    const now = this.now();
    const killed = await this.single((db) => repository.killUnknownKinds(db, [...this.definitions.keys()], now - this.options.leaseMs, now));
    if (killed > 0) this.log.error({ jobs: killed }, 'jobs of unknown kinds are dead: kept for an admin');
  }

  /** A write on this node added jobs, the soonest due at `soonestAt`: claim it now, or wake in time for it. */
  jobsAdded(soonestAt: number): void {
    if (soonestAt <= this.now()) this.wake();
    else this.expect(soonestAt);
  }

  /**
   * Look for due jobs now. The look waits for the end of this turn of the event loop: the writes
   * whose commits were answered in it each wake the runner, and one look then claims for them all.
   */
  wake(): void {
    this.lookWanted = true;
    if (this.wakePending) return;
    this.wakePending = true;
    setImmediate(() => {
      this.wakePending = false;
      this.endSleep?.();
    });
  }

  /** A job is due at `runAt`, later: a sleep past it ends then. A look under way may have read before it was added: another follows. */
  private expect(runAt: number): void {
    if (this.looking) this.lookWanted = true;
    else if (this.sleepingUntil !== undefined && runAt < this.sleepingUntil) this.rearmSleep?.(runAt);
  }

  /**
   * Runs every job due by now and waits for them (and for what they make due in turn): tests, and
   * whoever must see promised work done before going on.
   */
  async runDue(): Promise<void> {
    if (!this.started) throw new Error('the job runner has not started');
    for (;;) {
      this.wake();
      while (this.wakePending || this.lookWanted || this.looking || this.running.size > 0) await Promise.race([...this.running, pause(5)]);
      const due = await this.queries.nextDueByClass(this.db, this.now());
      if (![...due.values()].some((at) => at <= this.now())) return;
    }
  }

  /**
   * Stops claiming, then waits up to `waitMs` for the jobs running; one still running then is left
   * to its lease, after which another node (or this one, restarted) takes it again.
   */
  async stop(waitMs = 10_000): Promise<void> {
    this.stopping = true;
    this.endSleep?.();
    const giveUpAt = Date.now() + waitMs;
    while ((this.looking || this.running.size > 0) && Date.now() < giveUpAt) await Promise.race([...this.running, pause(10)]);
  }

  /**
   * Whether the runner is alive, for /readyz: how long since it last kept up, on its own clock (it
   * looks at least every `pollMs`), and how many jobs it runs. A look that hangs leaves it behind; so
   * does a class whose every slot is held past a job's deadline. A job may take that long (a retention
   * run over a big table is not a stuck runner); a job that ignores its deadline is.
   */
  liveness(): { started: boolean; behindMs: number; running: number } {
    const deadlineMs = this.options.leaseMs * deadlineShareOfLease;
    const classesKeptUp = [...this.lastFreeLookAt.values()].map((at) => at + deadlineMs);
    const keptUpUntil = this.started ? Math.min(this.lastLookAt, ...classesKeptUp) : this.now();
    return { started: this.started && !this.stopping, behindMs: Math.max(0, this.now() - keptUpUntil), running: this.running.size };
  }

  /** The loop: look, then sleep until the next job is due (at most `pollMs`) or a wake. */
  private async loop(): Promise<void> {
    while (!this.stopping) {
      let nextLookAt: number;
      this.looking = true;
      this.lookWanted = false;
      try {
        nextLookAt = await this.look();
      } catch (error) {
        this.log.error({ err: error }, 'job runner could not read the jobs table');
        nextLookAt = this.now() + this.options.pollMs;
      } finally {
        this.looking = false;
      }
      if (this.stopping) break;
      // A wake during the look (a job may have been added after it read), or a full claim: look again at once.
      if (this.lookWanted || nextLookAt <= this.now()) continue;
      await this.sleep(nextLookAt);
    }
  }

  /** Ends at `at` (the runner's clock), at a wake, or at stop. */
  private sleep(at: number): Promise<void> {
    return new Promise((resolve) => {
      let cancel = () => {};
      const arm = (until: number) => {
        cancel();
        this.sleepingUntil = until;
        cancel = this.timers.after(Math.max(until - this.now(), 0), end);
      };
      const end = () => {
        cancel();
        this.sleepingUntil = undefined;
        this.endSleep = undefined;
        this.rearmSleep = undefined;
        resolve();
      };
      this.endSleep = end;
      this.rearmSleep = arm;
      arm(at);
    });
  }

  /**
   * One look: reads when the next job of each class is due, and claims up to the free slots of each
   * class with work due. Answers when to look next: at once after a full claim, else when the next
   * job of a class with a free slot is due, at most `pollMs` from now.
   */
  private async look(): Promise<number> {
    const now = this.now();
    let nextLookAt = now + this.options.pollMs;
    const free = (jobClass: JobClass) => this.options.slots[jobClass] - (this.runningByClass.get(jobClass) ?? 0);
    this.lastLookAt = now;
    for (const jobClass of this.kindsByClass.keys()) if (free(jobClass) > 0) this.lastFreeLookAt.set(jobClass, now);
    const due = await this.queries.nextDueByClass(this.db, now);
    for (const [jobClass, dueAt] of due) {
      const slots = free(jobClass);
      if (slots <= 0) {
        // A slot of its own freeing wakes the loop.
        this.waitingForSlot.add(jobClass);
        continue;
      }
      if (dueAt > now) {
        nextLookAt = Math.min(nextLookAt, dueAt);
        continue;
      }
      const claimed = await this.single((db) => this.queries.claimDueJobs(db, jobClass, { node: this.node, now, leaseMs: this.options.leaseMs, limit: slots }));
      for (const job of claimed) this.track(jobClass, job);
      if (claimed.length === slots) {
        // More may be due: look again at once, and again when a slot of this class frees.
        this.waitingForSlot.add(jobClass);
        nextLookAt = now;
      }
    }
    return nextLookAt;
  }

  private track(jobClass: JobClass, job: JobRow): void {
    this.runningByClass.set(jobClass, (this.runningByClass.get(jobClass) ?? 0) + 1);
    const run = this.run(jobClass, job);
    this.running.add(run);
    void run.finally(() => {
      this.running.delete(run);
      this.runningByClass.set(jobClass, this.runningByClass.get(jobClass)! - 1);
      if (this.waitingForSlot.delete(jobClass)) this.wake();
    });
  }

  private async run(jobClass: JobClass, job: JobRow): Promise<void> {
    const definition = this.definitions.get(job.kind)!;
    const log = this.log.child({ job: job.id, kind: job.kind, attempt: job.attempts });
    const deadline = new AbortController();
    let ended = false;
    const cancelDeadline = this.timers.after(Math.round(this.options.leaseMs * deadlineShareOfLease), () => {
      if (ended) return;
      log.error({ class: jobClass, leaseMs: this.options.leaseMs }, 'job ran past its deadline: told to stop (another node may take it once the lease ends)');
      for (const observer of this.overrunObservers) observer(jobClass, job.kind);
      deadline.abort(new Error(`job ${job.id} ran past its deadline`));
    });
    try {
      const parsed = definition.payload.safeParse(parsePayload(job.payload));
      if (!parsed.success) return await this.outcomes.dead(job, `bad payload: ${parsed.error.message}`, log);
      try {
        await definition.handle(parsed.data, { jobId: job.id, attempt: job.attempts, dueAt: job.dueAt, signal: deadline.signal, log });
      } catch (error) {
        if (error instanceof JobDeferral) return await this.outcomes.deferred(job, error, log);
        return await this.outcomes.failed(job, error, log);
      }
      const everyMs = this.periodic.get(job.kind);
      if (everyMs === undefined) return await this.outcomes.done(job.id);
      const now = this.now();
      await this.single((db) => repository.markRetry(db, job.id, this.node, { runAt: now + everyMs, error: null, resetAttempts: true }));
      this.expect(now + everyMs);
    } catch (error) {
      // The job table itself failed us: the lease runs out and the job is taken again.
      log.error({ err: error }, 'job outcome not recorded');
    } finally {
      ended = true;
      cancelDeadline();
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
