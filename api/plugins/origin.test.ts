import { describe, expect, it } from 'vitest';
import { isSameSiteOrigin } from './origin';

const publicUrl = 'https://lotwise.example';

describe('isSameSiteOrigin', () => {
  it('accepts the host the request was addressed to, on any scheme or deployment', () => {
    expect(isSameSiteOrigin('http://127.0.0.1:3205', '127.0.0.1:3205', publicUrl)).toBe(true);
    // A Referer is a whole URL: only its origin counts.
    expect(isSameSiteOrigin('http://127.0.0.1:3205/admin/chat?x=1', '127.0.0.1:3205', publicUrl)).toBe(true);
  });

  it('accepts the public URL, behind a proxy that rewrites the Host header', () => {
    expect(isSameSiteOrigin('https://lotwise.example', 'app-internal:3000', publicUrl)).toBe(true);
  });

  it('refuses another site, a different port of the same host, and a lookalike host', () => {
    expect(isSameSiteOrigin('https://evil.example', 'lotwise.example', publicUrl)).toBe(false);
    expect(isSameSiteOrigin('http://127.0.0.1:9999', '127.0.0.1:3205', publicUrl)).toBe(false);
    expect(isSameSiteOrigin('https://lotwise.example.evil.example', 'lotwise.example', publicUrl)).toBe(false);
  });

  it('refuses an Origin that is not a URL, such as the "null" of a sandboxed page', () => {
    expect(isSameSiteOrigin('null', 'lotwise.example', publicUrl)).toBe(false);
    expect(isSameSiteOrigin('not a url', 'lotwise.example', publicUrl)).toBe(false);
  });

  it('refuses a host match when the request named no host', () => {
    expect(isSameSiteOrigin('http://127.0.0.1:3205', undefined, publicUrl)).toBe(false);
    expect(isSameSiteOrigin('file:///tmp/page.html', '', publicUrl)).toBe(false);
  });

  it('accepts a request without Origin: it is not another site’s page', () => {
    expect(isSameSiteOrigin(undefined, 'lotwise.example', publicUrl)).toBe(true);
    expect(isSameSiteOrigin('', undefined, publicUrl)).toBe(true);
  });
});
