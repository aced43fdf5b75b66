import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operatorPaths } from '../contract/operations';
import { socketLimits } from '../contract/socket';
import { leadPaths } from '../contract/paths';
import { contactSubmission } from '../../test/support/factories';
import { buildTestServer } from '../../test/support/helper';
import { closeClients, connected, tracked } from '../../test/support/sockets';
import { visitorClient, visitorCookie } from '../../test/support/visitor-socket';

afterEach(() => closeClients());

/** One scrape as `name{labels} -> value`: the labels written as Prometheus writes them, in its order. */
async function scrape(app: FastifyInstance): Promise<Map<string, number>> {
  const response = await app.inject({ method: 'GET', url: operatorPaths.metrics });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  const series = new Map<string, number>();
  for (const line of response.body.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const split = line.lastIndexOf(' ');
    series.set(line.slice(0, split), Number(line.slice(split + 1)));
  }
  return series;
}

/** How much each series moved between two scrapes (a series new in `after` moved from 0). */
function moved(before: Map<string, number>, after: Map<string, number>, name: string): number {
  return (after.get(name) ?? 0) - (before.get(name) ?? 0);
}

describe('GET /metrics', () => {
  it('counts exactly the traffic sent: forms, chat messages, a rate-limited request, by route pattern and status', async () => {
    const { app } = await buildTestServer({}, { listen: true });
    const before = await scrape(app);

    for (let index = 0; index < 3; index += 1) {
      const answer = await app.inject({ method: 'POST', url: leadPaths.contact.create, payload: contactSubmission(), remoteAddress: '10.1.0.1' });
      expect(answer.statusCode).toBe(201);
    }
    // Two chat messages: one over REST, one over a socket.
    const sessionId = `session_${Date.now()}_metrics`;
    const cookie = visitorCookie(app);
    const rest = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie }, payload: { sessionId, message: 'Hello', isFromUser: true } });
    expect(rest.statusCode).toBe(201);
    const socket = tracked(visitorClient(app, cookie));
    await connected(socket);
    const ack = (await socket.emitWithAck('chat:send', { sessionId, message: 'Still there?' })) as { ok: boolean };
    expect(ack.ok).toBe(true);
    // Forgot-password allows 10 a quarter hour per address: the 11th is refused.
    const forgot = [];
    for (let index = 0; index < 11; index += 1) {
      forgot.push(await app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'nobody@example.com' }, remoteAddress: '10.1.0.2' }));
    }
    expect(forgot.map((answer) => answer.statusCode)).toEqual([...Array<number>(10).fill(200), 429]);

    const after = await scrape(app);
    expect(moved(before, after, 'lotwise_form_posts_total{kind="contact"}')).toBe(3);
    expect(moved(before, after, 'lotwise_chat_messages_stored_total{kind="visitor"}')).toBe(2);
    expect(moved(before, after, 'lotwise_rate_limit_refusals_total{route="/api/forgot-password"}')).toBe(1);
    const requests = (route: string, method: string, status: number) =>
      moved(before, after, `lotwise_http_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`);
    expect(requests('/api/contact-submission', 'POST', 201)).toBe(3);
    expect(requests('/api/chat-message', 'POST', 201)).toBe(1);
    expect(requests('/api/forgot-password', 'POST', 200)).toBe(10);
    expect(requests('/api/forgot-password', 'POST', 429)).toBe(1);
    // Both messages were pushed after their commit, and every write was timed.
    expect(moved(before, after, 'lotwise_chat_push_latency_seconds_count')).toBe(2);
    expect(moved(before, after, 'lotwise_db_write_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(after.get('lotwise_sockets_connected{namespace="/"}')).toBe(1);
    expect(after.get('lotwise_sockets_connected{namespace="/admin"}')).toBe(0);
    // Node's own, event-loop lag among them.
    expect(after.has('nodejs_eventloop_lag_seconds')).toBe(true);
    // Routes are patterns: no session id, no query string in any label.
    expect([...after.keys()].filter((key) => key.includes(sessionId) || key.includes('?'))).toEqual([]);
  });

  it('counts socket refusals by a rate limit with the refused event, exactly as many as were refused', async () => {
    const { app } = await buildTestServer({}, { listen: true });
    const before = await scrape(app);

    // The visitor's sends per minute are spent over REST: each socket send is then refused (chat.rate-limit.ts).
    const cookie = visitorCookie(app);
    const sessionId = `session_${Date.now()}_refusals`;
    for (let index = 0; index < socketLimits.chatSendsPerMinute; index += 1) {
      const posted = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie }, payload: { sessionId, message: `rest ${index}` } });
      expect(posted.statusCode).toBe(201);
    }
    const sender = tracked(visitorClient(app, cookie));
    await connected(sender);
    const sends = [];
    for (let index = 0; index < 3; index += 1) sends.push((await sender.emitWithAck('chat:send', { sessionId, message: `over ${index}` })));
    for (const ack of sends) expect(ack.ok === false && ack.error).toMatch(/^Too many messages/);

    // A flood of joins on another socket runs out of its event budget (chat.budget.ts).
    const joiner = tracked(visitorClient(app, visitorCookie(app)));
    await connected(joiner);
    const joins = await Promise.all(Array.from({ length: 60 }, (_, index) => joiner.emitWithAck('chat:join', { sessionId: `session_${Date.now()}_join${index}` })));
    const joinsRefused = joins.filter((ack) => !ack.ok && ack.error === 'Too many events: please slow down').length;
    expect(joinsRefused).toBeGreaterThan(0);

    const after = await scrape(app);
    expect(moved(before, after, 'lotwise_rate_limit_refusals_total{route="socket:chat:send"}')).toBe(3);
    expect(moved(before, after, 'lotwise_rate_limit_refusals_total{route="socket:chat:join"}')).toBe(joinsRefused);
    // The REST sends were all within the limit: no HTTP refusal counted.
    expect(moved(before, after, 'lotwise_rate_limit_refusals_total{route="/api/chat-message"}')).toBe(0);
  });

  it('reports the jobs due, running and dead, and how long the oldest due one has waited', async () => {
    let release = () => {};
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const { app } = await buildTestServer(
      { JOBS_CONCURRENCY: '1', JOBS_POLL_MS: '50' },
      {
        beforeReady: (built) => {
          built.jobs.define('test.hold', { class: 'mail', payload: z.object({}), handle: () => hanging });
          built.jobs.define('test.strict', { class: 'mail', payload: z.object({ id: z.number() }), handle: async () => {} });
        },
      },
    );
    const empty = await scrape(app);
    expect(empty.get('lotwise_jobs_running')).toBe(0);
    expect(empty.get('lotwise_jobs_dead')).toBe(0);
    const until = async (name: string, value: number) => {
      const deadline = Date.now() + 5000;
      while ((await scrape(app)).get(name) !== value && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    };

    // A payload its kind refuses ends dead at once.
    await app.write(async (tx) => tx.enqueue({ kind: 'test.strict', payload: {} }));
    await until('lotwise_jobs_dead', 1);
    // The one slot is held by the next; the other two wait, due a minute ago.
    await app.write(async (tx) => tx.enqueue({ kind: 'test.hold', payload: {} }));
    await until('lotwise_jobs_running', 1);
    const minuteAgo = Date.now() - 60_000;
    await app.write(async (tx) => {
      tx.enqueue({ kind: 'test.hold', payload: {}, runAt: minuteAgo });
      tx.enqueue({ kind: 'test.hold', payload: {}, runAt: minuteAgo + 1000 });
    });

    const busy = await scrape(app);
    expect(busy.get('lotwise_jobs_running')).toBe(1);
    expect(busy.get('lotwise_jobs_due')).toBe(2);
    expect(busy.get('lotwise_jobs_dead')).toBe(1);
    expect(busy.get('lotwise_jobs_oldest_due_age_seconds')).toBeGreaterThanOrEqual(60);
    expect(busy.get('lotwise_jobs_oldest_due_age_seconds')).toBeLessThan(120);
    release();
  });

  it('answers loopback, or a caller with the bearer token; 404 to others, 401 to a wrong token', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const { app } = await buildTestServer({ METRICS_TOKEN: token });
    const get = (headers: Record<string, string>, remoteAddress?: string) =>
      app.inject({ method: 'GET', url: operatorPaths.metrics, headers, ...(remoteAddress ? { remoteAddress } : {}) });

    expect((await get({})).statusCode).toBe(200);
    const stranger = await get({}, '203.0.113.9');
    expect(stranger.statusCode).toBe(404);
    expect(stranger.body).not.toContain('lotwise_');
    // A proxy on this host passes a stranger on: not a local caller.
    expect((await get({ 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(404);
    expect((await get({ forwarded: 'for=203.0.113.9' })).statusCode).toBe(404);

    const withToken = await get({ authorization: `Bearer ${token}` }, '203.0.113.9');
    expect(withToken.statusCode).toBe(200);
    expect(withToken.body).toContain('lotwise_http_request_duration_seconds');
    for (const authorization of [`Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Basic ${token}`, 'Bearer ']) {
      const refused = await get({ authorization }, '203.0.113.9');
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer');
      expect(refused.body).not.toContain('lotwise_');
    }
  });

  it('is not there with METRICS=off, and a token cannot be set without a server token', async () => {
    const { app } = await buildTestServer({ METRICS: 'off' });
    expect((await app.inject({ method: 'GET', url: operatorPaths.metrics })).statusCode).toBe(404);

    const { app: withoutToken } = await buildTestServer();
    const guessed = await withoutToken.inject({ method: 'GET', url: operatorPaths.metrics, headers: { authorization: 'Bearer anything-at-all-0123' }, remoteAddress: '203.0.113.9' });
    expect(guessed.statusCode).toBe(401);
  });
});
