// @scaled: subscription changes told to every node through the Redis adapter
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { operationsPaths, type WebhookDelivery } from '../../contract/admin-operations';
import { pathTo } from '../../contract/paths';
import { buildTestServer, type TestServer } from '../../../test/support/helper';
import { contactSubmission, signInNewStaff, signInStaff, staffEnv } from '../../../test/support/factories';
import { visitorCookie } from '../../../test/support/visitor-socket';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/support/webhook-receiver';

type Verify = (secret: string, rawBody: string, header: string, toleranceSeconds?: number) => boolean;

/** The README's verification snippet, run as it is printed there. */
async function documentedVerifier(): Promise<Verify> {
  const readme = readFileSync(resolve(import.meta.dirname, '../../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('Verifying a delivery'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('no snippet in the README');
  const module = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { verifyLotwiseSignature: Verify };
  return module.verifyLotwiseSignature;
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe('webhooks, with private addresses allowed (a receiver on loopback)', async () => {
  const server: TestServer = await buildTestServer({ ...staffEnv, WEBHOOK_ALLOW_PRIVATE: 'true', JOBS_RETRY_BASE_SECONDS: '0.2', JOBS_POLL_MS: '50' });
  const { app } = server;
  let cookie: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ({ cookie } = await signInStaff(app));
    receiver = await startWebhookReceiver();
  });

  const subscribe = async (events: string[]) => {
    const response = await app.inject({ method: 'POST', url: operationsPaths.webhooks, headers: { cookie }, payload: { url: receiver.url, events } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number; secret: string }>();
  };
  const deliveries = async (id: number) =>
    (await app.inject({ method: 'GET', url: pathTo(operationsPaths.webhookDeliveries, { id }), headers: { cookie } })).json<WebhookDelivery[]>();
  const postLead = async (name: string) => {
    const response = await app.inject({ method: 'POST', url: '/api/contact-submission', payload: contactSubmission({ name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` }) });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number }>();
  };
  const receivedFor = (leadId: number) => receiver.received.filter((request) => JSON.parse(request.body).data?.lead?.id === leadId);

  it('signs a lead.created delivery so that the README snippet verifies it, once, and shows the secret only at creation', async () => {
    const webhook = await subscribe(['lead.created']);
    expect(webhook.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const listed = (await app.inject({ method: 'GET', url: operationsPaths.webhooks, headers: { cookie } })).json<object[]>();
    expect(JSON.stringify(listed)).not.toContain(webhook.secret);

    const lead = await postLead('Vera Verify');
    await until('the delivery', () => receivedFor(lead.id).length > 0);
    const [request] = receivedFor(lead.id);
    const body = JSON.parse(request!.body) as { id: string; type: string; createdAt: string; data: { kind: string; lead: { email: string } } };
    expect(body).toMatchObject({ type: 'lead.created', data: { kind: 'contact', lead: { email: 'vera@example.com' } } });
    expect(body.id).toMatch(/^evt_/);
    expect(request!.headers['x-lotwise-delivery']).toMatch(/^dlv_/);
    expect(request!.headers['x-lotwise-event']).toBe('lead.created');

    const verify = await documentedVerifier();
    const header = String(request!.headers['x-lotwise-signature']);
    expect(verify(webhook.secret, request!.body, header)).toBe(true);
    expect(verify('whsec_wrong', request!.body, header)).toBe(false);
    expect(verify(webhook.secret, request!.body.replace('Vera', 'Vere'), header)).toBe(false);
    // A stale timestamp is refused even with a valid signature of it.
    const stale = Math.floor(Date.now() / 1000) - 3600;
    const { webhookSignature } = await import('./webhooks.send');
    expect(verify(webhook.secret, request!.body, webhookSignature(webhook.secret, request!.body, stale))).toBe(false);

    await until('the delivery recorded', async () => (await deliveries(webhook.id)).some((delivery) => delivery.deliveredAt !== null));
    await sleep(200);
    expect(receivedFor(lead.id)).toHaveLength(1);
    const audit = await app.db.selectFrom('auditLog').select(['action', 'detail']).where('action', '=', 'webhook.changed').execute();
    expect(audit).toContainEqual({ action: 'webhook.changed', detail: 'subscribed' });
    await app.inject({ method: 'DELETE', url: pathTo(operationsPaths.webhook, { id: webhook.id }), headers: { cookie } });
  });

  it('retries a delivery the receiver answered 500, and lists both attempts', async () => {
    const webhook = await subscribe(['lead.created']);
    receiver.answerWith(500);
    const lead = await postLead('Rita Retry');
    await until('a refused try', () => receivedFor(lead.id).some((request) => request.answered === 500));
    receiver.answerWith(200);
    await until('the delivery accepted', () => receivedFor(lead.id).some((request) => request.answered === 200));
    await until('the delivery recorded', async () => (await deliveries(webhook.id)).some((delivery) => delivery.deliveredAt !== null));
    const [delivery] = await deliveries(webhook.id);
    const codes = delivery!.attempts.map((attempt) => attempt.statusCode);
    expect(codes.at(-1)).toBe(200);
    expect(codes.slice(0, -1).every((code) => code === 500)).toBe(true);
    expect(codes.length).toBeGreaterThanOrEqual(2);
    // Every try carried the same delivery id.
    expect(new Set(receivedFor(lead.id).map((request) => request.headers['x-lotwise-delivery'])).size).toBe(1);
    expect(receivedFor(lead.id).filter((request) => request.answered === 200)).toHaveLength(1);
    await app.inject({ method: 'DELETE', url: pathTo(operationsPaths.webhook, { id: webhook.id }), headers: { cookie } });
  });

  it('sends a test event on request, and a lead.updated to a subscriber of that event only', async () => {
    const webhook = await subscribe(['lead.updated']);
    const test = await app.inject({ method: 'POST', url: pathTo(operationsPaths.webhookTest, { id: webhook.id }), headers: { cookie } });
    expect(test.statusCode).toBe(202);
    const { deliveryId } = test.json<{ deliveryId: string }>();
    await until('the test event', () => receiver.received.some((request) => request.headers['x-lotwise-delivery'] === deliveryId));
    const testRequest = receiver.received.find((request) => request.headers['x-lotwise-delivery'] === deliveryId)!;
    expect(JSON.parse(testRequest.body)).toMatchObject({ type: 'webhook.test' });

    const lead = await postLead('Uma Update');
    await sleep(300);
    expect(receivedFor(lead.id)).toEqual([]);
    const patched = await app.inject({ method: 'PATCH', url: `/api/leads/contact/${lead.id}`, headers: { cookie }, payload: { status: 'contacted' } });
    expect(patched.statusCode).toBe(200);
    await until('the lead.updated delivery', () => receivedFor(lead.id).length > 0);
    expect(JSON.parse(receivedFor(lead.id)[0]!.body)).toMatchObject({ type: 'lead.updated', data: { lead: { status: 'contacted' } } });
    await app.inject({ method: 'DELETE', url: pathTo(operationsPaths.webhook, { id: webhook.id }), headers: { cookie } });
  });

  it('sends a chat.message delivery for a visitor message and a staff reply, with the text and the session', async () => {
    const webhook = await subscribe(['chat.message']);
    const sessionId = `session_webhook_${Date.now()}`;
    const sent = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie: visitorCookie(app) }, payload: { sessionId, message: 'Is the blue truck still there?' } });
    expect(sent.statusCode).toBe(201);
    const reply = await app.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie }, payload: { sessionId, message: 'Yes, it is.' } });
    expect(reply.statusCode, reply.body).toBe(201);
    const ofSession = () => receiver.received.map((request) => JSON.parse(request.body) as { type: string; data: { message?: { sessionId: string; message: string; kind: string } } }).filter((body) => body.data.message?.sessionId === sessionId);
    await until('both messages', () => ofSession().length === 2);
    expect(ofSession().map((body) => [body.type, body.data.message!.kind, body.data.message!.message]).sort()).toEqual([
      ['chat.message', 'staff', 'Yes, it is.'],
      ['chat.message', 'visitor', 'Is the blue truck still there?'],
    ]);
    await app.inject({ method: 'DELETE', url: pathTo(operationsPaths.webhook, { id: webhook.id }), headers: { cookie } });
  });

  it('is for admins only, and refuses a bad URL or event with 400', async () => {
    const anonymous = await app.inject({ method: 'GET', url: operationsPaths.webhooks });
    expect(anonymous.statusCode).toBe(401);
    const agent = await signInNewStaff(app);
    const byAgent = await app.inject({ method: 'POST', url: operationsPaths.webhooks, headers: { cookie: agent.cookie }, payload: { url: receiver.url, events: ['lead.created'] } });
    expect(byAgent.statusCode).toBe(403);
    for (const payload of [{ url: 'ftp://example.com/x', events: ['lead.created'] }, { url: receiver.url, events: [] }, { url: receiver.url, events: ['lead.deleted'] }]) {
      const response = await app.inject({ method: 'POST', url: operationsPaths.webhooks, headers: { cookie }, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await app.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
  });
});

describe('webhooks without WEBHOOK_ALLOW_PRIVATE', async () => {
  const { app } = await buildTestServer({ ...staffEnv, JOBS_RETRY_BASE_SECONDS: '0.2', JOBS_POLL_MS: '50' });
  let cookie: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ({ cookie } = await signInStaff(app));
    receiver = await startWebhookReceiver();
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://10.1.2.3/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[fd12::1]/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:a00:1]/hook',
    'http://93.184.215.14/hook',
  ])('refuses %s with 400 and stores nothing', async (url) => {
    const response = await app.inject({ method: 'POST', url: operationsPaths.webhooks, headers: { cookie }, payload: { url, events: ['lead.created'] } });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(/private|https/);
    expect(await app.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
  });

  it('checks again at delivery: a subscription whose host became private is not reached, the attempt says why', async () => {
    // As if the name had resolved to a public address at subscription and to loopback now.
    const row = await app.db
      .insertInto('webhooks')
      .values({ url: receiver.url.replace('127.0.0.1', 'localhost'), events: '["lead.created"]', secret: 'whsec_test', createdAt: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const literal = await app.db
      .insertInto('webhooks')
      .values({ url: receiver.url, events: '["lead.created"]', secret: 'whsec_test', createdAt: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const id of [row.id, literal.id]) {
      const test = await app.inject({ method: 'POST', url: pathTo(operationsPaths.webhookTest, { id }), headers: { cookie } });
      expect(test.statusCode).toBe(202);
    }
    const attemptsOf = async (id: number) =>
      (await app.inject({ method: 'GET', url: pathTo(operationsPaths.webhookDeliveries, { id }), headers: { cookie } })).json<WebhookDelivery[]>()[0]?.attempts ?? [];
    await until('both refused', async () => (await attemptsOf(row.id)).length > 0 && (await attemptsOf(literal.id)).length > 0);
    for (const id of [row.id, literal.id]) {
      const [attempt] = await attemptsOf(id);
      expect(attempt).toMatchObject({ statusCode: null });
      expect(attempt!.error).toMatch(/refused/);
    }
    expect(receiver.received).toEqual([]);
  });
});
