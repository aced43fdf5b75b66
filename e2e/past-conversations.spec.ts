import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { conversationPane, signIn } from './support/admin';

const shots = process.env.SHOTS_DIR ?? 'test-results/screenshots/resync';

/** The visitor's widget panel, opened. */
async function openWidget(visitor: Page) {
  await visitor.getByRole('button', { name: /^Open chat/ }).click({ timeout: 10_000 });
  const panel = visitor.getByRole('dialog', { name: 'Chat With Us' });
  await expect(panel).toBeVisible();
  return panel;
}

async function say(visitor: Page, text: string) {
  const input = visitor.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
}

/** Both widths the widget is looked at: a phone and a desktop. */
async function shootWidget(visitor: Page, name: string) {
  mkdirSync(shots, { recursive: true });
  for (const width of [375, 1280]) {
    await visitor.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    // The panel's opening animation and the list's smooth scroll settle first.
    await visitor.waitForTimeout(400);
    await visitor.screenshot({ path: `${shots}/${name}-${width}.png` });
  }
  await visitor.setViewportSize({ width: 1280, height: 800 });
}

test('a returning visitor sees the earlier conversation, starts a new one, and writing to the old one reopens it', async ({ browser, page }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  const question = `Do you handle inventory feeds? ${stamp}`;
  const answer = `Yes, all the major ones. ${stamp}`;

  // Staff are online (with nobody online the widget offers the leave-a-message form instead).
  await signIn(page);
  await page.getByRole('tab', { name: /Chat Messages/ }).click();

  // A visitor asks; staff answer and resolve it.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto('/');
  let panel = await openWidget(visitor);
  await expect(panel.getByText('Online now')).toBeVisible();
  await say(visitor, question);
  await expect(panel.getByRole('log').getByText(question)).toBeVisible();
  const table = page.getByRole('table', { name: 'Chat Messages' });
  const firstSessionId = await visitor.evaluate(() => localStorage.getItem('chatSessionId'));
  // The row by its session: its last message changes as the conversation goes on.
  const firstRow = table.locator(`[data-row-key="${firstSessionId}"]`);
  await firstRow.getByRole('button', { name: /View & Reply/ }).click();
  const pane = conversationPane(page);
  await pane.getByRole('textbox', { name: 'Reply' }).fill(answer);
  await pane.getByRole('button', { name: 'Send' }).click();
  await expect(panel.getByText(answer)).toBeVisible();
  await firstRow.getByRole('combobox', { name: /Status of chat/ }).selectOption('resolved');
  // The visitor's open widget is told at once.
  await expect(panel.getByRole('status')).toContainText('This conversation is closed');

  // The visitor comes back later: the conversation is there, closed, and listed.
  await visitor.reload();
  panel = await openWidget(visitor);
  await expect(panel.getByText(answer)).toBeVisible();
  await expect(panel.getByRole('status')).toContainText('This conversation is closed');
  await shootWidget(visitor, 'closed-conversation');
  await panel.getByRole('button', { name: 'Your conversations' }).click();
  const list = panel.getByRole('list', { name: 'Your conversations' });
  await expect(list.getByRole('button')).toHaveCount(1);
  await expect(list.getByRole('button').first()).toContainText(answer);
  await expect(list.getByRole('button').first()).toContainText('Closed');
  await shootWidget(visitor, 'past-conversations-one');

  // A new conversation, once the last is closed.
  await panel.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(panel.getByText(question)).toHaveCount(0);
  const second = `And the photo service? ${stamp}`;
  await say(visitor, second);
  await expect(panel.getByText(second)).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: second })).toBeVisible();

  await panel.getByRole('button', { name: 'Your conversations' }).click();
  await expect(list.getByRole('button')).toHaveCount(2);
  await expect(list.getByRole('button').nth(0)).toContainText(second);
  await expect(list.getByRole('button').nth(0)).toContainText('Current');
  await expect(list.getByRole('button').nth(1)).toContainText('Closed');
  await shootWidget(visitor, 'past-conversations-two');

  // Back to the first: writing to it reopens it, for the visitor and for staff.
  await list.getByRole('button').nth(1).click();
  await expect(panel.getByText(question)).toBeVisible();
  await expect(panel.getByText(second)).toHaveCount(0);
  const again = `One more thing about feeds ${stamp}`;
  await say(visitor, again);
  await expect(panel.getByText(again)).toBeVisible();
  await expect(panel.getByRole('status')).toHaveCount(0);
  await expect(firstRow.getByRole('combobox', { name: /Status of chat/ })).toHaveValue('open');
  await expect(firstRow).toContainText(again);
  await shootWidget(visitor, 'reopened-conversation');

  await panel.getByRole('button', { name: 'Your conversations' }).click();
  await expect(list.getByRole('button').nth(0)).toContainText(again);
  await expect(list.getByRole('button').nth(0)).toContainText('Open');
  await visitorContext.close();
});
