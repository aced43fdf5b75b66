import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a mailed rating link works. */
export const ratingLinkValidMs = 30 * 24 * 60 * 60 * 1000;

/** The purpose is signed too: a token made for another link (a reset, a continuity link) never rates. */
const purpose = 'chat-rating-link';

function signature(secret: string, sessionId: string, expiresAt: string): string {
  return createHmac('sha256', secret).update(`${purpose}\n${sessionId}\n${expiresAt}`).digest('base64url');
}

/** A signed token naming one session, valid until `expiresAtMs`: `<sessionId>.<expiry, base 36>.<signature>`. */
export function ratingLinkToken(secret: string, sessionId: string, expiresAtMs: number): string {
  const expiresAt = Math.floor(expiresAtMs).toString(36);
  return `${sessionId}.${expiresAt}.${signature(secret, sessionId, expiresAt)}`;
}

export type RatingLinkCheck = { ok: true; sessionId: string } | { ok: false; reason: 'invalid' | 'expired' };

/** The session a token names, if its signature is ours and it has not expired (checked in that order). */
export function checkRatingLinkToken(secret: string, token: string, now: number): RatingLinkCheck {
  const [sessionId, expiresAt, given, extra] = token.split('.');
  if (!sessionId || !expiresAt || !given || extra !== undefined) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(signature(secret, sessionId, expiresAt));
  const received = Buffer.from(given);
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) return { ok: false, reason: 'invalid' };
  if (Number.parseInt(expiresAt, 36) <= now) return { ok: false, reason: 'expired' };
  return { ok: true, sessionId };
}
