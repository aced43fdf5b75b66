import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from '@playwright/test';
import { test } from './support/test';
import { expectNoSidewaysScroll, type OwnServer, signIn, startOwnServer } from './support/admin';

/** A webhook receiver on loopback, keeping what it was sent. */
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let receiver: Server;
let receiverUrl: string;
let server: OwnServer;

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  // Its own server: webhooks to loopback are allowed only with WEBHOOK_ALLOW_PRIVATE.
  server = await startOwnServer({ WEBHOOK_ALLOW_PRIVATE: 'true' });
});

test.afterAll(async () => {
  await server?.stop();
  receiver?.closeAllConnections();
  await new Promise((closed) => receiver?.close(closed));
});

test.use({ viewport: { width: 375, height: 800 } });

test('an admin subscribes a receiver on a phone, sends a test event, and sees it delivered; the signature verifies', async ({ page }) => {
  await signIn(page, server.baseURL);
  await page.goto(`${server.baseURL}/admin/webhooks`);
  await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
  await page.getByLabel('Receiver URL').fill(receiverUrl);
  await page.getByLabel('lead.updated').check();
  await page.getByRole('button', { name: 'Subscribe' }).click();
  const secret = (await page.getByTestId('webhook-secret').innerText()).trim();
  expect(secret).toMatch(/^whsec_/);

  const item = page.getByRole('listitem').filter({ hasText: receiverUrl });
  await expect(item.getByText('lead.created, lead.updated')).toBeVisible();
  await item.getByRole('button', { name: 'Send test event' }).click();
  await expect.poll(() => received.length).toBe(1);
  const [delivery] = received;
  expect(JSON.parse(delivery!.body)).toMatchObject({ type: 'webhook.test' });
  const signature = String(delivery!.headers['x-lotwise-signature']);
  const t = /t=(\d+)/.exec(signature)![1]!;
  expect(signature).toBe(`t=${t},v1=${createHmac('sha256', secret).update(`${t}.${delivery!.body}`).digest('hex')}`);

  const deliveries = item.getByRole('region', { name: /Deliveries to/ });
  await expect(deliveries.getByText(/webhook\.test .* delivered/)).toBeVisible();
  await expect(deliveries.getByText(/: 200 \(\d+ ms\)/)).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/screenshots/admin-webhooks-375.png', fullPage: true });

  for (const [screen, title] of [['data', 'Data requests'], ['jobs', 'Dead jobs']] as const) {
    await page.goto(`${server.baseURL}/admin/${screen}`);
    await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/screenshots/admin-${screen}-375.png`, fullPage: true });
  }
});
