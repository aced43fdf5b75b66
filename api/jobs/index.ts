import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { SingleStatementWrite } from '../events';
import { pruneDoneJobs } from './jobs.repository';
import { JobRunner } from './runner';

export { JobDeferral, jobClasses, retryDelayMs, type JobClass, type JobContext, type JobKind } from './runner';
export type { BatchRequest, JobRequest } from './jobs.repository';
export { listDeadJobs, retryDeadJob } from './jobs.repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's job runner: modules define their kinds of job in their index.ts (api/jobs/runner.ts). */
    jobs: JobRunner;
  }
}

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Durable jobs: a runner on every node, started once the app is ready (every module has defined
 * its kinds by then) and stopped first at close, before the database goes.
 */
export default fp(
  async (app, options: { config: Config }) => {
    // The runner's own claims and outcomes: one statement each, straight on the database's write path
    // (no events, no jobs); nothing else in the app writes this way.
    const single: SingleStatementWrite = (statement) => app.transactions.single(statement);
    // Due times and waits by the app's clock: a test moves a manual one on instead of sleeping.
    const runner = new JobRunner(app.db, app.write, single, options.config.jobs, app.log.child({ module: 'jobs' }), () => app.clock.now(), app.clock);
    app.decorate('jobs', runner);
    app.wakeJobs((soonestAt) => runner.jobsAdded(soonestAt));
    app.classifyJobs((kind) => runner.classOf(kind));
    // Finished jobs are kept a week (a dedupe key holds that long), dead ones until an admin acts;
    // jobs no node knows how to do are made dead (kept, with that error).
    runner.every('jobs.sweep', 60 * 60 * 1000, async () => {
      const before = app.clock.now() - 7 * dayMs;
      await app.write((tx) => pruneDoneJobs(tx.db, before));
      await runner.killUnknownKinds();
    });
    app.addHook('onReady', () => runner.start());
    app.addHook('preClose', () => runner.stop());
  },
  { name: 'jobs', dependencies: ['db', 'events'] },
);
