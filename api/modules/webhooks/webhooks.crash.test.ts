// @scaled: a delivery through a kill -9 of the process
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Db } from '../../../db/client';
import { connectDatabase } from '../../../db/open';
import { operationsPaths } from '../../contract/admin-operations';
import { apiPaths } from '../../contract/paths';
import { type AppProcess, startAppProcess } from '../../../scripts/services/app-process';
import { crashHarness } from '../../../test/support/crash-harness';
import { freshPostgresUrl, onPostgres } from '../../../test/support/database';
import { contactSubmission, staffEmail, staffPassword } from '../../../test/support/factories';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/support/webhook-receiver';
import { webhookSignature } from './webhooks.send';

const redisUrl = inject('redisUrl') as string | undefined;
const staff = { ADMIN_EMAIL: staffEmail, ADMIN_PASSWORD: staffPassword };

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Signs in on a real process and subscribes the receiver to lead.created; answers the secret. */
async function subscribe(node: AppProcess, receiver: WebhookReceiver): Promise<string> {
  const signIn = await fetch(`${node.url}${apiPaths.staffLogin}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: staffEmail, password: staffPassword }),
  });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const response = await fetch(`${node.url}${operationsPaths.webhooks}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ url: receiver.url, events: ['lead.created'] }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { secret: string }).secret;
}

async function postLead(node: AppProcess, name: string): Promise<number> {
  const response = await fetch(`${node.url}/api/contact-submission`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(contactSubmission({ name })),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

const leadIdOf = (body: string) => (JSON.parse(body) as { data: { lead: { id: number } } }).data.lead.id;

describe('a webhook delivery through a kill -9', async () => {
  const receiver = await startWebhookReceiver();
  const { db, start } = await crashHarness('webhook-crash', { ...staff, WEBHOOK_ALLOW_PRIVATE: 'true', JOBS_RETRY_BASE_SECONDS: '0.3', JOBS_LEASE_SECONDS: '3' });

  it('is delivered by the next process, accepted once, with a signature of the secret', async () => {
    const first = await start();
    const secret = await subscribe(first, receiver);
    receiver.answerWith(500);
    const leadId = await postLead(first, 'Kill Kim');
    // Committed and tried once: the delivery lives in the database only now.
    await until('a refused try recorded', async () => (await db.selectFrom('webhookAttempts').select('statusCode').where('statusCode', '=', 500).execute()).length > 0);
    first.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    receiver.answerWith(200);
    await start();
    await until('the delivery accepted', () => receiver.received.some((request) => request.answered === 200));
    await until('the delivery recorded', async () => (await db.selectFrom('webhookDeliveries').select('deliveredAt').executeTakeFirst())?.deliveredAt != null);
    await sleep(500);
    const accepted = receiver.received.filter((request) => request.answered === 200);
    expect(accepted).toHaveLength(1);
    expect(leadIdOf(accepted[0]!.body)).toBe(leadId);
    const header = String(accepted[0]!.headers['x-lotwise-signature']);
    const t = Number(/t=(\d+)/.exec(header)?.[1]);
    expect(header).toBe(webhookSignature(secret, accepted[0]!.body, t));
    const attempts = await db.selectFrom('webhookAttempts').select('statusCode').orderBy('id').execute();
    expect(attempts.at(-1)?.statusCode).toBe(200);
    expect(attempts.some((attempt) => attempt.statusCode === 500)).toBe(true);
  }, 90_000);
});

/** Two real processes on one PostgreSQL and one Redis: a subscription made on one is used by both; each delivery accepted once. */
describe.skipIf(!onPostgres || !redisUrl)('webhooks from two nodes on PostgreSQL and Redis', () => {
  let receiver: WebhookReceiver;
  let db: Db;
  let nodeA: AppProcess;
  let nodeB: AppProcess;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    const env = {
      ...staff,
      DATABASE_URL: await freshPostgresUrl(),
      REDIS_URL: redisUrl!,
      REDIS_KEY_PREFIX: `webhooks-${randomBytes(4).toString('hex')}:`,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      JOBS_RETRY_BASE_SECONDS: '0.3',
      JOBS_LEASE_SECONDS: '3',
    };
    [nodeA, nodeB] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
    db = connectDatabase({ url: env.DATABASE_URL, path: '', poolSize: 1 });
  }, 120_000);

  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.log(`node A:\n${nodeA.output()}\nnode B:\n${nodeB.output()}`);
  });

  afterAll(async () => {
    await Promise.all([nodeA?.stop(), nodeB?.stop()]);
    await db?.destroy();
  });

  it('20 leads across both nodes, the receiver failing at first: each accepted once', async () => {
    receiver.answerWith(500);
    await subscribe(nodeA, receiver);
    // Node B read the new subscription before node A answered: a lead it takes at once is sent too.
    const ids = await Promise.all(Array.from({ length: 20 }, (_, index) => postLead(index % 2 ? nodeB : nodeA, `Pair ${index}`)));
    // The receiver fails: its subscription is paused (per subscription, not per delivery), and the
    // deliveries wait without spending tries.
    await until('a failed try', () => receiver.received.some((request) => request.answered === 500));
    await until('the receiver paused', async () => (await db.selectFrom('webhooks').select('failures').where('url', '=', receiver.url).executeTakeFirstOrThrow()).failures > 0);
    receiver.answerWith(200);
    await until('every lead accepted', () => ids.every((id) => receiver.received.some((request) => request.answered === 200 && leadIdOf(request.body) === id)));
    await until('every delivery recorded', async () => (await db.selectFrom('webhookDeliveries').select('id').where('deliveredAt', 'is', null).execute()).length === 0);
    await sleep(500);
    const accepted = receiver.received.filter((request) => request.answered === 200);
    expect(accepted).toHaveLength(ids.length);
    expect(new Set(accepted.map((request) => leadIdOf(request.body))).size).toBe(ids.length);
    expect(new Set(accepted.map((request) => request.headers['x-lotwise-delivery'])).size).toBe(ids.length);
  }, 90_000);
});
