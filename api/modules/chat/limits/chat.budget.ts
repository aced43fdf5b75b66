import type { FastifyInstance } from 'fastify';
import type { Ack } from '../../../contract/socket';
import type { ClientEventName } from '../../../plugins/socket-io';
import { isAllowlisted } from '../../../plugins/rate-limits';

/** Events one socket may send: a burst of 20, then 10 a second. Chat sends also count against the visitor's limit. */
const eventBurst = 20;
const eventsPerSecond = 10;
export const tooManyEventsMessage = 'Too many events: please slow down';

/** What one socket may still send. */
export interface EventBudget {
  take(): boolean;
}

/** A token bucket per socket, so one socket cannot flood the server with joins or typing. */
class TokenBucket implements EventBudget {
  private tokens = eventBurst;
  private refilledAt = Date.now();

  take(now = Date.now()): boolean {
    this.tokens = Math.min(eventBurst, this.tokens + ((now - this.refilledAt) / 1000) * eventsPerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * No limit. A class, not an object holding a function of its own: a socket's data crosses nodes
 * (`fetchSockets` through the Redis adapter encodes it), and a function cannot be encoded.
 */
class Unlimited implements EventBudget {
  take(): boolean {
    return true;
  }
}
const unlimited: EventBudget = new Unlimited();

/** A new socket's budget: addresses of RATE_LIMIT_ALLOWLIST skip every limit, this one too (a load test on loopback). */
export function eventBudgetFor(address: string | undefined, allowlist: readonly string[]): EventBudget {
  return isAllowlisted(allowlist, address) ? unlimited : new TokenBucket();
}

/** False while the socket's budget allows one more event; otherwise acks the refusal, if asked for one, and reports it. */
export function overBudget(app: FastifyInstance, event: ClientEventName, budget: EventBudget, ack: unknown): boolean {
  if (budget.take()) return false;
  app.socketRefusals.refused(event);
  if (typeof ack === 'function') (ack as Ack)({ ok: false, error: tooManyEventsMessage });
  return true;
}
