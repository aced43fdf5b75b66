import { expect, type Page } from '@playwright/test';
import { test } from './support/test';

/** Answers the cookie banner so it does not cover what a test clicks. */
async function dismissCookieBanner(page: Page) {
  await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Reject non-essential' }).click();
}

test.describe('home page', () => {
  test('shows the three plans with the shared features and no testimonials', async ({ page }) => {
    await page.goto('/');
    const pricing = page.locator('#pricing');
    for (const [plan, price, planId] of [
      ['Starter', '$99', 'starter'],
      ['Professional', '$199', 'professional'],
      ['Enterprise', '$299', 'enterprise'],
    ] as const) {
      const card = pricing.getByRole('listitem').filter({ has: page.getByRole('heading', { name: plan }) });
      await expect(card.getByText(price)).toBeVisible();
      await expect(card.getByText('No extra plugin costs')).toBeVisible();
      await expect(card.getByRole('link', { name: `Get Started with ${plan}` })).toHaveAttribute('href', `/get-started?plan=${planId}`);
    }
    await expect(pricing.getByText('Most Popular')).toBeVisible();
    await expect(page.getByText('Dealers who made the switch')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Ready to talk? Call (512) 555-0147' })).toBeVisible();
    await page.getByRole('link', { name: 'Start Now' }).click();
    await expect(page).toHaveURL(/\/get-started$/);
  });

  test('the cookie banner remembers the choice across visits', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Accept all' }).click();
    await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  });
});

test.describe('Why AI? modal', () => {
  test('opens from the header and closes on X, backdrop and Escape', async ({ page }) => {
    await page.goto('/about');
    await dismissCookieBanner(page);
    const trigger = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Why AI?' });
    const dialog = page.getByRole('dialog');

    await trigger.click();
    await expect(dialog.getByRole('heading', { name: 'With Lotwise, you get the power to compete with big dealers at a small price!' })).toBeVisible();
    await expect(dialog.getByText('87%')).toBeVisible();
    await expect(dialog.getByText('5-7 Days')).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'So, What Are You Waiting For?' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(trigger).toBeFocused();

    await trigger.click();
    await expect(dialog).toBeVisible();
    // Radix starts listening for a press outside a moment after the dialog shows (a timer after its
    // effects); a person cannot press that fast, a test on a loaded machine can. Press until it is heard.
    await expect(async () => {
      await page.mouse.click(10, 400);
      await expect(dialog).toHaveCount(0, { timeout: 500 });
    }).toPass();

    await trigger.click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  test('keeps focus inside while open, and its call to action goes to /contact', async ({ page }) => {
    await page.goto('/');
    await dismissCookieBanner(page);
    await page.getByRole('contentinfo').getByRole('button', { name: 'Why AI?' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    for (let press = 0; press < 4; press += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await dialog.getByRole('link', { name: 'So, What Are You Waiting For?' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
  });
});

test.describe('phone width (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu toggles, navigates, and opening Why AI? from it closes it', async ({ page }) => {
    await page.goto('/');
    await dismissCookieBanner(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'About' })).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('header ul');
    for (const entry of ['About', 'Contact', 'Support', 'Get Started']) {
      await expect(menu.getByRole('link', { name: entry })).toBeVisible();
    }
    await menu.getByRole('link', { name: 'Support' }).click();
    await expect(page).toHaveURL(/\/support$/);
    await expect(menu).toHaveCount(0);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('button', { name: 'Why AI?' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(menu).toHaveCount(0);
    await expect(dialog.getByRole('link', { name: 'Get In Touch' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
  });

  test('pages fit the screen without sideways scrolling', async ({ page }) => {
    for (const path of ['/', '/about', '/contact', '/support', '/get-started', '/dealer-login', '/cookie-policy']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
  });
});

test('legal pages carry the last-updated date and link to each other', async ({ page }) => {
  await page.goto('/privacy-policy');
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByText('Last updated July 21, 2025')).toBeVisible();
  await expect(page).toHaveTitle('Privacy Policy · Lotwise');
  await page.getByRole('main').getByRole('link', { name: 'Cookie Policy' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cookie Policy' })).toBeVisible();
  await expect(page.getByText('Last updated July 21, 2025')).toBeVisible();
  await page.getByRole('link', { name: 'Terms of Service' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
  await expect(page.getByText(/governed by the laws of the State of Texas/)).toBeVisible();
});

test('an unknown route shows the 404 page inside the site chrome', async ({ page }) => {
  await page.goto('/definitely/not/here');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/$/);
});
