import { expect, test } from '@playwright/test';

test('the home page renders in Chromium', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Lotwise');
});

test('an unknown route shows the 404 page', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
});
