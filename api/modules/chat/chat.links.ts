import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed tokens of the chat's mails, HMAC-SHA256 with the session secret. Each purpose signs its
 * own prefix, so a token of one kind never passes for another.
 */

/** How long a mailed conversation link opens its conversation. */
export const chatLinkLifetimeMs = 30 * 24 * 60 * 60 * 1000;

function sign(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

/** Compares in constant time, so the answer's timing tells nothing of how much of a guess was right. */
function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `<sessionId>.<expiry, epoch seconds in base 36>.<signature>`: opens that one conversation until it expires. */
export function chatLinkToken(secret: string, sessionId: string, expiresAt: number): string {
  const expiry = Math.floor(expiresAt / 1000).toString(36);
  return `${sessionId}.${expiry}.${sign(secret, `chat-link\n${sessionId}\n${expiry}`)}`;
}

export type ChatLinkCheck = { ok: true; sessionId: string } | { ok: false; reason: 'invalid' | 'expired' };

/** The session a link token opens: forged or altered is `invalid`; genuine but past its 30 days is `expired`. */
export function checkChatLinkToken(secret: string, token: string, now: number): ChatLinkCheck {
  const [sessionId, expiry, signature, ...rest] = token.split('.');
  if (!sessionId || !expiry || !signature || rest.length > 0) return { ok: false, reason: 'invalid' };
  if (!sameSignature(signature, sign(secret, `chat-link\n${sessionId}\n${expiry}`))) return { ok: false, reason: 'invalid' };
  if (Number.parseInt(expiry, 36) * 1000 <= now) return { ok: false, reason: 'expired' };
  return { ok: true, sessionId };
}
