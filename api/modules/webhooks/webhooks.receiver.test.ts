// @scaled: webhook jobs beside the other job classes, claims per dialect
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Webhook, type WebhookDelivery, operationsPaths } from '../../contract/admin-operations';
import { auditPaths, type AuditPage } from '../../contract/audit';
import { apiPaths, pathTo } from '../../contract/paths';
import { buildTestServer } from '../../../test/support/helper';
import { signInStaff, staffEnv } from '../../../test/support/factories';
import { createDealer } from '../auth';
import { onPostgres } from '../../../test/support/database';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtp-sink';
import { freePort } from '../../../scripts/services/free-port';
import { visitorCookie } from '../../../test/support/visitor-socket';
import { isPrivateAddress } from './webhooks.address';

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A receiver on loopback that takes each request and never answers; `answer` changes what later ones get. */
async function startHangingReceiver() {
  const hung: ServerResponse[] = [];
  let status: number | 'hang' = 'hang';
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => (status === 'hang' ? hung.push(response) : response.writeHead(status).end()));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  });
  return { url: `http://127.0.0.1:${port}/hooks`, hung, answer: (next: number | 'hang') => (status = next) };
}

describe(`webhooks and the other jobs (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, async () => {
  let sink: SmtpSink;
  beforeAll(async () => void (sink = await startSmtpSink()));
  afterAll(() => sink?.down());

  it('a hanging receiver subscribed to chat.message and 200 anonymous chat messages do not delay a password reset', async () => {
    const receiver = await startHangingReceiver();
    const { app, config } = await buildTestServer({
      ...staffEnv,
      SMTP_URL: sink.url,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_SECONDS: '30',
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
    });
    const { cookie } = await signInStaff(app);
    const dealerEmail = 'lee@park-cars.example';
    await createDealer(app.db, app.write, { username: 'park-cars', email: dealerEmail, password: 'old-password-1' });
    const subscribed = await app.inject({ method: 'POST', url: operationsPaths.webhooks, headers: { cookie }, payload: { url: receiver.url, events: ['chat.message'] } });
    expect(subscribed.statusCode, subscribed.body).toBe(201);

    // 200 anonymous visitors, a message each.
    for (let index = 0; index < 200; index += 1) {
      const sessionId = `session_hang_${Date.now()}_${index}`;
      const sent = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie: visitorCookie(app) }, payload: { sessionId, message: `Hello ${index}` } });
      expect(sent.statusCode, sent.body).toBe(201);
    }
    // Every webhook slot is held by a delivery the receiver never answers, and more wait behind them.
    await until('the webhook slots held', () => receiver.hung.length >= config.jobs.slots.webhook);
    const waiting = await app.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('count')).where('class', '=', 'webhook').where('state', '=', 'pending').executeTakeFirstOrThrow();
    expect(Number(waiting.count)).toBeGreaterThan(config.jobs.slots.webhook);

    const askedAt = Date.now();
    const asked = await app.inject({ method: 'POST', url: apiPaths.forgotPassword, payload: { email: dealerEmail } });
    expect(asked.statusCode).toBe(200);
    await sink.waitFor((accepted) => accepted.some((mail) => mail.to.includes(dealerEmail)), 5000);
    expect(Date.now() - askedAt).toBeLessThan(1000);
    receiver.answer(200);
    for (const response of receiver.hung) response.writeHead(200).end();
  });

  it('pauses a failing receiver per subscription: later deliveries wait without a try, and admins see why', async () => {
    const receiver = await startHangingReceiver();
    receiver.answer(503);
    const { app } = await buildTestServer({ ...staffEnv, WEBHOOK_ALLOW_PRIVATE: 'true', JOBS_RETRY_BASE_SECONDS: '600', JOBS_POLL_MS: '50' });
    const { cookie } = await signInStaff(app);
    const created = (await app.inject({ method: 'POST', url: operationsPaths.webhooks, headers: { cookie }, payload: { url: receiver.url, events: ['lead.created'] } })).json<Webhook>();
    expect(created.receiver).toEqual({ failingSince: null, pausedUntil: null, failures: 0, lastFailure: null });
    const sendTest = () => app.inject({ method: 'POST', url: pathTo(operationsPaths.webhookTest, { id: created.id }), headers: { cookie } });
    const deliveries = async () => (await app.inject({ method: 'GET', url: pathTo(operationsPaths.webhookDeliveries, { id: created.id }), headers: { cookie } })).json<WebhookDelivery[]>();

    expect((await sendTest()).statusCode).toBe(202);
    await app.jobs.runDue();
    const [first] = await deliveries();
    expect(first!.attempts).toMatchObject([{ statusCode: 503, error: 'http-status 503' }]);
    const [listed] = (await app.inject({ method: 'GET', url: operationsPaths.webhooks, headers: { cookie } })).json<Webhook[]>();
    expect(listed!.receiver).toMatchObject({ failures: 1, lastFailure: 'http-status 503' });
    expect(Date.parse(listed!.receiver.pausedUntil!)).toBeGreaterThan(Date.now() + 500_000);
    expect(listed!.receiver.failingSince).not.toBeNull();

    // A second delivery to the paused receiver: no request, no attempt, no try spent.
    expect((await sendTest()).statusCode).toBe(202);
    await app.jobs.runDue();
    const second = (await deliveries()).find((delivery) => delivery.id !== first!.id)!;
    expect(second.attempts).toEqual([]);
    const job = await app.db.selectFrom('jobs').selectAll().where('kind', '=', 'webhook-delivery').where('payload', 'like', `%${second.id}%`).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'pending', attempts: 0, lockedBy: null });
    expect(Number(job.runAt)).toBeGreaterThan(Date.now() + 500_000);

    // The test sends are in the audit log.
    const audit = (await app.inject({ method: 'GET', url: auditPaths.log, headers: { cookie } })).json<AuditPage>();
    expect(audit.entries.filter((entry) => entry.action === 'Sent a webhook test event' || entry.action === 'webhook.test-sent')).toHaveLength(2);
  });

  it('records a short class of failure, never the raw error: refused, timeout, tls', async () => {
    const hanging = await startHangingReceiver();
    const closedPort = await freePort();
    const { app } = await buildTestServer({ ...staffEnv, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_SECONDS: '0.3', JOBS_POLL_MS: '50' });
    const { cookie } = await signInStaff(app);
    const errorFor = async (url: string) => {
      const created = (await app.inject({ method: 'POST', url: operationsPaths.webhooks, headers: { cookie }, payload: { url, events: ['lead.created'] } })).json<Webhook>();
      await app.inject({ method: 'POST', url: pathTo(operationsPaths.webhookTest, { id: created.id }), headers: { cookie } });
      let attempts: WebhookDelivery['attempts'] = [];
      await until(`an attempt to ${url}`, async () => {
        attempts = (await app.inject({ method: 'GET', url: pathTo(operationsPaths.webhookDeliveries, { id: created.id }), headers: { cookie } })).json<WebhookDelivery[]>()[0]?.attempts ?? [];
        return attempts.length > 0;
      });
      return attempts[0]!.error;
    };
    expect(await errorFor(`http://127.0.0.1:${closedPort}/hooks`)).toBe('refused');
    expect(await errorFor(hanging.url)).toBe('timeout');
    expect(await errorFor(hanging.url.replace('http://', 'https://'))).toBe('tls');
  });
});

describe('the webhook address guard', async () => {
  const { app } = await buildTestServer({ ...staffEnv });
  let cookie: string;
  beforeAll(async () => void ({ cookie } = await signInStaff(app)));
  const subscribe = (url: string) => app.inject({ method: 'POST', url: operationsPaths.webhooks, headers: { cookie }, payload: { url, events: ['lead.created'] } });

  it.each([
    ['IPv4-compatible ::/96', 'https://[::7f00:1]/hook'],
    ['IPv4-mapped ::ffff:0:0/96', 'https://[::ffff:808:808]/hook'],
    ['6to4 2002::/16', 'https://[2002:7f00:1::1]/hook'],
    ['Teredo 2001::/32', 'https://[2001::1]/hook'],
    ['NAT64 64:ff9b::/96', 'https://[64:ff9b::a00:1]/hook'],
    ['documentation 2001:db8::/32', 'https://[2001:db8::1]/hook'],
    ['carrier-grade NAT', 'https://100.64.0.1/hook'],
    ['documentation 192.0.2.0/24', 'https://192.0.2.1/hook'],
    ['broadcast', 'https://255.255.255.255/hook'],
  ])('refuses %s with 400 and stores nothing', async (_name, url) => {
    const response = await subscribe(url);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(/private or special-purpose/);
    expect(await app.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
  });

  it('allows only ports 80, 443 and 8443', async () => {
    const refused = await subscribe('https://93.184.215.14:22/hook');
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe("The URL's port must be one of 80, 443, 8443");
    for (const url of ['https://93.184.215.14:8443/hook', 'https://93.184.215.14/hook']) expect((await subscribe(url)).statusCode, url).toBe(201);
  });

  it('refuses a URL with a user name or password, even where private addresses are allowed', async () => {
    const open = await buildTestServer({ ...staffEnv, WEBHOOK_ALLOW_PRIVATE: 'true' });
    const signedIn = await signInStaff(open.app);
    for (const [target, session] of [
      [app, cookie],
      [open.app, signedIn.cookie],
    ] as const) {
      const response = await target.inject({ method: 'POST', url: operationsPaths.webhooks, headers: { cookie: session }, payload: { url: 'https://crm:hunter2@93.184.215.14/hook', events: ['lead.created'] } });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(/must not hold a user name or password/);
      expect(await target.db.selectFrom('webhooks').select('url').where('url', 'like', '%hunter2%').execute()).toEqual([]);
    }
  });

  it('calls public unicast addresses public, and every special range not', () => {
    for (const address of ['8.8.8.8', '2606:4700::1111']) expect(isPrivateAddress(address), address).toBe(false);
    for (const address of ['::', '::1', '::7f00:1', '::ffff:8.8.8.8', '2002::1', '2001::1', 'fe80::1', 'fc00::1', 'ff02::1', '10.0.0.1', '0.1.2.3', 'not an address']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
  });
});
