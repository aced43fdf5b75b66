import { expect, type Page } from '@playwright/test';
import { test, workerServer } from './support/test';
import { connectStaff } from './support/staff';

/**
 * The widget's availability states and the leave-a-message form, at phone (375) and desktop (1280)
 * width, saved for a person to look at (SHOTS_DIR, else test-results/screenshots/away/).
 */
const shotsDir = process.env.SHOTS_DIR ?? 'test-results/screenshots/away';
const tuesdayMorning = new Date('2026-11-24T16:00:00Z');
const sundayNoon = new Date('2026-11-22T18:00:00Z');

const widths = [
  { width: 375, height: 740 },
  { width: 1280, height: 800 },
] as const;

async function openWidget(page: Page, now: Date) {
  await page.clock.setFixedTime(now);
  await page.addInitScript(() => localStorage.setItem('lw_cookie_consent', JSON.stringify({ essential: true, analytics: false, functional: false, marketing: false, decidedAt: '2025-07-21T00:00:00Z' })));
  await page.goto('/');
  await page.getByRole('button', { name: /^Open chat/ }).click({ timeout: 10_000 });
  const chat = page.getByRole('dialog', { name: 'Chat With Us' });
  await expect(chat).toBeVisible();
  return chat;
}

for (const { width, height } of widths) {
  test.describe(`away states at ${width}px`, () => {
    test.use({ viewport: { width, height }, timezoneId: 'America/Los_Angeles', reducedMotion: 'reduce' });

    test('online', async ({ page, request }) => {
      const staff = await connectStaff(request, workerServer().baseURL);
      try {
        const chat = await openWidget(page, sundayNoon);
        await expect(chat.getByText('Online now')).toBeVisible();
        await page.screenshot({ path: `${shotsDir}/online-${width}.png` });
      } finally {
        staff.disconnect();
      }
    });

    test('open, nobody online: the form', async ({ page }) => {
      const chat = await openWidget(page, tuesdayMorning);
      await expect(chat.getByText('We usually reply within a few minutes')).toBeVisible();
      await page.screenshot({ path: `${shotsDir}/open-nobody-online-${width}.png` });
    });

    test('away, the form checked, then sent', async ({ page }) => {
      const chat = await openWidget(page, sundayNoon);
      await expect(chat.getByText(/We're away\. Back/)).toBeVisible();
      await page.screenshot({ path: `${shotsDir}/away-${width}.png` });

      await chat.getByRole('textbox', { name: 'Email', exact: true }).fill('pat@');
      await chat.getByRole('button', { name: 'Send message' }).click();
      await expect(chat.getByText('Please enter your name')).toBeVisible();
      await page.screenshot({ path: `${shotsDir}/form-errors-${width}.png` });

      await chat.getByRole('textbox', { name: 'Name', exact: true }).fill('Patricia Gonzalez-Whitfield');
      await chat.getByRole('textbox', { name: 'Email', exact: true }).fill('patricia.gonzalez-whitfield@whitfield-family-motors.example');
      await chat.getByRole('textbox', { name: 'Message', exact: true }).fill('Do you integrate with DealerCenter? We list about 120 cars and want them on CarGurus too.');
      await page.screenshot({ path: `${shotsDir}/form-filled-${width}.png` });
      await chat.getByRole('button', { name: 'Send message' }).click();
      await expect(chat.getByRole('status')).toBeVisible();
      await page.screenshot({ path: `${shotsDir}/confirmation-${width}.png` });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  });
}
