import { describe, expect, it } from 'vitest';
import { buildTestServer } from '../test/helper';

describe('security headers', async () => {
  const { app } = await buildTestServer();

  it('sends the same helmet headers on every response, not only the first', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/health' });
    const later = await Promise.all([
      app.inject({ method: 'GET', url: '/api/session' }),
      app.inject({ method: 'POST', url: '/api/contact-submission', payload: {} }),
      app.inject({ method: 'GET', url: '/api/no-such-thing' }),
    ]);
    const names = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy'];
    expect(first.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    for (const response of later) {
      for (const name of names) expect(response.headers[name], `${name} on ${response.statusCode}`).toBe(first.headers[name]);
    }
  });
});
