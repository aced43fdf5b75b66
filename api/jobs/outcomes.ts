import type { FastifyBaseLogger } from 'fastify';
import type { JobRow } from '../../db/schema';
import type { SingleStatementWrite } from '../events';
import { type JobDeferral, retryDelayMs } from './definition';
import * as repository from './jobs.repository';

/** What the outcomes of a runner's jobs need of it. */
export interface OutcomeContext {
  single: SingleStatementWrite;
  node: string;
  now: () => number;
  retryBaseMs: number;
  retryForMs: number;
  /** A periodic kind's interval; undefined for a kind run once. */
  periodEveryMs: (kind: string) => number | undefined;
  /** A job is due again then: the runner wakes for it. */
  dueAgainAt: (runAt: number) => void;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2000);
}

/** What becomes of a run: done (recorded in batches), retried with backoff, put off, or dead. One statement each. */
export class JobOutcomes {
  /** Jobs done whose outcome waits for the statement recording it (record). */
  private finished: { id: number; recorded: () => void; failed: (error: unknown) => void }[] = [];
  private recording = false;

  constructor(private readonly runner: OutcomeContext) {}

  /**
   * Records job `id` done. Jobs that end while a record is on its way are recorded together by the
   * next statement: under load a node's jobs end in bursts, and each cost a round trip of its own.
   */
  done(id: number): Promise<void> {
    return new Promise((recorded, failed) => {
      this.finished.push({ id, recorded, failed });
      if (!this.recording) void this.record();
    });
  }

  private async record(): Promise<void> {
    this.recording = true;
    while (this.finished.length > 0) {
      const batch = this.finished;
      this.finished = [];
      try {
        const now = this.runner.now();
        await this.runner.single((db) => repository.markDone(db, batch.map((job) => job.id), this.runner.node, now));
        for (const job of batch) job.recorded();
      } catch (error) {
        for (const job of batch) job.failed(error);
      }
    }
    this.recording = false;
  }

  async failed(job: JobRow, error: unknown, log: FastifyBaseLogger): Promise<void> {
    const now = this.runner.now();
    const everyMs = this.runner.periodEveryMs(job.kind);
    const delay = retryDelayMs(job.attempts, this.runner.retryBaseMs);
    const runAt = now + (everyMs === undefined ? delay : Math.min(delay, everyMs));
    // Periodic work never dies: its next run is a retry anyway.
    if (everyMs === undefined && runAt > job.dueAt + this.runner.retryForMs) {
      return this.dead(job, errorText(error), log);
    }
    log.warn({ err: error, retryAt: new Date(runAt).toISOString() }, 'job failed; retrying later');
    await this.runner.single((db) => repository.markRetry(db, job.id, this.runner.node, { runAt, error: errorText(error) }));
    this.runner.dueAgainAt(runAt);
  }

  /** Put off by its handler: due again then, its attempt given back. */
  async deferred(job: JobRow, deferral: JobDeferral, log: FastifyBaseLogger): Promise<void> {
    log.info({ until: new Date(deferral.until).toISOString(), reason: deferral.message }, 'job put off');
    await this.runner.single((db) => repository.markDeferred(db, job.id, this.runner.node, deferral.until));
    this.runner.dueAgainAt(deferral.until);
  }

  async dead(job: JobRow, error: string, log: FastifyBaseLogger): Promise<void> {
    log.error({ error }, 'job dead: kept for an admin to retry');
    const now = this.runner.now();
    await this.runner.single((db) => repository.markDead(db, job.id, this.runner.node, { error, now }));
  }
}
