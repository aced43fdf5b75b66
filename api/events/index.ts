import fp from 'fastify-plugin';
import type { Db } from '../../db/client';
import { EventBus } from './bus';
import type { ClassOfKind } from '../jobs/jobs.repository';
import { createWrite, type Write } from './write';

export type { DomainEvent, EventOf, EventType } from './events';
export type { Tx, Write } from './write';
export { writeOutsideTheApp } from './write';
export type { EventBus } from './bus';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who reacts to what: modules subscribe in their index.ts (api/events/bus.ts). */
    events: EventBus;
    /** The one way a module changes data (api/events/write.ts). */
    write: Write;
    /** Registers the local job runner, told when a write here adds jobs and the soonest is due (api/jobs/index.ts). */
    wakeJobs(wake: (soonestAt: number) => void): void;
    /** Registers the job runner's classes of kinds: each job row a write adds is written with its kind's class (api/jobs/index.ts). */
    classifyJobs(classOf: ClassOfKind): void;
    /** How writes commit, for metrics: when the last transaction committed, and each one's duration. */
    commits: WriteCommits;
  }
}

/**
 * A write of one statement that emits nothing and promises nothing: the job runner's claims and
 * outcomes, which PostgreSQL runs without a BEGIN and a COMMIT. Only api/jobs makes one; modules use `write`.
 */
export type SingleStatementWrite = <T>(statement: (db: Db) => Promise<T>) => Promise<T>;

export interface WriteCommits {
  /** `performance.now()` at the last commit: a write's live listeners run in the same turn, right after it. */
  lastAt(): number | undefined;
  observe(observer: (durationMs: number) => void): void;
}

/**
 * `app.write` and `app.events`. A write that enqueues jobs tells this node's job runner
 * (api/jobs), which subscribes through `wakeJobs`.
 */
export default fp(
  async (app) => {
    const bus = new EventBus(app.log);
    const jobWaiters: ((soonestAt: number) => void)[] = [];
    let classOfJob: ClassOfKind = () => 'maintenance';
    app.decorate('events', bus);
    app.decorate(
      'write',
      createWrite({
        transactions: app.transactions,
        bus,
        onJobsAdded: (soonestAt) => jobWaiters.forEach((wake) => wake(soonestAt)),
        classOfJob: (kind) => classOfJob(kind),
        // A job's run and due times by the app's clock, as the job runner reads them.
        now: () => app.clock.now(),
      }),
    );
    app.decorate('wakeJobs', (wake: (soonestAt: number) => void) => void jobWaiters.push(wake));
    app.decorate('classifyJobs', (classOf: ClassOfKind) => void (classOfJob = classOf));
    const { transactions } = app;
    app.decorate('commits', {
      lastAt: () => transactions.lastCommitAt,
      observe: (observer: (durationMs: number) => void) => transactions.observe?.(observer),
    } satisfies WriteCommits);
  },
  { name: 'events', dependencies: ['db'] },
);
