import { expect, test } from '@playwright/test';
import { countOf, newChatSessionId, signIn } from './support/admin';

test.describe('staff dashboard: live chat', () => {
  test('a visitor message arrives live: new row, unread badge in the tab and the title, count card', async ({ browser, page }) => {
    await signIn(page);
    const before = await countOf(page, 'chatSessions');
    const visitor = await browser.newContext();
    const sessionId = newChatSessionId();
    const sent = await visitor.request.post('/api/chat-message', {
      data: { sessionId, message: 'Hi, do you work with CarGurus feeds?', isFromUser: true },
    });
    expect(sent.status()).toBe(201);

    const chatTab = page.getByRole('tab', { name: /Chat Messages/ });
    await expect(chatTab.getByLabel(/\d+ unread/)).toBeVisible();
    await expect(page).toHaveTitle(/^\(\d+\) Admin Dashboard/);
    await expect(page.getByTestId('count-chatSessions').locator('p')).toHaveText(String(before + 1));
    await chatTab.click();
    const row = page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').nth(1);
    await expect(row).toContainText(sessionId.slice(0, 8));
    await expect(row).toContainText('Hi, do you work with CarGurus feeds?');
    await expect(row).toContainText('Anonymous');
    await expect(row.getByText('Customer')).toBeVisible();
    await expect(row.getByLabel('1 unread')).toBeVisible();
    await visitor.close();
  });
});
