import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { conversationPane, newChatSessionId, type OwnServer, signIn, startOwnServer } from './support/admin';

const shots = '/work/shots/assignment';

/** A server of its own: auto-assignment changes what every new conversation does. */
let server: OwnServer;
test.beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startOwnServer({ JOBS_POLL_MS: '100' });
});
test.afterAll(async () => server?.stop());

async function staffPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, server.baseURL);
  await page.getByRole('tab', { name: /Chat Messages/ }).click();
  return page;
}

async function visitorWrites(browser: Browser, message: string): Promise<string> {
  const visitor = await browser.newContext();
  const sessionId = newChatSessionId();
  const sent = await visitor.request.post(`${server.baseURL}/api/chat-message`, { data: { sessionId, message } });
  expect(sent.status()).toBe(201);
  await visitor.close();
  return sessionId;
}

const rowOf = (page: Page, sessionId: string) => page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').filter({ hasText: sessionId.slice(-8) });

test.describe.serial('assignment across two staff pages', () => {
  test('Assign to me on one page shows on the other at once, and Mine shows it there too', async ({ browser }) => {
    const first = await staffPage(browser);
    const second = await staffPage(browser);
    const sessionId = await visitorWrites(browser, 'Can someone take my trade-in question?');
    await expect(rowOf(second, sessionId)).toContainText('Unassigned');

    await rowOf(first, sessionId).getByRole('button', { name: /View & Reply/ }).click();
    const pane = conversationPane(first);
    await pane.getByRole('button', { name: 'Assign this conversation to me' }).click();
    await expect(pane.getByLabel('Assignee')).toHaveValue(/\d+/);
    // The other page hears of it live.
    await expect(rowOf(second, sessionId)).toContainText('staff');
    await second.getByRole('group', { name: 'Show whose work' }).getByRole('button', { name: 'Mine' }).click();
    await expect(rowOf(second, sessionId)).toBeVisible();
    await second.getByRole('group', { name: 'Show whose work' }).getByRole('button', { name: 'Unassigned' }).click();
    await expect(rowOf(second, sessionId)).toHaveCount(0);

    for (const width of [1280, 375]) {
      await first.setViewportSize({ width, height: 900 });
      await first.screenshot({ path: `${shots}/assignee-picker-${width}.png` });
      await second.setViewportSize({ width, height: 900 });
      await second.screenshot({ path: `${shots}/filters-unassigned-${width}.png` });
    }
    await first.context().close();
    await second.context().close();
  });

  test('auto-assignment gives a conversation to the online agent and hands out the queued one when a place frees', async ({ browser }) => {
    const admin = await staffPage(browser);
    const other = await staffPage(browser);
    const settings = admin.getByTestId('auto-assignment');
    await settings.locator('summary').click();
    await settings.getByLabel('Assign new conversations automatically').check();
    await settings.getByLabel('Open conversations per agent').fill('1');
    for (const width of [1280, 375]) {
      await admin.setViewportSize({ width, height: 900 });
      await admin.screenshot({ path: `${shots}/auto-assignment-settings-${width}.png` });
    }
    await admin.setViewportSize({ width: 1280, height: 900 });
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(settings.locator('summary')).toContainText('on, up to 1 each');

    // The earlier test's conversation is still open: resolve it, so the one agent has a free place.
    const rows = other.getByRole('table', { name: 'Chat Messages' }).getByRole('row');
    const placed = await visitorWrites(browser, 'First in line: is the blue sedan still there?');
    const queued = await visitorWrites(browser, 'Second in line: do you take trades?');
    for (const select of await rows.getByRole('combobox', { name: /Status of chat/ }).all()) {
      const label = (await select.getAttribute('aria-label')) ?? '';
      if (!label.endsWith(placed.slice(-8)) && !label.endsWith(queued.slice(-8))) await select.selectOption('resolved');
    }
    await expect(rowOf(other, placed)).toContainText('staff');
    await expect(rowOf(other, queued)).toContainText('Unassigned');

    // Resolved on one page: the queued conversation goes to the agent, seen live on the other.
    await rowOf(other, placed).getByRole('combobox', { name: /Status of chat/ }).selectOption('resolved');
    // Nobody read it: the page asks first.
    await other.getByRole('dialog').getByRole('button', { name: 'Resolve' }).click();
    await expect(rowOf(admin, queued)).toContainText('staff');
    await admin.context().close();
    await other.context().close();
  });
});
