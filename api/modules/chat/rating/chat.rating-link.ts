import { checkLink, linkPurpose, signLink } from '../../../lib/signed-link';

/** A mailed rating link: rates that one conversation, for 30 days. */
const ratingLink = linkPurpose({ purpose: 'chat-rating-link', fields: ['sessionId'], lifetimeSeconds: 30 * 24 * 60 * 60 });

/** A token rating conversation `sessionId`, valid for 30 days from `nowMs`. */
export function ratingLinkToken(secret: string, sessionId: string, nowMs: number): string {
  return signLink(secret, ratingLink, { sessionId }, nowMs);
}

export type RatingLinkCheck = { ok: true; sessionId: string } | { ok: false; reason: 'invalid' | 'expired' };

/** The session a token names, if its signature is ours and it has not expired. */
export function checkRatingLinkToken(secret: string, token: string, now: number): RatingLinkCheck {
  const check = checkLink(secret, ratingLink, token, now);
  return check.ok ? { ok: true, sessionId: check.fields.sessionId } : check;
}
