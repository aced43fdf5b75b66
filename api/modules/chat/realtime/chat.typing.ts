import type { TypingPayload } from '../../../contract/socket';
import type { Clock } from '../../../lib/clock';

/** At most one `chat:typing` relay to the dashboards per conversation in this long, per node. */
export const typingRelayIntervalMs = 400;

/**
 * Relays a visitor's typing to staff at most once per `typingRelayIntervalMs` per conversation: the
 * first at once, the rest of the interval held, and at its end the last state held is relayed (if it
 * differs from the one relayed), so a visitor with many sockets cannot flood every dashboard and the
 * dashboard still ends with the visitor's latest state. Kept per node in memory: behind the Redis
 * adapter each node relays its own sockets' typing, so a visitor spread over n nodes reaches
 * dashboards at most n times per interval. A conversation quiet for an interval is forgotten.
 */
export class TypingRelay {
  private readonly conversations = new Map<string, { relayed: boolean; held?: TypingPayload }>();

  constructor(
    private readonly clock: Clock,
    private readonly relay: (payload: TypingPayload) => void,
    private readonly intervalMs = typingRelayIntervalMs,
  ) {}

  offer(payload: TypingPayload): void {
    const state = this.conversations.get(payload.sessionId);
    if (state) {
      state.held = payload;
      return;
    }
    this.conversations.set(payload.sessionId, { relayed: payload.typing });
    this.relay(payload);
    this.clock.after(this.intervalMs, () => this.intervalEnded(payload.sessionId));
  }

  private intervalEnded(sessionId: string): void {
    const state = this.conversations.get(sessionId);
    this.conversations.delete(sessionId);
    // The last state held wins; one equal to what the dashboards show already is not sent again.
    if (state?.held && state.held.typing !== state.relayed) this.offer(state.held);
  }
}
