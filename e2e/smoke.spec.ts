import { expect } from '@playwright/test';
import { test } from './support/test';

test('the home page renders in Chromium', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Lotwise home' }).first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('AI-powered dealer website');
});

test('an unknown route shows the 404 page, speaking to the visitor (DESIGN section 1)', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
  await expect(page.getByText("This page doesn't exist.", { exact: false })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toHaveCount(0);
});
