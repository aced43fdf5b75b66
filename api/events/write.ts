import type { Db } from '../../db/client';
import { type Transactions, transactionsFor } from '../../db/writes';
import { type ClassOfKind, insertJobs, type JobRequest } from '../jobs/jobs.repository';
import { EventBus } from './bus';
import type { DomainEvent } from './events';

/** A write's transaction, as a service and its repositories see it. */
export interface Tx {
  /** Queries in this write's transaction (repositories take it). */
  readonly db: Db;
  /** Records what happened: live listeners hear of it after commit; durable ones add their job now. */
  emit(event: DomainEvent): void;
  /** Promises work for later, in this transaction: a job row (api/jobs). */
  enqueue(job: JobRequest): void;
}

/**
 * The one way a module changes data: `write(async (tx) => …)`, settled once committed.
 *
 * **A write awaits nothing but the database.** On SQLite its work runs while the batch holds the one
 * connection (db/writes.ts), so awaiting a fetch, a password hash, a timer or another write inside
 * it stalls every write and read of the process. Do those before the write, and after it what needs
 * its outcome; what must happen later is a job (`tx.enqueue`). Tests log a batch held over 50 ms.
 */
export type Write = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;

class WriteTx implements Tx {
  readonly events: DomainEvent[] = [];
  readonly jobs: JobRequest[] = [];
  /** When the soonest job this write promised is due (epoch ms), and how many rows its promises added. */
  soonestJobAt: number | undefined;
  jobsAdded = 0;

  constructor(readonly db: Db) {}

  emit(event: DomainEvent): void {
    this.events.push(event);
  }

  enqueue(job: JobRequest): void {
    this.jobs.push(job);
  }
}

export interface WriteOptions {
  transactions: Transactions;
  bus: EventBus;
  /**
   * After a commit that added jobs, when the soonest is due: the local job runner takes one due now
   * without waiting for its poll, and wakes for a later one in time.
   */
  onJobsAdded?: (soonestAt: number) => void;
  /** The class of each kind of job, from the job runner's definitions: the rows are written with it. */
  classOfJob?: ClassOfKind;
  now?: () => number;
}

/** Without a runner (a script): no job is expected, and any would wait as maintenance. */
const noRunner: ClassOfKind = () => 'maintenance';

/**
 * Builds `write`: the work runs in a transaction (db/writes.ts: SQLite's group commit, PostgreSQL's
 * own); before it commits, the jobs the work enqueued and those its events' durable listeners want
 * are inserted in it; after it commits, the events go to the live listeners. A write that emits
 * nothing and enqueues nothing costs nothing more than its own statements.
 */
export function createWrite(options: WriteOptions): Write {
  const { transactions, bus, onJobsAdded, classOfJob = noRunner } = options;
  const now = options.now ?? Date.now;
  return async <T>(work: (tx: Tx) => Promise<T>): Promise<T> => {
    let tx: WriteTx | undefined;
    const value = await transactions.run(async (db) => {
      const current = new WriteTx(db);
      tx = current;
      const result = await work(current);
      const jobs = current.events.length > 0 ? [...current.jobs, ...bus.jobsFor(current.events)] : current.jobs;
      if (jobs.length > 0) {
        const at = now();
        current.jobsAdded = await insertJobs(db, jobs, at, classOfJob);
        current.soonestJobAt = Math.min(...jobs.map((job) => job.runAt ?? at));
      }
      return result;
    });
    const committed = tx!;
    if (committed.events.length > 0) bus.dispatch(committed.events);
    // A promise already held (a dedupe key) adds no row: nothing new for the runner then.
    if (committed.soonestJobAt !== undefined && committed.jobsAdded > 0) onJobsAdded?.(committed.soonestJobAt);
    return value;
  };
}

/**
 * `write` for a process without the app (the account scripts): its events have no listeners here,
 * so it must not be used for a change whose events promise work (no durable listener would add it).
 */
export function writeOutsideTheApp(db: Db): Write {
  return createWrite({ transactions: transactionsFor(db), bus: new EventBus() });
}
