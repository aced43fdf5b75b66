import { expect } from '@playwright/test';
import { test } from './support/test';
import { createDealer } from './support/dealer';

/**
 * Saves every public page at desktop (1280) and phone (390) width into test-results/screenshots/
 * for a person to look at. Each page must render its main heading first.
 */
const pages = [
  { path: '/', name: 'home' },
  { path: '/about', name: 'about' },
  { path: '/contact', name: 'contact' },
  { path: '/support', name: 'support' },
  { path: '/get-started', name: 'get-started' },
  { path: '/payment', name: 'payment' },
  { path: '/privacy-policy', name: 'privacy-policy' },
  { path: '/terms-of-service', name: 'terms-of-service' },
  { path: '/cookie-policy', name: 'cookie-policy' },
  { path: '/dealer-login', name: 'dealer-login' },
  { path: '/reset-password?token=abcdefghijklmnopqrstuvwxyz', name: 'reset-password' },
  { path: '/simple-test', name: 'simple-test' },
  { path: '/no-such-page', name: '404' },
] as const;

const widths = [
  { width: 1280, height: 800, label: 'desktop' },
  { width: 390, height: 844, label: 'phone' },
] as const;

for (const viewport of widths) {
  test.describe(`${viewport.label} screenshots`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    for (const { path, name } of pages) {
      test(`${name} at ${viewport.width}px`, async ({ page }) => {
        // The cookie banner is answered, so it does not cover the page (it has its own shot below).
        await page.addInitScript(() => localStorage.setItem('lw_cookie_consent', JSON.stringify({ essential: true, analytics: false, functional: false, marketing: false, decidedAt: '2025-07-21T00:00:00Z' })));
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.screenshot({ path: `test-results/screenshots/${name}-${viewport.label}.png`, fullPage: true });
        await page.screenshot({ path: `test-results/screenshots/${name}-${viewport.label}-fold.png` });
      });
    }
    test(`dealer dashboard tabs at ${viewport.width}px`, async ({ page }) => {
      const username = `shots-${viewport.label}-${Date.now().toString(36)}`;
      createDealer(username, `${username}@example.com`, 'screenshot-password-1');
      await page.addInitScript(() => localStorage.setItem('lw_cookie_consent', JSON.stringify({ essential: true, analytics: false, functional: false, marketing: false, decidedAt: '2025-07-21T00:00:00Z' })));
      await page.goto('/dealer-login');
      await page.getByLabel(/^Username or Email/).fill(username);
      await page.getByLabel(/^Password/).fill('screenshot-password-1');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page.getByText('Total Inventory')).toBeVisible();
      await page.screenshot({ path: `test-results/screenshots/dealer-dash-${viewport.label}.png`, fullPage: true });
      await page.getByRole('tab', { name: 'INVENTORY' }).click();
      await page.screenshot({ path: `test-results/screenshots/dealer-inventory-${viewport.label}.png`, fullPage: true });
      await page.getByRole('tab', { name: 'LEADS' }).click();
      await page.screenshot({ path: `test-results/screenshots/dealer-leads-${viewport.label}.png`, fullPage: true });
    });

    test(`cookie banner at ${viewport.width}px`, async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
      await page.screenshot({ path: `test-results/screenshots/cookie-banner-${viewport.label}.png` });
    });

    test(`open mobile menu and dialogs at ${viewport.width}px`, async ({ page }) => {
      await page.goto('/');
      await page.getByRole('button', { name: 'Accept all' }).click();
      if (viewport.width < 768) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.screenshot({ path: `test-results/screenshots/mobile-menu-${viewport.label}.png` });
        await page.getByRole('button', { name: 'Close menu' }).click();
      }
      await page.getByRole('button', { name: 'Request Demo' }).first().click();
      await expect(page.getByRole('dialog', { name: 'Request a Demo' })).toBeVisible();
      await page.getByRole('button', { name: 'Request Demo' }).last().click();
      await page.screenshot({ path: `test-results/screenshots/demo-dialog-errors-${viewport.label}.png` });
      await page.keyboard.press('Escape');
      await page.getByRole('contentinfo').getByRole('button', { name: 'Why AI?' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.screenshot({ path: `test-results/screenshots/why-ai-${viewport.label}.png` });
    });
  });
}
