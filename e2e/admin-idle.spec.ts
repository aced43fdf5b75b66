import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { leadPayloads, newChatSessionId, postLead, signIn, staff, startOwnServer, uniqueName, conversationPane } from './support/admin';

/** Lets the dialog's opening animation finish, so a screenshot shows it as staff see it. */
async function settled(page: Page, name: string): Promise<void> {
  await page.getByRole('alertdialog', { name }).evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished)));
}

test.describe('"Still there?" before the idle limit', () => {
  test('Stay signed in keeps the staff session alive on the server past the moment its idle limit would have ended it', async ({ page, playwright }) => {
    test.setTimeout(90_000);
    // 0.5 minutes = 30 s on a server of this test's own: the dialog opens in the last sixth, 5 s before the end.
    const idleMs = 30_000;
    const server = await startOwnServer({ STAFF_IDLE_MINUTES: '0.5' });
    try {
      const staffCalls: { at: number; call: string }[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/')) staffCalls.push({ at: Date.now(), call: `${request.method()} ${url.pathname}` });
      });
      await page.setViewportSize({ width: 1280, height: 900 });
      await signIn(page, server.baseURL);
      // The control: a staff session signed in at the same time that makes no request until the end.
      const idleControl = await playwright.request.newContext({ baseURL: server.baseURL });
      expect((await idleControl.post('/api/admin-login', { data: { username: staff.email, password: staff.password } })).ok()).toBe(true);
      const controlSignedInAt = Date.now();
      // No mouse, key, scroll or touch from here on: only the dialog's answer.
      const dialog = page.getByRole('alertdialog', { name: 'Still there?' });
      await expect(dialog).toBeVisible({ timeout: idleMs });
      await expect(dialog.getByTestId('idle-warning-countdown')).toHaveText(/^0:0[0-5]$/);
      await expect(dialog.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
      const lastCallBefore = staffCalls[staffCalls.length - 1]!.at;
      const callsBefore = staffCalls.length;

      const touched = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/session');
      await dialog.getByRole('button', { name: 'Stay signed in' }).click();
      expect((await (await touched).json()).admin).toMatchObject({ email: staff.email });
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId('session-countdown')).toHaveText(/^0:(30|29|28)$/);

      // Past the end the server's idle clock had before the click (its sweep would have closed the socket by now).
      await page.waitForTimeout(Math.max(0, Math.max(lastCallBefore, controlSignedInAt) + idleMs + 3000 - Date.now()));
      expect((await (await idleControl.get('/api/session')).json()).admin).toBeNull();
      await idleControl.dispose();
      expect(staffCalls.slice(callsBefore).map((entry) => entry.call)).toEqual(['GET /api/session']);
      await expect(page.getByTestId('toast').getByText('Session expired')).toHaveCount(0);
      const session = await page.request.get(`${server.baseURL}/api/session`);
      expect((await session.json()).admin).toMatchObject({ email: staff.email });

      // The dashboard still works, live: a new lead arrives over the staff socket.
      const name = uniqueName('Still Here');
      await postLead(page.request, `${server.baseURL}/api/contact-submission`, leadPayloads.contact(name));
      await expect(page.getByRole('table', { name: 'Contact Forms' }).getByRole('row').nth(1)).toContainText(name);
    } finally {
      await server.stop();
    }
  });

  test('opens a minute before the 10-minute limit (browser clock fast-forwarded), at 1280 and 375 px', async ({ page }) => {
    await page.clock.install();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page);
    // Before the jump: the welcome toast would otherwise sit over the screenshots.
    await page.getByRole('button', { name: 'Close notification' }).click();
    await page.clock.fastForward('09:00');
    const dialog = page.getByRole('alertdialog', { name: 'Still there?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(/Your session ends in (1:00|0:5\d)/);
    await expect(page.getByTestId('session-countdown')).toHaveText(/^(1:00|0:5\d)$/);
    // The jump also ran out the socket's heartbeat timer: it reconnects, and the "paused" notice goes.
    await expect(page.getByText('Live updates paused')).toHaveCount(0, { timeout: 15_000 });
    mkdirSync('test-results/screenshots', { recursive: true });
    await settled(page, 'Still there?');
    await page.screenshot({ path: 'test-results/screenshots/admin-idle-warning-desktop.png' });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: 'test-results/screenshots/admin-idle-warning-phone.png' });
    const stay = dialog.getByRole('button', { name: 'Stay signed in' });
    const signOut = dialog.getByRole('button', { name: 'Sign out' });
    // Nothing scrolls sideways at phone width, and both answers are in view.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expect(stay).toBeInViewport();
    await expect(signOut).toBeInViewport();

    // A click on the backdrop is no answer.
    await page.mouse.click(5, 5);
    await expect(dialog).toBeVisible();
    const touched = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/session');
    await stay.click();
    await touched;
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('session-countdown')).toHaveText(/^(10:00|9:59)$/);
  });
});

test.describe('reply drafts', () => {
  test('each conversation keeps its own unsent reply, found again after Logout and signing back in, and gone once sent', async ({ browser, page }) => {
    const visitor = await browser.newContext();
    const conversations = [newChatSessionId(), newChatSessionId()];
    for (const [index, sessionId] of conversations.entries()) {
      const sent = await visitor.request.post('/api/chat-message', { data: { sessionId, message: `Question ${index + 1} about the Starter plan`, isFromUser: true } });
      expect(sent.status()).toBe(201);
    }
    await visitor.close();
    const [first, second] = conversations as [string, string];

    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page);
    await page.getByRole('tab', { name: /Chat Messages/ }).click();
    const pane = conversationPane(page);
    const replyBox = pane.getByRole('textbox', { name: 'Reply' });
    const open = async (sessionId: string) => {
      await page.getByRole('button', { name: `View & Reply to chat ${sessionId.slice(-8)}` }).click();
      await expect(pane).toBeVisible();
    };
    const close = async () => {
      await pane.getByRole('button', { name: 'Close' }).click();
      await expect(pane).toBeHidden();
    };

    await open(first);
    await replyBox.fill('The Starter plan covers up to 50 cars');
    await close();
    await open(second);
    await expect(replyBox).toHaveValue('');
    await replyBox.fill('Setup takes about a week');
    await close();
    await open(first);
    await expect(replyBox).toHaveValue('The Starter plan covers up to 50 cars');
    await close();

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await signIn(page);
    await page.getByRole('tab', { name: /Chat Messages/ }).click();
    await open(second);
    await expect(replyBox).toHaveValue('Setup takes about a week');
    await close();
    await open(first);
    await expect(replyBox).toHaveValue('The Starter plan covers up to 50 cars');
    await pane.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('toast').getByText('Reply sent')).toBeVisible();
    await expect(replyBox).toHaveValue('');
    await close();

    await page.reload();
    await page.getByRole('tab', { name: /Chat Messages/ }).click();
    await open(first);
    await expect(replyBox).toHaveValue('');
    await close();
    await open(second);
    await expect(replyBox).toHaveValue('Setup takes about a week');
  });
});
