import { expect, type Page } from '@playwright/test';
import { test } from './support/test';

/**
 * The prerendered public pages: readable with JavaScript off (what a crawler or a link preview sees),
 * and hydrated with JavaScript on without a mismatch or any other console error.
 */
const publicPages = [
  { path: '/', heading: 'The AI-powered dealer website that sells more cars' },
  { path: '/about', heading: 'Helping independent dealers win online' },
  { path: '/contact', heading: 'Contact Us', labels: ['Full Name', 'Email Address', 'Message'] },
  { path: '/support', heading: 'Support Center', labels: ['Subject'] },
  { path: '/get-started', heading: 'Launch your AI-powered dealer website', labels: ['Dealership Name', 'Email Address'] },
  { path: '/privacy-policy', heading: 'Privacy Policy' },
  { path: '/terms-of-service', heading: 'Terms of Service' },
  { path: '/cookie-policy', heading: 'Cookie Policy' },
] as const;

const storedConsent = JSON.stringify({ essential: true, analytics: false, functional: false, marketing: false, decidedAt: '2025-07-21T00:00:00Z' });

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  for (const { path, heading, ...rest } of publicPages) {
    test(`${path} has its content, links and form labels`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
      await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
      for (const label of 'labels' in rest ? rest.labels : []) {
        await expect(page.getByLabel(label, { exact: false }).first()).toBeAttached();
      }
      // The banner needs JavaScript to be answered, so it is not in the HTML.
      await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
    });
  }

  test('an unknown path answers 404 with the 404 page', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact');
  });
});

/** Console errors and warnings, and uncaught errors (React reports a hydration mismatch as one). */
function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

test.describe('with JavaScript on', () => {
  for (const { path, heading } of publicPages) {
    test(`${path} hydrates without a warning or an error`, async ({ page }) => {
      const problems = collectProblems(page);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      // The banner is rendered after hydration only: its arrival says React has taken the page over.
      const banner = page.getByRole('region', { name: 'Cookie consent' });
      await banner.getByRole('button', { name: 'Accept all' }).click();
      await expect(banner).toHaveCount(0);
      // The chat launcher mounts after its 2 s delay, outside the prerendered HTML.
      await expect(page.getByRole('button', { name: /^Open chat/ })).toBeVisible({ timeout: 10_000 });
      expect(problems).toEqual([]);
    });
  }

  test('a returning visitor (consent stored) hydrates without a mismatch and sees no banner', async ({ page }) => {
    await page.addInitScript((consent) => localStorage.setItem('lw_cookie_consent', consent), storedConsent);
    const problems = collectProblems(page);
    await page.goto('/');
    // The footer's link reopens the banner: it works once the page is hydrated.
    await page.getByRole('contentinfo').getByRole('button', { name: /cookie/i }).click();
    await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('the 404 page hydrates without an error beyond its own 404 status', async ({ page }) => {
    const problems = collectProblems(page);
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Back to home' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'The AI-powered dealer website that sells more cars' })).toBeVisible();
    await expect(page).toHaveTitle('Lotwise · AI-powered websites for pre-owned dealerships');
    expect(problems.filter((problem) => !problem.includes('status of 404'))).toEqual([]);
  });

  test('the client-only areas still render in the browser from the noindex shell', async ({ page }) => {
    await page.goto('/dealer-login');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page).toHaveTitle('Dealer Login · Lotwise');
  });
});

test.describe('screenshots', () => {
  for (const width of [375, 1280]) {
    test(`home and 404 at ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.addInitScript((consent) => localStorage.setItem('lw_cookie_consent', consent), storedConsent);
      for (const [path, name] of [
        ['/', 'home'],
        ['/no-such-page', '404'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.screenshot({ path: `test-results/screenshots/prerender-${name}-${width}.png`, fullPage: name === '404' });
      }
    });
  }
});
