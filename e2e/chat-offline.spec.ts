import { mkdirSync } from 'node:fs';
import { type BrowserContext, expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { conversationPane, newChatSessionId, signIn } from './support/admin';

/**
 * Issue 24 part 6: messages written offline wait in the widget and go, in order and once each, when
 * the connection returns, and staff see the same order; an invalid optional email is flagged and
 * never stops a message. Screenshots of both states at 375 and 1280 px (SHOTS_DIR, else
 * test-results/screenshots/widget/).
 */
const shotsDir = process.env.SHOTS_DIR ?? 'test-results/screenshots/widget';
const pendingText = 'Sends when you’re back online';
const tuesdayMorning = new Date('2026-11-24T16:00:00Z');

const widths = [
  { width: 375, height: 740 },
  { width: 1280, height: 800 },
] as const;

/** No cookie banner over the widget. */
async function consentGiven(context: BrowserContext) {
  await context.addInitScript(() =>
    localStorage.setItem('lw_cookie_consent', JSON.stringify({ essential: true, analytics: false, functional: false, marketing: false, decidedAt: '2025-07-21T00:00:00Z' })),
  );
}

async function openWidget(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: /^Open chat/ }).click({ timeout: 10_000 });
  const chat = page.getByRole('dialog', { name: 'Chat With Us' });
  await expect(chat).toBeVisible();
  return chat;
}

/** The texts of the visitor's own bubbles, top to bottom. */
function visitorBubbles(chat: ReturnType<Page['getByRole']>) {
  return chat.getByRole('log', { name: 'Chat messages' }).getByRole('listitem').filter({ hasText: /^You said:/ }).locator('p').allInnerTexts();
}

for (const { width, height } of widths) {
  test.describe(`widget at ${width}px`, () => {
    test.use({ viewport: { width, height }, reducedMotion: 'reduce' });

    test('an invalid optional email is flagged at its field and the message goes without it', async ({ browser }) => {
      mkdirSync(shotsDir, { recursive: true });
      const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
      await consentGiven(context);
      // A conversation already begun, nobody online, within the hours: the live chat asks for an email.
      const sessionId = newChatSessionId();
      await context.addInitScript((id) => localStorage.setItem('chatSessionId', id), sessionId);
      const started = await context.request.post('/api/chat-message', { data: { sessionId, message: 'Do you take trade-ins?', isFromUser: true } });
      expect(started.status()).toBe(201);
      const page = await context.newPage();
      await page.clock.setFixedTime(tuesdayMorning);
      const chat = await openWidget(page);
      await expect(chat.getByText('Do you take trade-ins?')).toBeVisible();

      const email = chat.getByLabel(/Your email/);
      await email.fill('pat@dealer');
      const input = chat.getByRole('textbox', { name: 'Message' });
      await input.fill('Please send me the price list');
      await chat.getByRole('button', { name: 'Send message' }).click();
      await expect(input).toHaveValue('');
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toHaveAccessibleDescription('Please enter a valid email address. Your messages still go, without it.');
      // Stored, and without the address: what the server holds has no email.
      await expect(chat.getByText('Please send me the price list')).toBeVisible();
      await expect
        .poll(async () => {
          const answer = await context.request.get(`/api/chat-visitor/sessions/${sessionId}?afterSeq=0`);
          const body = (await answer.json()) as { messages: { message: string; senderEmail: string | null }[] };
          return body.messages.map((message) => [message.message, message.senderEmail]);
        })
        .toEqual([
          ['Do you take trade-ins?', null],
          ['Please send me the price list', null],
        ]);
      await page.screenshot({ path: `${shotsDir}/email-flagged-${width}.png` });
      await context.close();
    });

    test('messages written offline wait, then arrive in order once each, and staff see the same order', async ({ browser, page }) => {
      test.setTimeout(60_000);
      mkdirSync(shotsDir, { recursive: true });
      await signIn(page);
      const visitorContext = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
      await consentGiven(visitorContext);
      const visitor = await visitorContext.newPage();
      let cut = false;
      const open: { close(): Promise<void> }[] = [];
      // Every Socket.IO connection of the visitor goes through here: going offline cuts it, as a dead network would.
      await visitor.routeWebSocket(/\/socket\.io\//, (ws) => {
        if (cut) return void ws.close();
        ws.connectToServer();
        open.push(ws);
      });

      const chat = await openWidget(visitor);
      await expect(chat.getByText('Online now')).toBeVisible();
      const input = chat.getByRole('textbox', { name: 'Message' });
      const stamp = Date.now().toString(36);
      const texts = [`Before going offline ${stamp}`, `Offline one ${stamp}`, `Offline two ${stamp}`, `Offline three ${stamp}`];
      await input.fill(texts[0]!);
      await input.press('Enter');
      await expect(chat.getByText(texts[0]!)).toBeVisible();
      await expect(chat.getByText('Sending…')).toHaveCount(0);

      await visitorContext.setOffline(true);
      cut = true;
      await Promise.all(open.splice(0).map((ws) => ws.close()));
      for (const text of texts.slice(1)) {
        await input.fill(text);
        await input.press('Enter');
      }
      await expect(chat.getByText(pendingText)).toHaveCount(3, { timeout: 10_000 });
      await visitor.screenshot({ path: `${shotsDir}/pending-${width}.png` });

      await visitorContext.setOffline(false);
      cut = false;
      await expect(chat.getByText(pendingText)).toHaveCount(0, { timeout: 15_000 });
      await expect(chat.getByText('Sending…')).toHaveCount(0);
      expect(await visitorBubbles(chat)).toEqual(texts);
      // Back on the socket: a reload's history has the same order, each message once.
      await visitor.reload();
      await visitor.getByRole('button', { name: /^Open chat/ }).click({ timeout: 10_000 });
      await expect(chat.getByText(texts[3]!)).toBeVisible();
      expect(await visitorBubbles(chat)).toEqual(texts);

      await page.getByRole('tab', { name: /Chat Messages/ }).click();
      const row = page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').filter({ hasText: texts[3]! });
      await row.getByRole('button', { name: /View & Reply/ }).click();
      const pane = conversationPane(page);
      await expect(pane.getByText(texts[3]!)).toBeVisible();
      expect(await pane.locator('[data-from="user"]').allInnerTexts()).toEqual(texts.map((text) => expect.stringContaining(text)));
      await visitorContext.close();
    });
  });
}
