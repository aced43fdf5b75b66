import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { JobClass } from './classes';
import type { JobRequest } from './jobs.repository';

// What a job kind is, what its handler is told, and how its retries are spaced; the runner (runner.ts) runs them.

/** What a handler is told of the run it is in. */
export interface JobContext {
  /** The job's id: stable across retries (a mail's Message-ID is made of it). */
  jobId: number;
  /** 1 on the first run. */
  attempt: number;
  /** When the job was first due (epoch ms): when its promise was made, for a job due at once. */
  dueAt: number;
  /**
   * Aborted at the job's deadline, about 0.8 of the lease after it was claimed: past the lease another
   * node may take the job again, so a handler passes this to what it waits on (a fetch, an SMTP send).
   */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}


export interface JobDefinition<P> {
  /** The class whose slots it runs in. */
  class: JobClass;
  /** Checks the stored payload: a job whose payload fails it ends dead at once, never retried. */
  payload: z.ZodType<P>;
  /**
   * Does the work. Idempotent: a run whose outcome is unknown (a node died mid-send) runs again. It
   * loads what it needs by id and returns quietly when that is gone. Throwing retries it later;
   * throwing a `JobDeferral` puts it off without counting an attempt.
   */
  handle(payload: P, context: JobContext): Promise<void>;
}

/** A defined kind: makes requests of its own kind with a checked payload. */
export interface JobKind<P> {
  kind: string;
  request(payload: P, options?: { runAt?: number; dedupeKey?: string; once?: boolean }): JobRequest;
}

/**
 * Thrown by a handler that cannot try now for a reason that is not the job's failure (a webhook
 * receiver paused after failing): the job is due again at `until` with its attempt given back.
 */
export class JobDeferral extends Error {
  constructor(
    readonly until: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'JobDeferral';
  }
}

const maxRetryDelayMs = 60 * 60 * 1000;

/** The wait before attempt `attempts + 1` after `attempts` failed ones: base, 2x base, 4x base, ... at most an hour. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), maxRetryDelayMs);
}
