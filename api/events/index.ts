import fp from 'fastify-plugin';
import { EventBus } from './bus';
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
    /** Registers the local job runner's wake-up (api/jobs/index.ts). */
    wakeJobs(wake: () => void): void;
  }
}

/**
 * `app.write` and `app.events`. A write that enqueues a job due now wakes this node's job runner
 * (api/jobs), which subscribes through `wakeJobs`.
 */
export default fp(
  async (app) => {
    const bus = new EventBus(app.log);
    const jobWaiters: (() => void)[] = [];
    app.decorate('events', bus);
    app.decorate('write', createWrite({ transactions: app.transactions, bus, onJobsDue: () => jobWaiters.forEach((wake) => wake()) }));
    app.decorate('wakeJobs', (wake: () => void) => void jobWaiters.push(wake));
  },
  { name: 'events', dependencies: ['db'] },
);
