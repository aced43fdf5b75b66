import { expect } from '@playwright/test';
import { test } from './support/test';
import { countOf, newChatSessionId, signIn, conversationPane } from './support/admin';

const burstSize = 500;
/** Requests in flight at once while the burst is sent. */
const sendersAtOnce = 50;

test.describe('staff dashboard under a burst of new chats', () => {
  test('500 new chat sessions arrive live: the count card and the rows are right, and a row still opens View & Reply', async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    await signIn(page);
    await page.getByRole('tab', { name: /Chat Messages/ }).click();
    const table = page.getByRole('table', { name: 'Chat Messages' });
    await expect(table).toBeVisible();
    const sessionsBefore = await countOf(page, 'chatSessions');
    const rowsBefore = Number(await table.getAttribute('aria-rowcount')) - 1;

    // Through the real server, each message a new session of a new visitor, many at once as a flood
    // comes (Node's own fetch: quicker than going through the browser driver).
    const send = async (sessionId: string, message: string) => {
      const response = await fetch(`${baseURL}/api/chat-message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId, message, isFromUser: true }),
      });
      expect(response.status, await response.text()).toBe(201);
    };
    const flood = Array.from({ length: burstSize }, (_, index) => ({ sessionId: newChatSessionId(), message: `Flood visitor ${index}` }));
    for (let start = 0; start < flood.length; start += sendersAtOnce) {
      await Promise.all(flood.slice(start, start + sendersAtOnce).map(({ sessionId, message }) => send(sessionId, message)));
    }
    // One more after the flood: the newest, so the top row.
    const lastSessionId = newChatSessionId();
    const lastMessage = `After the flood, a real question ${Date.now()}`;
    await send(lastSessionId, lastMessage);

    await expect(page.getByTestId('count-chatSessions').locator('[data-figure]')).toHaveText((sessionsBefore + burstSize + 1).toLocaleString('en-US'));
    await expect(table).toHaveAttribute('aria-rowcount', String(rowsBefore + burstSize + 1 + 1));
    const top = table.getByRole('row').nth(1);
    await expect(top).toContainText(lastMessage);
    await expect(top.getByLabel('1 unread')).toBeVisible();
    // The flood's rows follow it.
    await expect(table.getByRole('row').nth(2)).toContainText('Flood visitor');

    await top.getByRole('button', { name: /View & Reply/ }).click();
    const pane = conversationPane(page);
    await expect(pane.getByText(lastMessage)).toBeVisible();
    await expect(pane.getByText(lastSessionId)).toBeVisible();
  });
});
