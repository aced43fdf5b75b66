import { mkdirSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from './support/test';
import { countOf, newChatSessionId, signIn, conversationPane } from './support/admin';

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
    await expect(page.getByTestId('count-chatSessions').locator('[data-figure]')).toHaveText(String(before + 1));
    await chatTab.click();
    const row = page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').nth(1);
    await expect(row).toContainText(sessionId.slice(-8));
    await expect(row).toContainText('Hi, do you work with CarGurus feeds?');
    await expect(row).toContainText('Anonymous');
    await expect(row.getByText('Customer')).toBeVisible();
    await expect(row.getByLabel('1 unread')).toBeVisible();
    await visitor.close();
  });
});

test.describe('staff dashboard: reply round trip', () => {
  test('a visitor writes in the widget, staff and visitor see each other typing, staff reply, and the visitor page shows the reply', async ({ browser, page }) => {
    test.setTimeout(45_000);
    await signIn(page);
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    // The widget's button appears after its 2 s delay.
    await visitor.getByRole('button', { name: 'Open chat' }).click({ timeout: 10_000 });
    await expect(visitor.getByText('Chat With Us')).toBeVisible();
    const input = visitor.getByPlaceholder('Type your message...');
    const question = `Is the Professional plan month to month? ${Date.now()}`;
    await input.fill(question);
    await input.press('Enter');

    await page.getByRole('tab', { name: /Chat Messages/ }).click();
    const row = page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').filter({ hasText: question });
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: /View & Reply/ }).click();
    const pane = conversationPane(page);
    await expect(pane.getByText(question)).toBeVisible();
    await expect(row.getByLabel(/unread/)).toHaveCount(0);

    await input.pressSequentially('And the setup fee', { delay: 30 });
    await expect(pane.getByText('Visitor is typing...')).toBeVisible();

    const answer = `Yes, month to month, cancel any time. ${Date.now()}`;
    const replyBox = pane.getByRole('textbox', { name: 'Reply' });
    await expect(pane.getByRole('button', { name: 'Send' })).toBeDisabled();
    await replyBox.pressSequentially('Yes', { delay: 30 });
    // Staff typing reaches the visitor's widget.
    await expect(visitor.getByText('Support is typing…')).toBeVisible();
    await replyBox.fill(answer);
    await pane.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('toast').getByText('Reply sent')).toBeVisible();
    await expect(replyBox).toHaveValue('');
    await expect(replyBox).toBeFocused();
    await expect(pane.locator('[data-from="support"]').filter({ hasText: answer })).toBeVisible();
    await expect(visitor.getByText(answer)).toBeVisible();

    mkdirSync('test-results/screenshots', { recursive: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: 'test-results/screenshots/admin-chat-pane-desktop.png' });
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.screenshot({ path: 'test-results/screenshots/admin-chat-pane-tablet.png' });
    // Below 1024 px the conversation takes the width, and Back returns to the list.
    await pane.getByRole('button', { name: 'Back' }).click();
    await expect(conversationPane(page)).toHaveCount(0);
    await page.screenshot({ path: 'test-results/screenshots/admin-chat-tablet.png' });
    await visitorContext.close();
  });
});

test.describe('staff dashboard: a network that blocks WebSockets', () => {
  test('says live updates are paused and still shows a new chat within seconds, by reading the lists again', async ({ browser, page }) => {
    // The upgrade is swallowed: the socket neither connects nor hears back, as behind some proxies.
    await page.routeWebSocket(/\/socket\.io\//, () => undefined);
    await signIn(page);
    await expect(page.getByRole('status').filter({ hasText: 'Live updates paused: refreshing every 5 s' })).toBeVisible({ timeout: 10_000 });
    mkdirSync('test-results/screenshots', { recursive: true });
    await page.screenshot({ path: 'test-results/screenshots/admin-live-paused-desktop.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: 'test-results/screenshots/admin-live-paused-phone.png' });
    await page.setViewportSize({ width: 1280, height: 720 });

    const visitor = await browser.newContext();
    const sessionId = newChatSessionId();
    const sent = await visitor.request.post('/api/chat-message', { data: { sessionId, message: 'Anyone there? Our office blocks nothing.', isFromUser: true } });
    expect(sent.status()).toBe(201);
    await page.getByRole('tab', { name: /Chat Messages/ }).click();
    const row = page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').filter({ hasText: sessionId.slice(-8) });
    await expect(row).toContainText('Anyone there? Our office blocks nothing.', { timeout: 8000 });
    await expect(page).toHaveTitle(/^\(\d+\) Admin Dashboard/);
    await visitor.close();
  });
});
