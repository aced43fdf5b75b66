import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { ChatSessionSummary } from '../api/contract/chat';
import { createDealer } from './support/dealer';
import { loginCookie } from './support/staff';
import { test, workerServer } from './support/test';

/** The reset link from the newest mail to `email` in the outbox (quoted-printable undone). */
function resetLinkFor(email: string): string | undefined {
  const outbox = join(workerServer().dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(outbox).filter((name) => name.endsWith('.eml'));
  } catch {
    return undefined;
  }
  const mails = files
    .map((name) => join(outbox, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    .map((path) => readFileSync(path, 'utf8').replace(/=\r?\n/g, '').replace(/=3D/gi, '='));
  const mail = mails.find((text) => text.includes(email));
  return mail?.match(/https?:\/\/[^\s"<>]+\/reset-password\?token=[A-Za-z0-9_.-]+/)?.[0];
}

async function dismissCookieBanner(page: Page) {
  await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Reject non-essential' }).click();
}

async function signIn(page: Page, username: string, password: string) {
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

const toast = (page: Page) => page.getByTestId('toast');
const stamp = Date.now().toString(36);

test('the dashboard sends a visitor without a dealer session to the login page', async ({ page }) => {
  await page.goto('/dealer-dashboard');
  await expect(page).toHaveURL(/\/dealer-login$/);
  await expect(page.getByRole('heading', { name: 'Dealer Login' })).toBeVisible();
});

test('a wrong password is refused; the right one opens the dashboard, and LOGOUT ends the session', async ({ page }) => {
  const username = `sunset-${stamp}`;
  createDealer(username, `owner-${stamp}@sunset.example`, 'correct-horse-battery');

  await page.goto('/dealer-login');
  await dismissCookieBanner(page);
  await expect(page.getByRole('heading', { name: 'Need Help?' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Inventory Control' })).toBeVisible();

  await signIn(page, username, 'wrong-password');
  await expect(toast(page).getByText('Login failed')).toBeVisible();
  await expect(toast(page).getByText('Invalid username or password')).toBeVisible();
  await expect(page).toHaveURL(/\/dealer-login$/);

  await page.getByLabel(/^Password/).fill('correct-horse-battery');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(toast(page).getByText('Login successful!')).toBeVisible();
  await expect(page).toHaveURL(/\/dealer-dashboard$/);
  await expect(page.getByText('Total Inventory')).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByTestId('dealer-username')).toHaveText(username);

  await page.getByRole('tab', { name: 'INVENTORY' }).click();
  await expect(page.getByRole('button', { name: 'Add Vehicle' })).toBeVisible();
  await page.getByRole('tab', { name: 'LEADS' }).click();
  await expect(page.getByRole('button', { name: 'Export Leads' })).toBeVisible();

  // The session survives a reload.
  await page.reload();
  await expect(page.getByText('Total Inventory')).toBeVisible();

  await page.getByRole('button', { name: 'LOGOUT' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/dealer-dashboard');
  await expect(page).toHaveURL(/\/dealer-login$/);
});

test('signing in with the email address works too', async ({ page }) => {
  const email = `manager-${stamp}@lakeside.example`;
  createDealer(`lakeside-${stamp}`, email, 'lakeside-password-1');
  await page.goto('/dealer-login');
  await dismissCookieBanner(page);
  await signIn(page, email, 'lakeside-password-1');
  await expect(page).toHaveURL(/\/dealer-dashboard$/);
});

test('forgot password mails a link that sets a new password', async ({ page }) => {
  const username = `hillcountry-${stamp}`;
  const email = `owner-${stamp}@hillcountry.example`;
  createDealer(username, email, 'old-password-123');

  await page.goto('/dealer-login');
  await dismissCookieBanner(page);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(toast(page).getByText('If there is an account associated with that email, then a reset link has been sent')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dealer Login' })).toBeVisible();

  await expect.poll(() => resetLinkFor(email), { timeout: 10_000 }).toBeTruthy();
  const link = new URL(resetLinkFor(email)!);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Choose a New Password' })).toBeVisible();
  await page.getByLabel(/^New Password/).fill('new-password-456');
  await page.getByLabel('Confirm New Password').fill('new-password-456');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page).toHaveURL(/\/dealer-login$/);

  await signIn(page, username, 'old-password-123');
  await expect(toast(page).getByText('Invalid username or password')).toBeVisible();
  await page.getByLabel(/^Password/).fill('new-password-456');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dealer-dashboard$/);

  // The link works once.
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByLabel(/^New Password/).fill('another-password-789');
  await page.getByLabel('Confirm New Password').fill('another-password-789');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(toast(page).getByText('Error')).toBeVisible();
  await expect(page).toHaveURL(/\/reset-password/);
});

test('the reset page takes the token out of the address, keeps it from the chat, and still sets the password with it', async ({ page, request }) => {
  const username = `pinecrest-${stamp}`;
  const email = `owner-${stamp}@pinecrest.example`;
  createDealer(username, email, 'old-password-123');
  expect((await request.post('/api/forgot-password', { data: { email } })).ok()).toBe(true);
  await expect.poll(() => resetLinkFor(email), { timeout: 10_000 }).toBeTruthy();
  const link = new URL(resetLinkFor(email)!);
  const token = link.searchParams.get('token')!;

  await page.goto(`${link.pathname}${link.search}`);
  await dismissCookieBanner(page);
  await expect(page.getByRole('heading', { name: 'Choose a New Password' })).toBeVisible();
  await expect(page).toHaveURL(`${workerServer().baseURL}/reset-password`);
  expect(page.url()).not.toContain(token);

  // The chat widget (shown after 2 s) tells staff the page without the token.
  await page.getByRole('button', { name: /^Open chat/ }).click({ timeout: 10_000 });
  // Nobody is online: the widget offers the leave-a-message form.
  const chat = page.getByRole('dialog', { name: 'Chat With Us' });
  await chat.getByRole('textbox', { name: 'Name', exact: true }).fill('Pinecrest owner');
  await chat.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await chat.getByRole('textbox', { name: 'Message', exact: true }).fill('My reset link, is it safe?');
  await chat.getByRole('button', { name: 'Send message' }).click();
  await expect(chat.getByRole('status')).toContainText('Thanks, Pinecrest owner.');
  const sessionId = await page.evaluate(() => localStorage.getItem('chatSessionId'));
  const cookie = await loginCookie(request);
  const storedSession = async () => {
    const sessions = (await (await request.get('/api/chat-sessions', { headers: { cookie } })).json()) as ChatSessionSummary[];
    return sessions.find((session) => session.id === sessionId);
  };
  await expect.poll(async () => (await storedSession())?.lastMessage).toBe('My reset link, is it safe?');
  expect((await storedSession())?.pageUrl).toBe(`${workerServer().baseURL}/reset-password`);
  expect(JSON.stringify(await storedSession())).not.toContain(token);
  await page.getByRole('button', { name: 'Close chat' }).click();

  // The token the address no longer holds still sets the password.
  await page.getByLabel(/^New Password/).fill('new-password-456');
  await page.getByLabel('Confirm New Password').fill('new-password-456');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page).toHaveURL(/\/dealer-login$/);
  await expect(page.getByRole('heading', { name: 'Dealer Login' })).toBeVisible();
  // Back shows the reset page without the token: the entry was replaced, not pushed.
  await page.goBack();
  await expect(page).toHaveURL(`${workerServer().baseURL}/reset-password`);
  await expect(page.getByText('This reset link is invalid or has expired.', { exact: false })).toBeVisible();

  await page.goto('/dealer-login');
  await signIn(page, username, 'new-password-456');
  await expect(page).toHaveURL(/\/dealer-dashboard$/);
});

test('a reload of the reset page once the token left the address says the link is invalid', async ({ page }) => {
  await page.goto('/reset-password?token=not-a-real-token-but-long-enough-000000000');
  await expect(page).toHaveURL(`${workerServer().baseURL}/reset-password`);
  await expect(page.getByRole('heading', { name: 'Choose a New Password' })).toBeVisible();
  await page.reload();
  await expect(page.getByText('This reset link is invalid or has expired.', { exact: false })).toBeVisible();
});

test('a reset page without a token says the link is invalid', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByText('This reset link is invalid or has expired.', { exact: false })).toBeVisible();
});

test('the simple test page reports with browser alerts', async ({ page }) => {
  const username = `simple-${stamp}`;
  createDealer(username, `simple-${stamp}@example.com`, 'simple-password-1');
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await page.goto('/simple-test');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('nope-nope');
  await page.getByRole('button', { name: 'Test Login' }).click();
  await expect.poll(() => alerts).toEqual(['Login failed: Invalid username or password']);

  await page.getByLabel('Password').fill('simple-password-1');
  await page.getByRole('button', { name: 'Test Login' }).click();
  await expect(page).toHaveURL(/\/dealer-dashboard$/);
  expect(alerts).toEqual(['Login failed: Invalid username or password', 'Login successful!']);
});
