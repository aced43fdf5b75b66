import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { parseConfig } from '../config';
import { signInStaff, staffEnv } from '../../test/support/factories';
import { buildTestServer, freshDatabaseEnv } from '../../test/support/helper';

describe('staff routes check the sign-in before the input', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  const unknownSession = 'x'.repeat(36);

  // Each staff route with input it would refuse (400) from a signed-in staff member.
  const badRequests = [
    { method: 'PATCH', url: '/api/leads/contact/1', payload: { status: 'not-a-status' } },
    { method: 'PATCH', url: '/api/leads/no-such-kind/abc', payload: {} },
    { method: 'GET', url: '/api/leads/no-such-kind/abc' },
    { method: 'POST', url: '/api/admin-chat-reply', payload: { sessionId: '', message: '' } },
    { method: 'PATCH', url: `/api/chat-sessions/${unknownSession}`, payload: { status: 'archived', extra: true } },
    { method: 'GET', url: '/api/contact-submissions?limit=-5' },
    { method: 'GET', url: '/api/chat-messages?limit=abc' },
    { method: 'GET', url: '/api/chat-sessions?limit=abc' },
    { method: 'GET', url: '/api/chat-sessions/%20' },
  ] as const;

  it.each(badRequests)('answers $method $url without a session with 401, not 400', async (request) => {
    const response = await app.inject(request);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Not authenticated' });
    // The same input from staff is refused as input.
    const cookie = (await signInStaff(app)).cookie;
    const staffResponse = await app.inject({ ...request, headers: { cookie } });
    expect(staffResponse.statusCode).toBe(400);
  });

  it('answers 401 before looking at a body that is not even JSON', async () => {
    for (const url of ['/api/admin-chat-reply', `/api/chat-sessions/${unknownSession}`, '/api/leads/contact/1']) {
      const method = url === '/api/admin-chat-reply' ? 'POST' : 'PATCH';
      const response = await app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload: '{not json' });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('the sign-in check hooked after validation', () => {
  it('stops the server from starting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lotwise-auth-hook-'));
    const config = {
      ...parseConfig({ NODE_ENV: 'test', DATABASE_PATH: join(dir, 'app.db'), ...(await freshDatabaseEnv()), DATA_DIR: dir, LOG_LEVEL: 'silent' }),
      sessionSecret: 'test-session-secret-that-is-long-enough-0123456789',
    };
    const app = await buildApp(config, { webRoot: join(dir, 'no-web') });
    try {
      const late = async () => {
        app.post('/api/late-check', { preHandler: app.requireStaff }, async () => ({ ok: true }));
        await app.ready();
      };
      await expect(late()).rejects.toThrow('POST /api/late-check: a sign-in check belongs in onRequest, not preHandler');
    } finally {
      await app.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
