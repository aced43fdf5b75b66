import { mkdirSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from './support/test';
import { countOf, leadPayloads, postLead, signIn, staff, startOwnServer, uniqueName } from './support/admin';

test.describe('staff dashboard: sign-in, leads, session', () => {
  test('a wrong password says Login failed and keeps the sign-in card', async ({ page }) => {
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await page.getByLabel('Email').fill(staff.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('toast').getByText('Login failed')).toBeVisible();
    await expect(page.getByTestId('toast').getByText('Please check your credentials and try again.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('adminAuthenticated'))).toBeNull();
  });

  test('signing in shows the welcome toast, the countdown and the lists, and a reload keeps the staff member in', async ({ page }) => {
    await page.goto('/admin');
    await page.getByLabel('Email').fill(staff.email);
    await page.getByLabel('Password').fill(staff.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('toast').getByText('Login successful')).toBeVisible();
    await expect(page.getByTestId('toast').getByText('Welcome to the admin dashboard.')).toBeVisible();
    await expect(page.getByTestId('session-countdown')).toHaveText(/^(10:00|9:5\d)$/);
    for (const tab of ['Contact Forms', 'Support Tickets', 'Demo Requests', 'Get Started Requests', 'Chat Messages']) {
      await expect(page.getByRole('tab', { name: tab })).toBeVisible();
    }
    expect(await page.evaluate(() => localStorage.getItem('adminAuthenticated'))).toBe('true');

    await page.reload();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In' })).toHaveCount(0);
  });

  test('a new submission appears at the top of its tab and its count changes, without a reload', async ({ page, request }) => {
    await signIn(page);
    await page.getByRole('tab', { name: 'Support Tickets' }).click();
    const before = await countOf(page, 'support');
    const name = uniqueName('Live Ticket');
    await postLead(request, '/api/support-ticket', leadPayloads.support(name, 'urgent'));
    const table = page.getByRole('table', { name: 'Support Tickets' });
    await expect(table.getByRole('row').nth(1)).toContainText(name);
    await expect(table.getByRole('row').nth(1).getByText('Urgent')).toBeVisible();
    await expect(page.getByTestId('count-support').locator('[data-figure]')).toHaveText(String(before + 1));
  });

  test('a status change and a note made by one staff member show on another staff screen', async ({ browser, page, request }) => {
    const name = uniqueName('Shared Lead');
    await postLead(request, '/api/contact-submission', leadPayloads.contact(name));
    await signIn(page);
    const otherContext = await browser.newContext();
    const other = await otherContext.newPage();
    await signIn(other);

    await page.getByRole('combobox', { name: `Status of ${name}` }).selectOption('contacted');
    await expect(other.getByRole('combobox', { name: `Status of ${name}` })).toHaveValue('contacted');

    const note = page.getByRole('textbox', { name: `Note for ${name}` });
    await note.fill('Called back, demo on Friday');
    await note.press('Enter');
    await expect(other.getByRole('textbox', { name: `Note for ${name}` })).toHaveValue('Called back, demo on Friday');

    // Saved on the server: a fresh load shows it too.
    await other.reload();
    await expect(other.getByRole('combobox', { name: `Status of ${name}` })).toHaveValue('contacted');
    await otherContext.close();
  });

  test('search asks the server and the CSV link exports what the tab shows', async ({ page, request }) => {
    const name = uniqueName('Findable');
    await postLead(request, '/api/demo-request', leadPayloads.demo(name));
    await signIn(page);
    await page.getByRole('tab', { name: 'Demo Requests' }).click();
    const search = page.getByRole('searchbox', { name: 'Search Demo Requests' });
    const answered = page.waitForResponse((response) => response.url().includes('/api/demo-requests?') && response.url().includes('q='));
    await search.fill(name);
    await answered;
    const table = page.getByRole('table', { name: 'Demo Requests' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('row').nth(1)).toContainText(name);
    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(href).toContain('format=csv');
    const csv = await page.request.get(href!);
    expect(csv.status()).toBe(200);
    const body = await csv.text();
    expect(body).toContain(name);
    expect(body.trim().split('\n')).toHaveLength(2);
  });

  test('Logout returns to the sign-in card and the server forgets the staff session', async ({ page }) => {
    await signIn(page);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    const session = await page.request.get('/api/session');
    expect((await session.json()).admin).toBeNull();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    expect((await page.request.get('/api/contact-submissions')).status()).toBe(401);
  });

  test('screenshots at desktop, tablet and phone width', async ({ page, request }) => {
    await postLead(request, '/api/contact-submission', leadPayloads.contact(uniqueName('Jane Doe')));
    for (const priority of ['low', 'medium', 'high', 'urgent']) {
      await postLead(request, '/api/support-ticket', leadPayloads.support(uniqueName(`Ticket ${priority}`), priority));
    }
    await postLead(request, '/api/get-started-request', leadPayloads.getStarted(uniqueName('Ava')));
    mkdirSync('test-results/screenshots', { recursive: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/admin-sign-in-phone.png' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Password is required')).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/admin-sign-in-desktop.png' });
    await signIn(page);
    await page.getByRole('tab', { name: 'Support Tickets' }).click();
    await expect(page.getByRole('table', { name: 'Support Tickets' }).getByRole('row').nth(1)).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/admin-desktop.png' });
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.getByRole('tab', { name: 'Get Started Requests' }).click();
    await expect(page.getByRole('table', { name: 'Get Started Requests' }).getByRole('row').nth(1)).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/admin-tablet.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: 'test-results/screenshots/admin-phone.png', fullPage: true });
  });
});

test.describe('idle expiry with a shortened limit', () => {
  test('a staff member idle past STAFF_IDLE_MINUTES is logged out with the Session expired toast', async ({ page }) => {
    test.setTimeout(60_000);
    // 0.05 minutes = 3 s, set through configuration on a server of this test's own.
    const server = await startOwnServer({ STAFF_IDLE_MINUTES: '0.05' });
    try {
      await signIn(page, server.baseURL);
      await expect(page.getByTestId('session-countdown')).toHaveText(/^0:0[0-3]$/);
      // No mouse, key, scroll or touch from here on.
      await expect(page.getByTestId('toast').getByText('Session expired')).toBeVisible({ timeout: 15_000 });
      await expect(page.getByTestId('toast').getByText("You've been logged out due to inactivity.")).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
      expect(await page.evaluate(() => localStorage.getItem('adminAuthenticated'))).toBeNull();
      const session = await page.request.get(`${server.baseURL}/api/session`);
      expect((await session.json()).admin).toBeNull();
      await page.reload();
      await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    } finally {
      await server.stop();
    }
  });
});
