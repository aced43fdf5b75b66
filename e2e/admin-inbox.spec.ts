import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { leadPaths } from '../api/contract/paths';
import { conversationPane, expectNoSidewaysScroll, leadPayloads, newChatSessionId, postLead, signIn, uniqueName } from './support/admin';

const chromeOnWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const shots = 'test-results/screenshots';

/** The value under a term of the visitor's context beside the conversation. */
function contextValue(page: Page, term: string) {
  return page.getByRole('region', { name: 'Visitor' }).locator('dt', { hasText: term }).locator('+ dd');
}

test.describe('staff inbox on a desktop (1280 px)', () => {
  test("staff open a visitor's chat from the list, see where and when the visitor is, reply, and a reload shows the same conversation", async ({
    browser,
    page,
  }) => {
    test.setTimeout(45_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page);
    const visitorContext = await browser.newContext({ timezoneId: 'America/Chicago', userAgent: chromeOnWindows });
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    await visitor.goto('/about');
    await visitor.getByRole('button', { name: 'Open chat' }).click({ timeout: 10_000 });
    const question = `Do you list on CarGurus? ${Date.now()}`;
    const input = visitor.getByPlaceholder('Type your message...');
    await input.fill(question);
    await input.press('Enter');

    await page.getByRole('tab', { name: /Chat Messages/ }).click();
    const row = page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').filter({ hasText: question });
    await row.getByRole('button', { name: /View & Reply/ }).click();
    await expect(page).toHaveURL(/\/admin\/chats\/session_[\w-]+$/);
    const address = page.url();
    const pane = conversationPane(page);
    await expect(pane.getByText(question)).toBeVisible();
    // The list stays beside the conversation.
    await expect(row).toBeVisible();

    await expect(contextValue(page, 'Pages this visit')).toContainText('/about');
    await expect(contextValue(page, 'Local time')).toHaveText(/^\d{1,2}:\d{2} (AM|PM) C[SD]T \(America\/Chicago\)$/);
    await expect(contextValue(page, 'Browser and device')).toHaveText('Chrome 131 on Windows · Desktop');

    const answer = `Yes, every night. ${Date.now()}`;
    await pane.getByRole('textbox', { name: 'Reply' }).fill(answer);
    await pane.getByRole('textbox', { name: 'Reply' }).press('Enter');
    await expect(page.getByTestId('toast').getByText('Reply sent')).toBeVisible();
    await expect(visitor.getByText(answer)).toBeVisible();

    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: `${shots}/admin-inbox-desktop-1280.png` });
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.getByRole('button', { name: 'Visitor context' }).click();
    await page.screenshot({ path: `${shots}/admin-inbox-desktop-1100.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.reload();
    await expect(page).toHaveURL(address);
    await expect(conversationPane(page).getByText(question)).toBeVisible();
    await expect(conversationPane(page).locator('[data-from="support"]').filter({ hasText: answer })).toBeVisible();
    await visitorContext.close();
  });
});

test.describe('staff inbox on a phone (375 px)', () => {
  test('staff open a conversation, answer it and go back, and nothing scrolls sideways', async ({ browser, page }) => {
    test.setTimeout(45_000);
    await page.setViewportSize({ width: 375, height: 812 });
    const visitor = await browser.newContext();
    const sessionId = newChatSessionId();
    const question = `Can I text you photos of the lot? ${Date.now()}`;
    const sent = await visitor.request.post('/api/chat-message', {
      data: { sessionId, message: question, isFromUser: true, pageUrl: 'http://127.0.0.1/contact' },
    });
    expect(sent.status()).toBe(201);
    // A lead of each kind, so each tab shows its rows as cards.
    await postLead(visitor.request, leadPaths.contact.create, leadPayloads.contact(uniqueName('Phone Contact')));
    await postLead(visitor.request, leadPaths.support.create, leadPayloads.support(uniqueName('Phone Ticket')));
    await postLead(visitor.request, leadPaths.demo.create, leadPayloads.demo(uniqueName('Phone Demo')));
    await postLead(visitor.request, leadPaths['get-started'].create, leadPayloads.getStarted(uniqueName('Phone')));
    await visitor.close();

    await signIn(page);
    await expectNoSidewaysScroll(page);
    const chatTab = page.getByRole('tab', { name: /Chat Messages/ });
    await expect(chatTab.getByLabel(/\d+ unread/)).toBeInViewport();
    mkdirSync(shots, { recursive: true });
    for (const tab of ['Contact Forms', 'Support Tickets', 'Demo Requests', 'Get Started Requests']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('table', { name: tab }).getByRole('row').nth(1)).toBeVisible();
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: `${shots}/admin-phone-${tab.toLowerCase().replace(/ /g, '-')}.png` });
    }

    await chatTab.click();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${shots}/admin-phone-chat-list.png` });
    await page.getByRole('button', { name: `View & Reply to chat ${sessionId.slice(-8)}` }).click();
    const pane = conversationPane(page);
    await expect(pane.getByText(question)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Chat Messages' })).toBeHidden();
    await expectNoSidewaysScroll(page);

    const answer = `Yes, send them here. ${Date.now()}`;
    await pane.getByRole('textbox', { name: 'Reply' }).fill(answer);
    await pane.getByRole('button', { name: 'Send' }).click();
    await expect(pane.locator('[data-from="support"]').filter({ hasText: answer })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${shots}/admin-phone-chat-open.png` });

    await pane.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/admin\?tab=chat$/);
    await expect(page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').filter({ hasText: answer })).toBeVisible();
    await expect(chatTab).toBeInViewport();
    await expectNoSidewaysScroll(page);
  });
});
