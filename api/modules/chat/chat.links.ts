import { createHmac, timingSafeEqual } from 'node:crypto';
import { checkLink, linkPurpose, signLink } from '../../lib/signed-link';

/** A mailed conversation link (`/?chat=<token>`): opens that one conversation for 30 days. */
const chatLink = linkPurpose({ purpose: 'chat-link', fields: ['sessionId'], lifetimeSeconds: 30 * 24 * 60 * 60 });

function sign(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

/** Compares in constant time, so the answer's timing tells nothing of how much of a guess was right. */
function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A link that opens conversation `sessionId` for 30 days from `nowMs`. */
export function chatLinkToken(secret: string, sessionId: string, nowMs: number): string {
  return signLink(secret, chatLink, { sessionId }, nowMs);
}

export type ChatLinkCheck = { ok: true; sessionId: string; expiresAt: number } | { ok: false; reason: 'invalid' | 'expired' };

/** The session a link token opens, and until when: forged or altered is `invalid`; genuine but past its 30 days is `expired`. */
export function checkChatLinkToken(secret: string, token: string, now: number): ChatLinkCheck {
  const check = checkLink(secret, chatLink, token, now);
  if (!check.ok) return check;
  return { ok: true, sessionId: check.fields.sessionId, expiresAt: check.expiresAt ?? Number.MAX_SAFE_INTEGER };
}

/** `<email, base64url>.<signature>`: unsubscribes that address, and no other. It does not expire (an old mail's link still works). */
export function unsubscribeToken(secret: string, email: string): string {
  const address = email.toLowerCase();
  return `${Buffer.from(address).toString('base64url')}.${sign(secret, `unsubscribe\n${address}`)}`;
}

/** The address an unsubscribe token names, or undefined for a forged or altered one. */
export function checkUnsubscribeToken(secret: string, token: string): string | undefined {
  const [encoded, signature, ...rest] = token.split('.');
  if (!encoded || !signature || rest.length > 0) return undefined;
  const address = Buffer.from(encoded, 'base64url').toString('utf8');
  if (!address.includes('@') || address.length > 254) return undefined;
  return sameSignature(signature, sign(secret, `unsubscribe\n${address}`)) ? address : undefined;
}
