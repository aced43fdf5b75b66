import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../request-log';
import { checkLink, linkPurpose, secretQueryParameters, signLink, tokenHash } from './signed-link';

const secret = 'a-session-secret-that-is-long-enough-0123456789';
const hour = linkPurpose({ purpose: 'test-hour', fields: ['sessionId', 'email'], lifetimeSeconds: 3600 });
const forever = linkPurpose({ purpose: 'test-forever', fields: ['email'], lifetimeSeconds: null });
const now = Date.UTC(2026, 10, 28, 12, 0, 0);

describe('signed links', () => {
  it('carries its fields, dots and all, and says until when it works, in whole seconds', () => {
    const token = signLink(secret, hour, { sessionId: 'session_1', email: 'kim.lee@example.com' }, now);
    expect(token).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect(checkLink(secret, hour, token, now + 3_599_000)).toEqual({
      ok: true,
      fields: { sessionId: 'session_1', email: 'kim.lee@example.com' },
      expiresAt: now + 3_600_000,
    });
  });

  it('expires at its lifetime; a link with none never does', () => {
    const token = signLink(secret, hour, { sessionId: 's', email: 'e' }, now);
    expect(checkLink(secret, hour, token, now + 3_600_000)).toEqual({ ok: false, reason: 'expired' });
    const lasting = signLink(secret, forever, { email: 'kim@example.com' }, now);
    expect(checkLink(secret, forever, lasting, now + 10 * 365 * 24 * 3600 * 1000)).toMatchObject({ ok: true, expiresAt: null });
  });

  it('refuses another purpose’s token, another key’s, an altered payload or signature, and junk', () => {
    const token = signLink(secret, hour, { sessionId: 'mine', email: 'kim@example.com' }, now);
    const [payload, signature] = token.split('.') as [string, string];
    const other = linkPurpose({ purpose: 'test-other', fields: ['sessionId', 'email'], lifetimeSeconds: 3600 });
    const altered = Buffer.from(JSON.stringify(['theirs', 'kim@example.com', Math.floor(now / 1000) + 3600])).toString('base64url');
    const longer = Buffer.from(JSON.stringify(['mine', 'kim@example.com', Math.floor(now / 1000) + 999_999])).toString('base64url');
    for (const forged of [
      signLink(secret, other, { sessionId: 'mine', email: 'kim@example.com' }, now),
      signLink('another-secret-that-is-long-enough-0123456789', hour, { sessionId: 'mine', email: 'kim@example.com' }, now),
      `${altered}.${signature}`,
      `${longer}.${signature}`,
      `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
      `${payload}.${signature}.extra`,
      payload,
      '',
      'x'.repeat(5000),
    ]) {
      expect(checkLink(secret, hour, forged, now)).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('refuses a genuine signature over a payload of the wrong shape', () => {
    // Signed as `test-hour` would sign it, but with one field too few: never read as a link.
    const short = linkPurpose({ purpose: 'test-short', fields: ['sessionId'], lifetimeSeconds: 3600 });
    const token = signLink(secret, short, { sessionId: 'mine' }, now);
    const asHour = { ...hour, purpose: 'test-short' };
    expect(checkLink(secret, asHour, token, now)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a purpose named twice, so two features never accept each other’s links', () => {
    expect(() => linkPurpose({ purpose: 'test-hour', fields: [], lifetimeSeconds: 1 })).toThrow(/defined twice/);
  });

  it('stores a revocable token as its hash only', () => {
    expect(tokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

/** The names in a map's alternation, `(token|reset|...)`, in `text`. */
function namesInMaps(text: string): string[][] {
  return [...text.matchAll(/map \$(args|http_referer) \$lotwise_logged_\w+ \{\n\s+"[^"]*?\(([a-z|]+)\)/g)].map((match) => match[2]!.split('|').sort());
}

describe('one list of secret query parameters', () => {
  const expected = [...secretQueryParameters].sort();

  it('is what the request log redacts', () => {
    const url = `/x?${secretQueryParameters.map((name) => `${name}=s3cret`).join('&')}&page=2`;
    expect(redactSecrets(url)).toBe(`/x?${secretQueryParameters.map((name) => `${name}=[redacted]`).join('&')}&page=2`);
  });

  it('is what deploy/nginx.conf and the README’s TLS example strip from their access logs', () => {
    for (const file of ['deploy/nginx.conf', 'README.md']) {
      const maps = namesInMaps(readFileSync(resolve(import.meta.dirname, '../..', file), 'utf8'));
      expect(maps, file).toEqual([expected, expected]);
    }
  });
});
