import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { checkLink, linkPurpose, signLink } from '../../lib/signed-link';

/**
 * An address as the mail policy stores it: a hash of its lower case, never the address, so the
 * suppression list outlives an erase of the person (an erased address is never mailed again) without
 * keeping who they were. Frozen in 2026-12-23T0100_mail_policy.ts too (the old list moved with it).
 */
export function addressHash(email: string): string {
  return createHash('sha256').update(`lotwise-mail-address\n${normalAddress(email)}`).digest('base64url');
}

/** The one spelling of an address the policy compares and records. */
export function normalAddress(email: string): string {
  return email.trim().toLowerCase();
}

/** The unsubscribe link's token: names the address it stops, and never expires (an old mail's link still works). */
export const unsubscribeLink = linkPurpose({ purpose: 'unsubscribe', fields: ['address'], lifetimeSeconds: null });

/** The address-confirmation link: proves the address wants our mail, and releases the work waiting for it. */
export const addressConfirmationLink = linkPurpose({ purpose: 'mail-address-confirmation', fields: ['address', 'confirmation'], lifetimeSeconds: 7 * 24 * 60 * 60 });

export function unsubscribeToken(secret: string, email: string, nowMs = Date.now()): string {
  return signLink(secret, unsubscribeLink, { address: normalAddress(email) }, nowMs);
}

/**
 * The address an unsubscribe token names, or undefined for a forged or altered one. Also takes the
 * tokens of mails sent before the links moved to api/lib/signed-link.ts (`<address, base64url>.<HMAC
 * of "unsubscribe\n" + address>`): an unsubscribe link in an old mail must keep working.
 */
export function checkUnsubscribeToken(secret: string, token: string, nowMs = Date.now()): string | undefined {
  const check = checkLink(secret, unsubscribeLink, token, nowMs);
  if (check.ok) return check.fields.address;
  const [encoded, signature, ...rest] = token.split('.');
  if (!encoded || !signature || rest.length > 0) return undefined;
  const address = Buffer.from(encoded, 'base64url').toString('utf8');
  if (!address.includes('@') || address.length > 254) return undefined;
  const expected = Buffer.from(createHmac('sha256', secret).update(`unsubscribe\n${address}`).digest('base64url'));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? address : undefined;
}

/** A link or markup in a name: `https://`, `www.`, `evil.example/claim`, `<b>`. Such a name is not put in a mail to an unproven address. */
const linkOrMarkup = /[<>&]|:\/\/|www\.|@|[a-z0-9-]\.[a-z]{2,}\b/i;

/** A person's name fit to greet them with in a mail to an address that has not proven it wants ours: none with a link or markup. */
export function plainName(name: string | null | undefined): string | undefined {
  const trimmed = name?.trim();
  if (!trimmed || trimmed.length > 80 || linkOrMarkup.test(trimmed)) return undefined;
  return trimmed;
}
