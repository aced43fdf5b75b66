import { describe, expect, it } from 'vitest';
import { buildTestServer } from '../test/support/helper';

/** The server's log lines, as the process would print them. */
function capturedLog() {
  const lines: string[] = [];
  return {
    stream: { write: (line: string) => void lines.push(line) },
    text: () => lines.join(''),
    urls: () => lines.flatMap((line) => {
      const entry = JSON.parse(line) as { req?: { url?: string } };
      return entry.req?.url ? [entry.req.url] : [];
    }),
  };
}

describe('the request log', async () => {
  const log = capturedLog();
  const { app } = await buildTestServer({ LOG_LEVEL: 'info' }, { logStream: log.stream });

  it('logs the path of a reset link without its token', async () => {
    await app.inject({ method: 'GET', url: '/reset-password?token=abc123secret' });
    expect(log.urls()).toContain('/reset-password?token=[redacted]');
    expect(log.text()).not.toContain('abc123secret');
  });

  it('redacts a secret in the query of an API path and keeps the other parameters', async () => {
    await app.inject({ method: 'GET', url: '/api/health?lang=en&token=apisecret456&Password=hunter2&code=otp789' });
    expect(log.urls()).toContain('/api/health?lang=en&token=[redacted]&Password=[redacted]&code=[redacted]');
    expect(log.text()).not.toMatch(/apisecret456|hunter2|otp789/);
  });

  it('redacts a parameter whose name is percent-encoded', async () => {
    await app.inject({ method: 'GET', url: '/reset-password?%74oken=encodedsecret' });
    expect(log.urls()).toContain('/reset-password?%74oken=[redacted]');
    expect(log.text()).not.toContain('encodedsecret');
  });

  it('redacts a mailed conversation link’s token, which would open that conversation to whoever reads the log', async () => {
    await app.inject({ method: 'GET', url: '/?chat=session_1_abc.mz1a2b.linksignature123&utm_source=mail' });
    expect(log.urls()).toContain('/?chat=[redacted]&utm_source=mail');
    expect(log.text()).not.toContain('linksignature123');
  });
});
