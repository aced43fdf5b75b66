import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client';
import type { JobRow } from '../../db/schema';
import type { SingleStatementWrite } from '../events';
import type { Write } from '../events/write';
import * as repository from './jobs.repository';
import type { BatchRequest, JobRequest } from './jobs.repository';

/** What a handler is told of the run it is in. */
export interface JobContext {
  /** The job's id: stable across retries (a mail's Message-ID is made of it). */
  jobId: number;
  /** 1 on the first run. */
  attempt: number;
  /** When the job was first due (epoch ms): when its promise was made, for a job due at once. */
  dueAt: number;
  log: FastifyBaseLogger;
}

/**
 * Which line a job waits in (DESIGN 17): each class has slots of its own on every node, so one kind
 * of work can never hold up another. `access` is mail that lets a person in (a reset, an invite) and
 * goes first; `mail` is every other mail; `realtime` is quick work a person is waiting on in the
 * product (an auto-assignment, a rating question); `webhook` is deliveries to receivers we do not run;
 * `maintenance` (sweeps, retention) goes last.
 */
export const jobClasses = ['access', 'mail', 'realtime', 'webhook', 'maintenance'] as const;
export type JobClass = (typeof jobClasses)[number];

interface JobDefinition<P> {
  /** The class whose slots it runs in. */
  class: JobClass;
  /** Checks the stored payload: a job whose payload fails it ends dead at once, never retried. */
  payload: z.ZodType<P>;
  /**
   * Does the work. Idempotent: a run whose outcome is unknown (a node died mid-send) runs again. It
   * loads what it needs by id and returns quietly when that is gone. Throwing retries it later.
   */
  handle(payload: P, context: JobContext): Promise<void>;
}

/** A defined kind: makes requests of its own kind with a checked payload. */
export interface JobKind<P> {
  kind: string;
  request(payload: P, options?: { runAt?: number; dedupeKey?: string; once?: boolean }): JobRequest;
}

export interface RunnerOptions {
  /** How long a claim lasts: after it, another node takes the job again (JOBS_LEASE_SECONDS). */
  leaseMs: number;
  /** The first retry's delay, doubling, at most an hour (JOBS_RETRY_BASE_SECONDS). */
  retryBaseMs: number;
  /** How long after it was first due a job is retried before it is dead (24 hours). */
  retryForMs: number;
  /** The longest wait between two looks at the table when nothing is due. */
  pollMs: number;
  /** Jobs run at once by this node. */
  concurrency: number;
}

const maxRetryDelayMs = 60 * 60 * 1000;
const emptyPayload = z.object({});

/** The wait before attempt `attempts + 1` after `attempts` failed ones: base, 2x base, 4x base, ... at most an hour. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), maxRetryDelayMs);
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2000);
}

/**
 * The jobs of this node: every node runs one. A due job is claimed by exactly one runner (one
 * statement; PostgreSQL skips rows another runner is claiming) for a lease; the runner of a node
 * that dies mid-job loses it when the lease ends, and another takes it. A failure is retried with
 * exponential backoff for 24 hours, then the job is dead: kept with its error, for an admin.
 *
 * When idle it reads when the next job is due and sleeps until then (at most `pollMs`), so a timer
 * fires on time and an idle node writes nothing; a job enqueued on this node wakes it at once.
 */
export class JobRunner {
  readonly node = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly definitions = new Map<string, JobDefinition<unknown>>();
  /** The kinds this runner does (every module defines its kinds before start). */
  private kinds: string[] = [];
  /** Its queries for those kinds, built at start. */
  private queries!: ReturnType<typeof repository.jobQueriesFor>;
  private readonly periodic = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private stopping = false;
  private looking = false;
  private lookAgain = false;
  /** The next look claims without reading first: a job is known to be due. */
  private claimFirst = false;
  /** Due jobs may wait unclaimed (a claim took as many as it had room for). */
  private moreMayBeDue = false;
  /**
   * When the next job is due, as far as this runner knows (`dueKnown`): its last read, and jobs
   * added on this node since; undefined when none is pending. A claim of what it knew of ends it.
   */
  private knownDueAt: number | undefined;
  private dueKnown = false;
  /** When the timer fires (epoch ms, the runner's clock). */
  private timerAt: number | undefined;
  /** When this runner last began a look for due jobs (epoch ms): readiness calls it stuck past a limit. */
  private lastLookAt = 0;
  /** A wake waits for the end of this turn of the event loop (wake). */
  private wakePending = false;
  /** Jobs done whose outcome waits for the statement recording it (markFinished). */
  private finished: { id: number; recorded: () => void; failed: (error: unknown) => void }[] = [];
  private recording = false;

  constructor(
    private readonly db: Db,
    private readonly write: Write,
    private readonly single: SingleStatementWrite,
    private readonly options: RunnerOptions,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Names a kind of job and how it is done. */
  define<P>(kind: string, definition: JobDefinition<P>): JobKind<P> {
    if (this.definitions.has(kind)) throw new Error(`job kind ${kind} is defined twice`);
    if (this.started) throw new Error(`job kind ${kind} is defined after the runner started`);
    this.definitions.set(kind, definition);
    return { kind, request: (payload, options = {}) => ({ kind, payload: payload as Record<string, unknown>, ...options }) };
  }

  /**
   * Work done every `everyMs` on one node of all (expired sessions, cleanups): one job under the
   * dedupe key `every:<kind>`, which reschedules itself when it ends, never a timer on every node.
   */
  every(kind: string, everyMs: number, handle: (context: JobContext) => Promise<void>): void {
    this.define(kind, { class: 'maintenance', payload: emptyPayload, handle: (_payload, context) => handle(context) });
    this.periodic.set(kind, everyMs);
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
    await this.write((tx) => repository.addToBatch(tx.db, batch, this.now()));
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
    this.kinds = [...this.definitions.keys()];
    this.queries = repository.jobQueriesFor(this.kinds);
    const now = this.now();
    const periodic = [...this.periodic].map(([kind, everyMs]) => ({ kind, payload: {}, runAt: now + everyMs, dedupeKey: `every:${kind}` }));
    // A periodic job already waiting (another node, an earlier start) keeps its time.
    if (periodic.length > 0) await this.write(async (tx) => periodic.forEach((job) => tx.enqueue(job)));
    await this.killUnknownKinds();
    this.lookSoon();
  }

  /**
   * Ends dead the pending jobs no runner here knows, once due for longer than a lease (a node with
   * newer code takes a new kind within that time): runs at start and with every sweep.
   */
  async killUnknownKinds(): Promise<void> {
    const now = this.now();
    const killed = await this.single((db) => repository.killUnknownKinds(db, this.kinds, now - this.options.leaseMs, now));
    if (killed > 0) this.log.error({ jobs: killed }, 'jobs of unknown kinds are dead: kept for an admin');
  }

  /** A write on this node added jobs, the soonest due at `soonestAt`: claim it now, or wake in time for it. */
  jobsAdded(soonestAt: number): void {
    if (soonestAt <= this.now()) this.wake();
    else this.expect(soonestAt);
  }

  /** Look for due jobs this turn of the event loop: a write on this node just added one, so the look claims at once. */
  wake(): void {
    this.claimFirst = true;
    if (this.wakePending) return;
    this.wakePending = true;
    // After the rest of this turn of the event loop: the writes whose commits were answered in it
    // each wake the runner, and one claim then takes the jobs of them all (fewer claims under load).
    setImmediate(() => {
      this.wakePending = false;
      this.lookSoon();
    });
  }

  /** A job is due at `runAt`, later: the runner's timer fires by then. */
  private expect(runAt: number): void {
    if (this.dueKnown && (this.knownDueAt === undefined || runAt < this.knownDueAt)) this.knownDueAt = runAt;
    if (!this.started || this.stopping) return;
    if (this.looking) {
      // The look under way may have read before this job was added: it reads again.
      if (!this.dueKnown) this.lookAgain = true;
      return;
    }
    if (this.timerAt !== undefined && this.timerAt <= runAt) return;
    this.setTimer(runAt - this.now());
  }

  private lookSoon(): void {
    if (!this.started || this.stopping) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
    if (this.looking) {
      this.lookAgain = true;
      return;
    }
    void this.look();
  }

  private setTimer(inMs: number): void {
    clearTimeout(this.timer);
    const delay = Math.max(inMs, 5);
    this.timerAt = this.now() + delay;
    // A timer's look reads when the next job is due first: it may find none, and then writes nothing.
    this.timer = setTimeout(() => this.lookSoon(), delay);
    this.timer.unref();
  }

  /**
   * Runs every job due by now and waits for them (and for what they make due in turn): tests, and
   * whoever must see promised work done before going on.
   */
  async runDue(): Promise<void> {
    for (;;) {
      this.wake();
      while (this.wakePending || this.looking || this.running.size > 0) await Promise.race([...this.running, pause(5)]);
      const dueAt = await this.queries.nextDueAt(this.db, this.now());
      if (dueAt === undefined || dueAt > this.now()) return;
    }
  }

  /**
   * Stops claiming, then waits up to `waitMs` for the jobs running; one still running then is left
   * to its lease, after which another node (or this one, restarted) takes it again.
   */
  async stop(waitMs = 10_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    const giveUpAt = Date.now() + waitMs;
    while ((this.looking || this.running.size > 0) && Date.now() < giveUpAt) await Promise.race([...this.running, pause(10)]);
  }

  /**
   * Whether the runner is alive, for /readyz: when it last looked for due jobs (it looks at least
   * every `pollMs` while a slot is free) and how many jobs it runs. A look that hangs, or every slot
   * held by jobs that never end (no look reads the table then), leaves `lastLookAt` behind.
   */
  liveness(): { started: boolean; lastLookAt: number; running: number } {
    return { started: this.started && !this.stopping, lastLookAt: this.lastLookAt, running: this.running.size };
  }

  /**
   * Claims what is due. A look woken by a write here claims at once (a job is due); any other reads
   * first when the next job is due, so an idle node writes nothing, and sleeps until then (at most
   * `pollMs`). Under load that makes a job cost its claim and its outcome, not a read besides each.
   */
  private async look(): Promise<void> {
    this.looking = true;
    let nextIn = this.options.pollMs;
    try {
      do {
        this.lookAgain = false;
        const free = this.options.concurrency - this.running.size;
        if (free <= 0) {
          // A job ending frees a slot: it looks again then.
          this.moreMayBeDue = true;
          return;
        }
        const now = this.now();
        this.lastLookAt = now;
        if (!this.claimFirst) {
          const dueAt = await this.queries.nextDueAt(this.db, now);
          this.knownDueAt = dueAt;
          this.dueKnown = true;
          if (dueAt === undefined || dueAt > now) {
            if (dueAt !== undefined) nextIn = Math.min(nextIn, dueAt - now);
            continue;
          }
        }
        this.claimFirst = false;
        const claimed = await this.single((db) => this.queries.claimDueJobs(db, { node: this.node, now, lockedUntil: now + this.options.leaseMs, limit: free }));
        for (const job of claimed) this.track(this.run(job));
        // A full claim may have left more due: claim again at once (or when a slot frees).
        this.moreMayBeDue = claimed.length === free;
        if (this.moreMayBeDue) {
          this.lookAgain = true;
          this.claimFirst = true;
        } else if (this.dueKnown && (this.knownDueAt === undefined || this.knownDueAt > now)) {
          if (this.knownDueAt !== undefined) nextIn = Math.min(nextIn, this.knownDueAt - now);
        } else {
          // What the last read knew of is claimed now (or nothing was read yet): read when the next is due.
          this.dueKnown = false;
          this.lookAgain = true;
        }
      } while (this.lookAgain && !this.stopping);
    } catch (error) {
      this.log.error({ err: error }, 'job runner could not read the jobs table');
    } finally {
      this.looking = false;
      if (!this.stopping && this.running.size < this.options.concurrency) {
        // A job added here while this look ran may be due sooner than what the look saw.
        const known = this.dueKnown && this.knownDueAt !== undefined ? this.knownDueAt - this.now() : nextIn;
        this.setTimer(Math.min(nextIn, known));
      }
    }
  }

  private track(run: Promise<void>): void {
    this.running.add(run);
    void run.finally(() => {
      this.running.delete(run);
      // A slot is free: claim again if due jobs may have been left for want of one.
      if (this.moreMayBeDue) this.wake();
    });
  }

  private async run(job: JobRow): Promise<void> {
    const definition = this.definitions.get(job.kind)!;
    const log = this.log.child({ job: job.id, kind: job.kind, attempt: job.attempts });
    try {
      const parsed = definition.payload.safeParse(parsePayload(job.payload));
      if (!parsed.success) return await this.dead(job, `bad payload: ${parsed.error.message}`, log);
      try {
        await definition.handle(parsed.data, { jobId: job.id, attempt: job.attempts, dueAt: job.dueAt, log });
      } catch (error) {
        return await this.failed(job, error, log);
      }
      const everyMs = this.periodic.get(job.kind);
      if (everyMs === undefined) return await this.markDone(job.id);
      const now = this.now();
      await this.single((db) => repository.markRetry(db, job.id, this.node, { runAt: now + everyMs, error: null, resetAttempts: true }));
    } catch (error) {
      // The job table itself failed us: the lease runs out and the job is taken again.
      log.error({ err: error }, 'job outcome not recorded');
    }
  }

  /**
   * Records job `id` done. Jobs that end while a record is on its way are recorded together by the
   * next statement: under load a node's jobs end in bursts, and each cost a round trip of its own.
   */
  private markDone(id: number): Promise<void> {
    return new Promise((recorded, failed) => {
      this.finished.push({ id, recorded, failed });
      if (!this.recording) void this.markFinished();
    });
  }

  private async markFinished(): Promise<void> {
    this.recording = true;
    while (this.finished.length > 0) {
      const batch = this.finished;
      this.finished = [];
      try {
        const now = this.now();
        await this.single((db) => repository.markDone(db, batch.map((job) => job.id), this.node, now));
        for (const job of batch) job.recorded();
      } catch (error) {
        for (const job of batch) job.failed(error);
      }
    }
    this.recording = false;
  }

  private async failed(job: JobRow, error: unknown, log: FastifyBaseLogger): Promise<void> {
    const now = this.now();
    const everyMs = this.periodic.get(job.kind);
    const delay = retryDelayMs(job.attempts, this.options.retryBaseMs);
    const runAt = now + (everyMs === undefined ? delay : Math.min(delay, everyMs));
    // Periodic work never dies: its next run is a retry anyway.
    if (everyMs === undefined && runAt > job.dueAt + this.options.retryForMs) {
      return this.dead(job, errorText(error), log);
    }
    log.warn({ err: error, retryAt: new Date(runAt).toISOString() }, 'job failed; retrying later');
    await this.single((db) => repository.markRetry(db, job.id, this.node, { runAt, error: errorText(error) }));
  }

  private async dead(job: JobRow, error: string, log: FastifyBaseLogger): Promise<void> {
    log.error({ error }, 'job dead: kept for an admin to retry');
    const now = this.now();
    await this.single((db) => repository.markDead(db, job.id, this.node, { error, now }));
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
