// @scaled: rate-limit counters in Redis
import { describe, expect, it } from 'vitest';
import { buildTestServer } from '../../test/support/helper';

describe('security headers', async () => {
  const { app } = await buildTestServer();

  it('sends the same API headers on every API answer, success or error, not only the first', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/health' });
    const later = await Promise.all([
      app.inject({ method: 'GET', url: '/api/session' }),
      app.inject({ method: 'POST', url: '/api/contact-submission', payload: {} }),
      app.inject({ method: 'GET', url: '/api/no-such-thing' }),
      app.inject({ method: 'GET', url: '/api/contact-submissions' }),
      app.inject({ method: 'GET', url: '/api' }),
    ]);
    expect(first.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers['x-frame-options']).toBe('DENY');
    expect(first.headers['cross-origin-resource-policy']).toBe('same-origin');
    // Leads, chats and sessions never land in a browser's or a proxy's cache.
    expect(first.headers['cache-control']).toBe('no-store');
    const names = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'cross-origin-resource-policy', 'cache-control'];
    for (const response of later) {
      for (const name of names) expect(response.headers[name], `${name} on ${response.statusCode}`).toBe(first.headers[name]);
    }
  });

  it('sends the document headers on pages, and keeps them off JSON answers, where they do nothing', async () => {
    // No built SPA in this test server: the 404 of a page path still gets the document set.
    const page = await app.inject({ method: 'GET', url: '/pricing' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const api = await app.inject({ method: 'GET', url: '/api/health' });
    for (const name of ['referrer-policy', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-xss-protection']) {
      expect(api.headers[name], name).toBeUndefined();
    }
  });

  it("lets pages connect to this origin only: connect-src is exactly 'self'", async () => {
    // The widget's WebSocket goes to this origin, which 'self' covers (CSP3): ws:/wss: would allow any host.
    const page = await app.inject({ method: 'GET', url: '/pricing' });
    const directives = String(page.headers['content-security-policy']).split(';').map((directive) => directive.trim());
    expect(directives.filter((directive) => directive.startsWith('connect-src'))).toEqual(["connect-src 'self'"]);
  });
});
