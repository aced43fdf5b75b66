import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Every link we mail that proves something (a password reset, an invite, a conversation, a rating,
 * an unsubscribe, an address confirmation) is signed here and nowhere else (DESIGN 17).
 *
 * A token is `<payload>.<signature>`: the payload is the link's fields and its expiry (whole seconds
 * since the epoch, or 0 for a link that never expires), base64url; the signature is HMAC-SHA256 with
 * the session secret over the purpose and the payload, so a token made for one purpose never passes
 * for another, and it is compared in constant time. A link that must be revocable (used once, or
 * withdrawn) is also stored, as `tokenHash` of its token only.
 */

/**
 * The query parameters whose values are secrets: a mailed link's token, a reset, an OAuth `code`.
 * The request log shows them as `[redacted]` (api/request-log.ts), and `deploy/nginx.conf`'s log map
 * leaves the query out of any request naming one (a test keeps the three in step).
 */
export const secretQueryParameters = ['token', 'reset', 'code', 'state', 'password', 'secret', 'chat'] as const;

/** What a link of one purpose carries and how long it lives. */
export interface LinkPurpose<F extends string> {
  /** Signed with the fields: `chat-link`, `unsubscribe`, ... (unique across the app). */
  readonly purpose: string;
  /** The names of its fields, in the order they are signed. */
  readonly fields: readonly F[];
  /** Seconds from signing to expiry; `null`: the link never expires (an unsubscribe link in an old mail still works). */
  readonly lifetimeSeconds: number | null;
}

export type LinkCheck<F extends string> =
  | { ok: true; fields: Record<F, string>; expiresAt: number | null }
  | { ok: false; reason: 'invalid' | 'expired' };

const purposes = new Set<string>();

/** Names a purpose (once per purpose: two features signing with one purpose would accept each other's links). */
export function linkPurpose<F extends string>(definition: LinkPurpose<F>): LinkPurpose<F> {
  if (purposes.has(definition.purpose)) throw new Error(`link purpose ${definition.purpose} is defined twice`);
  purposes.add(definition.purpose);
  return definition;
}

function signature(secret: string, purpose: string, payload: string): string {
  return createHmac('sha256', secret).update(`${purpose}\n${payload}`).digest('base64url');
}

/** A token for `purpose` carrying `fields`, expiring `lifetimeSeconds` after `nowMs` (epoch ms). */
export function signLink<F extends string>(secret: string, purpose: LinkPurpose<F>, fields: Record<F, string>, nowMs: number): string {
  const expiresAt = purpose.lifetimeSeconds === null ? 0 : Math.floor(nowMs / 1000) + Math.ceil(purpose.lifetimeSeconds);
  const payload = Buffer.from(JSON.stringify([...purpose.fields.map((name) => fields[name]), expiresAt])).toString('base64url');
  return `${payload}.${signature(secret, purpose.purpose, payload)}`;
}

/** The fields of a genuine token of `purpose`: forged, altered or another purpose's is `invalid`; genuine but past its time, `expired`. */
export function checkLink<F extends string>(secret: string, purpose: LinkPurpose<F>, token: string, nowMs: number): LinkCheck<F> {
  const invalid = { ok: false, reason: 'invalid' } as const;
  if (token.length > 2048) return invalid;
  const [payload, given, ...rest] = token.split('.');
  if (!payload || !given || rest.length > 0) return invalid;
  const expected = Buffer.from(signature(secret, purpose.purpose, payload));
  const received = Buffer.from(given);
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) return invalid;
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return invalid;
  }
  if (!Array.isArray(values) || values.length !== purpose.fields.length + 1) return invalid;
  const expiresAt = values.at(-1) as unknown;
  if (typeof expiresAt !== 'number' || !Number.isInteger(expiresAt) || expiresAt < 0) return invalid;
  const fields = {} as Record<F, string>;
  for (const [index, name] of purpose.fields.entries()) {
    const value = values[index] as unknown;
    if (typeof value !== 'string') return invalid;
    fields[name] = value;
  }
  if (expiresAt !== 0 && expiresAt * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, fields, expiresAt: expiresAt === 0 ? null : expiresAt * 1000 };
}

/** What is stored of a revocable token: its SHA-256, never the token. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
