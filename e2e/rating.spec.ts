import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { readOutbox } from '../test/support/outbox';
import { conversationPane, newChatSessionId, signIn } from './support/admin';
import { test, workerServer } from './support/test';

const shots = process.env.SHOTS_DIR ?? 'test-results/screenshots/rating';

/** Screenshots of the page at a phone's width and a desktop's. */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  // The cookie banner would cover what the picture is of.
  const banner = page.getByRole('button', { name: 'Reject non-essential' });
  if (await banner.isVisible()) await banner.click();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 860 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${shots}/${name}-${width}.png` });
  }
}

test.describe('rating a conversation', () => {
  test('staff resolve, the widget asks, the visitor rates bad with a comment, and staff see it', async ({ browser, page }) => {
    test.setTimeout(60_000);
    await signIn(page);
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    await visitor.getByRole('button', { name: 'Open chat' }).click({ timeout: 10_000 });
    const input = visitor.getByPlaceholder('Type your message...');
    const question = `Can you pull my inventory from vAuto? ${Date.now()}`;
    await input.fill(question);
    await input.press('Enter');

    await expect(visitor.getByText(question)).toBeVisible();
    const sessionId = await visitor.evaluate(() => localStorage.getItem('chatSessionId'));
    await page.getByRole('tab', { name: /Chat Messages/ }).click();
    // By its id: the row's last message changes with the reply.
    const row = page.getByRole('table', { name: 'Chat Messages' }).locator(`[data-row-key="${sessionId}"]`);
    await row.getByRole('button', { name: /View & Reply/ }).click();
    const pane = conversationPane(page);
    await pane.getByRole('textbox', { name: 'Reply' }).fill('Yes, vAuto is one of our feeds.');
    await pane.getByRole('button', { name: 'Send' }).click();
    await expect(visitor.getByText('Yes, vAuto is one of our feeds.')).toBeVisible();
    await row.getByRole('combobox', { name: /^Status of chat/ }).selectOption('resolved');

    // The ask is a job, due at once: pushed to the widget.
    await expect(visitor.getByText('How did we do?')).toBeVisible();
    await visitor.getByRole('button', { name: 'Bad' }).click();
    const comment = 'The answer was fine but it took a while.';
    await visitor.getByLabel('Anything to add? (optional)').fill(comment);
    await shoot(visitor, 'widget-prompt');
    await visitor.getByRole('button', { name: 'Send rating' }).click();
    await expect(visitor.getByRole('status').filter({ hasText: 'Thanks for telling us.' })).toBeVisible();
    await expect(visitor.getByText('How did we do?')).toHaveCount(0);
    await shoot(visitor, 'widget-thanks');

    await expect(row.getByLabel('Rated bad, with a comment')).toBeVisible();
    await expect(pane.getByTestId('conversation-rating')).toContainText('Visitor rated this chat bad');
    await expect(pane.getByTestId('conversation-rating')).toContainText(comment);
    await shoot(page, 'staff-rating');
    // The conversation alone (a phone shows it in place of the list).
    await page.setViewportSize({ width: 1280, height: 860 });
    await pane.screenshot({ path: `${shots}/staff-pane-1280.png` });
    // The inbox list on its own: the rating as a badge beside the session.
    await pane.getByRole('button', { name: 'Close' }).click();
    await expect(row.getByLabel('Rated bad, with a comment')).toBeVisible();
    await shoot(page, 'staff-list');
    await visitorContext.close();
  });

  test("a mailed link's confirm page records nothing until Send", async ({ page }) => {
    const sessionId = newChatSessionId();
    const email = `gone-${Date.now()}@dealer.example`;
    const sent = await page.request.post('/api/chat-message', { data: { sessionId, message: 'Please call me back', senderEmail: email } });
    expect(sent.status()).toBe(201);
    // Staff resolve it; the visitor has left, so the question goes by mail (a rating counts only once asked).
    await signIn(page);
    const resolved = await page.request.patch(`/api/chat-sessions/${sessionId}`, { data: { status: 'resolved' } });
    expect(resolved.status()).toBe(200);
    let link = '';
    await expect
      .poll(async () => {
        const mail = (await readOutbox(workerServer().dataDir)).find((each) => each.headers.to === email);
        // Its text part, quoted-printable undone (the mail has an HTML part beside it).
        const text = (mail?.text ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        link = /https?:\/\/[^\s"<>]+\/rate\?token=[A-Za-z0-9_.-]+&rating=good/.exec(text)?.[0] ?? '';
        return link;
      })
      .toBeTruthy();
    const token = new URL(link).searchParams.get('token')!;
    await page.goto(`${new URL(link).pathname}${new URL(link).search}`);
    await expect(page.getByRole('heading', { name: 'Rate Your Chat' })).toBeVisible();
    await expect(page).toHaveURL(/\/rate$/);
    await expect(page.getByRole('button', { name: 'Good' })).toHaveAttribute('aria-pressed', 'true');
    await shoot(page, 'link-confirm');
    await page.getByRole('button', { name: 'Send rating' }).click();
    await expect(page.getByRole('status')).toContainText('Thanks for your feedback!');
    await shoot(page, 'link-thanks');
    // Once given, final.
    const again = await page.request.post('/api/chat-rating-by-link', { data: { token, rating: 'bad' } });
    expect(again.status()).toBe(409);
  });
});
