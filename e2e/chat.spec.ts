import { expect, type Page } from '@playwright/test';
import { test, workerServer } from './support/test';
import type { ChatMessage } from '../api/contract/chat';
import { connectStaff, type StaffSocket } from './support/staff';

/** The next chat message staff hear, with the time it arrived. */
function nextStaffMessage(staff: StaffSocket): Promise<{ message: ChatMessage; at: number }> {
  return new Promise((done) => staff.once('chat:message', (message) => done({ message, at: Date.now() })));
}

async function openWidget(page: Page) {
  await page.goto('/');
  const button = page.getByRole('button', { name: /^Open chat/ });
  await expect(button).toBeVisible({ timeout: 5000 });
  await button.click();
  await expect(page.getByRole('dialog', { name: 'Chat With Us' })).toBeVisible();
}

let staff: StaffSocket;
test.beforeEach(async ({ request }) => {
  staff = await connectStaff(request, workerServer().baseURL);
});
test.afterEach(() => {
  staff.disconnect();
});

test('a visitor and staff exchange messages live, each within a second, without reload', async ({ page }) => {
  // The CSP's connect-src is 'self' alone: the same-origin WebSocket must still pass it.
  const cspRefusals: string[] = [];
  page.on('console', (entry) => {
    if (/Content Security Policy/i.test(entry.text())) cspRefusals.push(entry.text());
  });
  await openWidget(page);
  // Presence comes only over the socket.
  await expect(page.getByText('Online now')).toBeVisible();
  await expect(page.getByText("Hi! I'm here to help you learn more about Lotwise. How can I assist you today?")).toBeVisible();

  const input = page.getByRole('textbox', { name: 'Message' });
  const heard = nextStaffMessage(staff);
  await input.fill('Do you work with dealers in Texas?');
  const sentAt = Date.now();
  await input.press('Enter');
  await expect(input).toHaveValue('');
  const { message, at } = await heard;
  expect(message).toMatchObject({ message: 'Do you work with dealers in Texas?', isFromUser: true });
  expect(at - sentAt).toBeLessThan(1000);

  staff.emit('chat:typing', { sessionId: message.sessionId, typing: true });
  await expect(page.getByText('Support is typing…')).toBeVisible({ timeout: 1000 });

  const answered = await staff.emitWithAck('chat:reply', { sessionId: message.sessionId, message: 'Yes, all 254 counties!' });
  expect(answered.ok).toBe(true);
  await expect(page.getByText('Yes, all 254 counties!')).toBeVisible({ timeout: 1000 });
  await expect(page.getByText('Support is typing…')).toHaveCount(0);
  await expect(page.getByText('Do you work with dealers in Texas?')).toHaveCount(1);
  expect(await page.evaluate(() => localStorage.getItem('chatSessionId'))).toBe(message.sessionId);
  expect(cspRefusals).toEqual([]);
});

test('with the socket cut the widget carries on by polling, then catches up on reconnect', async ({ page }) => {
  let cut = false;
  const open: { close(): Promise<void> }[] = [];
  // Every Socket.IO connection of the page goes through here, so the test can cut it at will.
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (cut) return void ws.close();
    ws.connectToServer();
    open.push(ws);
  });
  await page.route(/\/socket\.io\//, (route) => (cut ? route.abort() : route.continue()));

  await openWidget(page);
  await expect(page.getByText('Online now')).toBeVisible();
  const input = page.getByRole('textbox', { name: 'Message' });
  const first = nextStaffMessage(staff);
  await input.fill('Connected hello');
  await input.press('Enter');
  const { message } = await first;
  const { sessionId } = message;

  cut = true;
  await Promise.all(open.splice(0).map((ws) => ws.close()));

  // Sent by REST, answered by staff, received by the 3 s poll.
  const second = nextStaffMessage(staff);
  await input.fill('Hello while cut off');
  await input.press('Enter');
  expect((await second).message).toMatchObject({ sessionId, message: 'Hello while cut off' });
  await staff.emitWithAck('chat:reply', { sessionId, message: 'Reply fetched by polling' });
  await expect(page.getByText('Reply fetched by polling')).toBeVisible({ timeout: 5000 });

  // Closed panel: no poll. A reply now arrives only when the socket is back and re-joins.
  await page.getByRole('button', { name: 'Close chat' }).click();
  await staff.emitWithAck('chat:reply', { sessionId, message: 'Reply caught up on reconnect' });
  await page.waitForTimeout(3500);
  await expect(page.getByRole('button', { name: 'Open chat' })).toBeVisible();

  cut = false;
  await expect(page.getByRole('button', { name: 'Open chat, 1 unread message' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Open chat, 1 unread message' }).click();
  for (const text of ['Connected hello', 'Hello while cut off', 'Reply fetched by polling', 'Reply caught up on reconnect']) {
    await expect(page.getByText(text)).toHaveCount(1);
  }
});
