import type { Ack } from '../../contract/socket';

/** Events one socket may send: a burst of 20, then 10 a second. Chat sends also count against the visitor's limit. */
const eventBurst = 20;
const eventsPerSecond = 10;
export const tooManyEventsMessage = 'Too many events: please slow down';

/** A token bucket per socket, so one socket cannot flood the server with joins or typing. */
export class EventBudget {
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

/** False while the socket's budget allows one more event; otherwise acks the refusal, if asked for one. */
export function overBudget(budget: EventBudget, ack: unknown): boolean {
  if (budget.take()) return false;
  if (typeof ack === 'function') (ack as Ack)({ ok: false, error: tooManyEventsMessage });
  return true;
}
