import type { FastifyInstance } from 'fastify';
import { chatRateLimitedMessage } from '../../contract/chat';
import { socketLimits } from '../../contract/socket';
import { HttpError } from '../../plugins/errors';
import { addressLimit, type CounterResult, isAllowlisted, keyedLimit, perAddressLimits } from '../../plugins/rate-limits';

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
  /** Counts one message, and one new session when `startsSession()` says so; throws 429 past any limit. */
  count(sender: ChatSender, startsSession: () => Promise<boolean>): Promise<void>;
}

/** No limits: a service used outside the server (scripts, the service's own tests). */
export const unlimitedChatSends: ChatSendLimits = { count: async () => {} };

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
    async count(sender, startsSession) {
      if (isAllowlisted(allowlist, sender.ip)) return;
      refuseIfOver(await perVisitor.hit(sender.visitorId));
      // Sessions before messages: a flood of new chats refused does not use up the messages of the chats going on.
      if (await startsSession()) refuseIfOver(await sessionsPerAddress.hit(sender.ip));
      refuseIfOver(await messagesPerAddress.hit(sender.ip));
    },
  };
}
