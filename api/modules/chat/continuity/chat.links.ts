import { checkLink, linkPurpose, signLink } from '../../../lib/signed-link';

/** A mailed conversation link (`/?chat=<token>`): opens that one conversation for 30 days. */
const chatLink = linkPurpose({ purpose: 'chat-link', fields: ['sessionId'], lifetimeSeconds: 30 * 24 * 60 * 60 });

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
