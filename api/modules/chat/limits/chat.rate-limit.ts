import type { FastifyInstance } from 'fastify';
import { chatRateLimitedMessage } from '../../../contract/chat';
import { socketLimits } from '../../../contract/socket';
import { HttpError } from '../../../plugins/errors';
import { addressLimit, type CounterResult, isAllowlisted, keyedLimit, perAddressLimits } from '../../../plugins/rate-limits';

/** Who sends, as the limits count them. */
export interface ChatSender {
  visitorId: string;
  /** The client address. */
  ip?: string;
}

/**
 * What a visitor's message is counted against, whichever path (REST or socket) it took: its visitor
 * identity, its client address, and, for a session's first message, the sessions that address started.
 */
export interface ChatSendLimits {
  /** Counts one message, before it is written; throws 429 past the visitor's or the address's limit. */
  countMessage(sender: ChatSender): Promise<void>;
  /**
   * For a message that did not land in an existing session: counts a new session against the
   * address when `startsSession()` says it is one; throws 429 past that limit, and then the message
   * counted for it is given back, so a flood of new chats refused does not use up the messages of
   * the chats going on.
   */
  countNewSession(sender: ChatSender, startsSession: () => Promise<boolean>): Promise<void>;
}

/** No limits: a service used outside the server (scripts, the service's own tests). */
export const unlimitedChatSends: ChatSendLimits = { countMessage: async () => {}, countNewSession: async () => {} };

function refuseIfOver(result: CounterResult): void {
  if (!result.ok) throw new HttpError(429, chatRateLimitedMessage(Math.max(1, Math.ceil(result.retryAfterMs / 1000))));
}

/**
 * The chat's counters (rate-limits.ts: in Redis when it is configured, shared by every process).
 * Allowlisted addresses skip them all; a refused hit stops before the next counter is touched.
 */
export function chatSendLimits(app: FastifyInstance, allowlist: readonly string[]): ChatSendLimits {
  const perVisitor = keyedLimit(app, { name: 'chat-visitor', max: socketLimits.chatSendsPerMinute, timeWindowMs: 60_000 });
  const messagesPerAddress = addressLimit(app, { name: 'chat-address', allowlist, ...perAddressLimits.chatMessages });
  const sessionsPerAddress = addressLimit(app, { name: 'chat-session-address', allowlist, ...perAddressLimits.newChatSessions });
  return {
    async countMessage(sender) {
      if (isAllowlisted(allowlist, sender.ip)) return;
      refuseIfOver(await perVisitor.hit(sender.visitorId));
      refuseIfOver(await messagesPerAddress.hit(sender.ip));
    },
    async countNewSession(sender, startsSession) {
      if (isAllowlisted(allowlist, sender.ip) || !(await startsSession())) return;
      const started = await sessionsPerAddress.hit(sender.ip);
      if (!started.ok) await messagesPerAddress.refund(sender.ip);
      refuseIfOver(started);
    },
  };
}
