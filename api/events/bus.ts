import type { FastifyBaseLogger } from 'fastify';
import type { JobRequest } from '../jobs/jobs.repository';
import type { DomainEvent, EventOf, EventType } from './events';

/** A live listener: runs in this process after the event's write commits. */
export type LiveListener<T extends EventType> = (event: EventOf<T>) => void | Promise<void>;
/**
 * A durable listener: answers the job that acts on the event (or nothing, when there is nothing to
 * do), which is inserted by the event's own write, so the event and the promise to act on it commit
 * together or not at all.
 */
export type DurableListener<T extends EventType> = (event: EventOf<T>) => JobRequest | undefined;

function addTo<L>(listeners: Map<EventType, L[]>, type: EventType, listener: L): void {
  const list = listeners.get(type);
  if (list) list.push(listener);
  else listeners.set(type, [listener]);
}

/**
 * Who reacts to what. A module subscribes in its own index.ts; a service only says what happened
 * (`tx.emit`) and never calls another module's side effect itself.
 */
export class EventBus {
  private readonly live = new Map<EventType, LiveListener<EventType>[]>();
  private readonly durable = new Map<EventType, DurableListener<EventType>[]>();

  constructor(private readonly log?: FastifyBaseLogger) {}

  /** After commit, in this process: socket pushes and other in-memory reactions. */
  on<T extends EventType>(type: T, listener: LiveListener<T>): void {
    addTo(this.live, type, listener as unknown as LiveListener<EventType>);
  }

  /** In the event's transaction: the job that does the work later, on some node, once. */
  react<T extends EventType>(type: T, listener: DurableListener<T>): void {
    addTo(this.durable, type, listener as unknown as DurableListener<EventType>);
  }

  /** The jobs the durable listeners want for these events. */
  jobsFor(events: readonly DomainEvent[]): JobRequest[] {
    const jobs: JobRequest[] = [];
    for (const event of events) {
      for (const listener of this.durable.get(event.type) ?? []) {
        const job = listener(event);
        if (job) jobs.push(job);
      }
    }
    return jobs;
  }

  /**
   * Hands committed events to the live listeners, in order. A listener that fails is logged: the
   * write is committed whatever a push does, and a client that missed a push resyncs by cursor.
   */
  dispatch(events: readonly DomainEvent[]): void {
    for (const event of events) {
      const listeners = this.live.get(event.type);
      if (!listeners) continue;
      for (const listener of listeners) {
        try {
          const done = listener(event);
          // Only a promise is waited on: a listener that answers anything else has finished.
          if (done instanceof Promise) done.catch((error: unknown) => this.failed(event, error));
        } catch (error) {
          this.failed(event, error);
        }
      }
    }
  }

  private failed(event: DomainEvent, error: unknown): void {
    this.log?.error({ err: error, event: event.type }, 'event listener failed');
  }
}
