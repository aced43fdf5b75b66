import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { readOutbox } from '../test/support/outbox';
import { conversationPane, signIn } from './support/admin';
import { test, workerServer } from './support/test';

/** Where the Team and Audit log screenshots go, for a person to look at (SHOTS_DIR, else test-results/screenshots/team/). */
const shotsDir = process.env.SHOTS_DIR ?? 'test-results/screenshots/team';

/** The set-password link of the newest invite mailed to `email`. */
async function inviteLinkFor(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const mail = (await readOutbox(workerServer().dataDir)).filter((each) => each.headers.to === email).at(-1);
      link = /https?:\/\/\S+\/admin\/join\?token=[A-Za-z0-9_.%-]+/.exec(mail?.text ?? '')?.[0];
      return link;
    })
    .toBeTruthy();
  return link!;
}

function dashboardNav(page: Page) {
  return page.getByRole('navigation', { name: 'Dashboard' });
}

test('an admin invites a member, who sets a password, signs in as an agent without a Team link, and is signed out at once when deactivated', async ({
  page,
  browser,
}) => {
  const email = `agent-${Date.now().toString(36)}@lotwise.example`;
  const password = 'a-long-agent-password-7';
  await signIn(page);
  await dashboardNav(page).getByRole('link', { name: 'Team' }).click();
  await expect(page).toHaveURL(/\/admin\/team$/);
  await page.getByLabel('Email', { exact: false }).first().fill(email);
  await page.getByLabel('Display name').fill('Dana Reyes');
  await page.getByLabel('Role', { exact: true }).selectOption('agent');
  await page.getByRole('button', { name: 'Send invite' }).click();
  await expect(page.getByRole('list', { name: 'Invites waiting' }).getByText(email)).toBeVisible();

  const link = await inviteLinkFor(email);
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await member.goto(link);
  // The token leaves the address at once.
  await expect(member).toHaveURL(/\/admin\/join$/);
  await expect(member.getByText('Welcome, Dana Reyes.')).toBeVisible();
  await member.getByLabel('Password', { exact: true }).fill(password);
  await member.getByLabel('Confirm password').fill(password);
  await member.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(member.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(member).toHaveURL(/\/admin$/);

  // Signed out, then in again with the password chosen: an agent, with no Team link.
  await member.getByRole('button', { name: 'Logout' }).click();
  await member.getByLabel('Email').fill(email);
  await member.getByLabel('Password').fill(password);
  await member.getByRole('button', { name: 'Sign In' }).click();
  await expect(member.getByTestId('own-display-name')).toHaveText('Dana Reyes');
  await expect(member.getByTestId('own-role')).toHaveText('Agent');
  await expect(dashboardNav(member).getByRole('link')).toHaveText(['Inbox', 'Reports', 'Canned replies']);
  await expect(dashboardNav(member).getByRole('link', { name: 'Team' })).toHaveCount(0);
  // The link is spent.
  const again = await browser.newPage();
  await again.goto(link);
  await expect(again.getByRole('alert')).toContainText('This invite link is invalid, used or expired');
  await again.close();

  // The admin sees the new member, and deactivates them: their open dashboard signs out at once.
  await page.reload();
  const row = page.getByTestId('team-member').filter({ hasText: email });
  await expect(row.getByLabel('Role of Dana Reyes')).toHaveValue('agent');
  await row.getByRole('button', { name: 'Deactivate Dana Reyes' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(row.getByText('Deactivated')).toBeVisible();
  await expect(member.getByRole('button', { name: 'Sign In' })).toBeVisible({ timeout: 5_000 });
  await member.getByLabel('Email').fill(email);
  await member.getByLabel('Password').fill(password);
  await member.getByRole('button', { name: 'Sign In' }).click();
  await expect(member.getByTestId('toast').getByText('This account has been deactivated. Ask an admin of your team to reactivate it.')).toBeVisible();
  await memberContext.close();

  // The audit log names who did it.
  await dashboardNav(page).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByTestId('audit-entry').first()).toBeVisible();
  await expect(page.getByTestId('audit-entry').filter({ hasText: 'Deactivated a team member: Dana Reyes' })).toHaveCount(1);
});

for (const width of [375, 1280]) {
  test(`Team and Audit log at ${width} px: nothing scrolls sideways`, async ({ page }) => {
    mkdirSync(shotsDir, { recursive: true });
    await page.setViewportSize({ width, height: 900 });
    await signIn(page);
    await page.goto('/admin/team');
    await expect(page.getByTestId('team-member').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${shotsDir}/team-${width}.png`, fullPage: true });
    await page.getByTestId('own-display-name').click();
    await expect(page.getByRole('dialog', { name: 'Your display name' })).toBeVisible();
    // The dialog's opening animation (180 ms) done, for the picture.
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${shotsDir}/own-name-${width}.png` });
    await page.keyboard.press('Escape');
    await dashboardNav(page).getByRole('link', { name: 'Audit log' }).click();
    await expect(page.getByTestId('audit-entry').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${shotsDir}/audit-${width}.png`, fullPage: true });
    await dashboardNav(page).getByRole('link', { name: 'Inbox' }).click();
    await expect(page.getByRole('tab', { name: /Chat Messages/ })).toBeVisible();
    await page.screenshot({ path: `${shotsDir}/inbox-header-${width}.png` });
  });
}

test('a reply shows the visitor the name its author chose: "Dana Ortega, Lotwise"', async ({ page, browser }) => {
  test.setTimeout(45_000);
  mkdirSync(shotsDir, { recursive: true });
  await signIn(page);
  await page.getByTestId('own-display-name').click();
  // A name of its own: display names are unique by look in the team, and another spec makes a "Dana".
  await page.getByRole('dialog').getByLabel('Display name').fill('Dana Ortega');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('own-display-name')).toHaveText('Dana Ortega');

  const visitorContext = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const visitor = await visitorContext.newPage();
  await visitor.goto('/');
  await visitor.getByRole('button', { name: 'Open chat' }).click({ timeout: 10_000 });
  const question = `Do you build sites for small lots? ${Date.now()}`;
  await visitor.getByPlaceholder('Type your message...').fill(question);
  await visitor.getByPlaceholder('Type your message...').press('Enter');

  await page.getByRole('tab', { name: /Chat Messages/ }).click();
  const row = page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').filter({ hasText: question });
  await row.getByRole('button', { name: /View & Reply/ }).click();
  const answer = `Yes, from ten cars up. ${Date.now()}`;
  await conversationPane(page).getByRole('textbox', { name: 'Reply' }).fill(answer);
  await conversationPane(page).getByRole('button', { name: 'Send' }).click();

  await expect(visitor.getByText(answer)).toBeVisible();
  await expect(visitor.getByText('Dana Ortega, Lotwise', { exact: true })).toBeVisible();
  // After a reload the history carries the name too.
  await visitor.reload();
  await visitor.getByRole('button', { name: 'Open chat' }).click({ timeout: 10_000 });
  await expect(visitor.getByText(answer)).toBeVisible();
  await expect(visitor.getByText('Dana Ortega, Lotwise', { exact: true })).toBeVisible();
  await visitor.screenshot({ path: `${shotsDir}/widget-signed-reply-375.png` });
  await visitorContext.close();
});
