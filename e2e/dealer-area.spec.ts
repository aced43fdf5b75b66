import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { createDealer } from './support/dealer';

/** axe-core, injected into the page as its own script (the CSP allows only our scripts, not eval). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

/** The WCAG 2.x A/AA violations axe finds on the page as it stands, one line each. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations;
  });
  return violations.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

const shotsDir = process.env.SHOTS_DIR ?? 'test-results/shots/dealer-area';
const stamp = Date.now().toString(36);

async function signInAsNewDealer(page: Page, name: string): Promise<string> {
  const username = `${name}-${stamp}`;
  createDealer(username, `${username}@dealers.example`, 'dealer-password-123');
  // The page's own request context shares its cookies: the browser is signed in after this.
  const response = await page.request.post('/api/login', { data: { username, password: 'dealer-password-123' } });
  expect(response.ok()).toBe(true);
  return username;
}

async function rejectCookies(page: Page) {
  await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Reject non-essential' }).click();
}

test('the header links to Dealer Login on a desktop', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/about');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dealer Login' }).click();
  await expect(page).toHaveURL(/\/dealer-login$/);
  await expect(page.getByRole('heading', { name: 'Dealer Login' })).toBeVisible();
});

test('the phone menu links to Dealer Login', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto('/about');
  await rejectCookies(page);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dealer Login' })).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.screenshot({ path: `${shotsDir}/phone-menu-375.png` });
  await page.getByRole('banner').getByRole('link', { name: 'Dealer Login' }).click();
  await expect(page).toHaveURL(/\/dealer-login$/);
  await expect(page.getByRole('heading', { name: 'Dealer Login' })).toBeVisible();
});

test('a signed-in dealer who opens the login page lands on the dashboard', async ({ page }) => {
  const username = await signInAsNewDealer(page, 'redirect');
  await page.goto('/dealer-login');
  await expect(page).toHaveURL(/\/dealer-dashboard$/);
  await expect(page.getByTestId('dealer-username')).toHaveText(username);
  // The login page was replaced, not stacked: Back does not return to it.
  expect(await page.evaluate(() => history.length)).toBe(2);
});

test.describe('the sample dashboard', () => {
  // axe is injected as an inline script, which our CSP rightly refuses.
  test.use({ bypassCSP: true });

  test('has a level-one heading, passes axe on each tab, and its buttons work or say they are a preview', async ({ page }) => {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await signInAsNewDealer(page, `axe${width}`);
      await page.goto('/dealer-dashboard');
      await expect(page.getByRole('heading', { level: 1, name: 'Dealer Dashboard' })).toBeVisible();
      await page.screenshot({ path: `${shotsDir}/dashboard-${width}.png`, fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('tab', { name: 'INVENTORY' }).click();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('tab', { name: 'LEADS' }).click();
      await page.screenshot({ path: `${shotsDir}/dashboard-leads-${width}.png`, fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
    }

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Leads' }).click();
    const csv = readFileSync(await (await download).path(), 'utf8');
    expect((await download).suggestedFilename()).toBe('sample-leads.csv');
    expect(csv.split('\r\n')[0]).toBe('Name,Email,Phone,Interested In,Status,Received');
    expect(csv).toContain('Carlos Mendoza,carlos.mendoza@example.com,(512) 555-0192,2021 Toyota Camry SE,New,5 minutes ago');

    await page.getByRole('button', { name: 'Contact Carlos Mendoza' }).click();
    await expect(page.getByTestId('toast')).toContainText('Preview');
    await expect(page.getByTestId('toast')).toContainText('Contacting leads opens once your Lotwise website is live.');
    await page.getByRole('tab', { name: 'INVENTORY' }).click();
    await page.getByRole('button', { name: 'Add Vehicle' }).click();
    await expect(page.getByTestId('toast')).toContainText('Adding vehicles opens once your Lotwise website is live.');
    await page.screenshot({ path: `${shotsDir}/dashboard-preview-toast-375.png` });
    expect(await axeViolations(page)).toEqual([]);
  });
});

test('focus returns to the Request Demo button that opened the dialog when it closes', async ({ page }) => {
  await page.goto('/');
  await rejectCookies(page);
  const heroDemo = page.getByRole('button', { name: 'Request Demo' }).first();
  await heroDemo.click();
  const dialog = page.getByRole('dialog', { name: 'Request a Demo' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(heroDemo).toBeFocused();

  // The closing section's button, closed with the X this time.
  const closingDemo = page.getByRole('button', { name: 'Request Demo' }).last();
  await closingDemo.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(closingDemo).toBeFocused();
});

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const { width, height } of [
  { width: 375, height: 667 },
  { width: 375, height: 812 },
  { width: 1280, height: 720 },
]) {
  test(`at ${width}x${height} the cookie banner leaves the hero's buttons in sight`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/');
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await expect(banner).toBeVisible();
    await page.screenshot({ path: `${shotsDir}/home-cookie-banner-${width}x${height}.png` });
    const bannerBox = (await banner.boundingBox())!;
    const headerBottom = await page.getByRole('banner').evaluate((header) => header.getBoundingClientRect().bottom);
    for (const button of [page.getByRole('button', { name: 'Request Demo' }).first(), page.getByRole('main').getByRole('link', { name: 'Get Started' }).first()]) {
      const box = (await button.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(headerBottom);
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      expect(intersects(box, bannerBox), `${JSON.stringify(box)} under the banner ${JSON.stringify(bannerBox)}`).toBe(false);
      // A phone's banner spans the screen: the buttons sit above it.
      if (width < 640) expect(box.y + box.height).toBeLessThanOrEqual(bannerBox.y);
    }
  });
}

test('pricing lists the plans’ shared features once at phone width, and in each card side by side', async ({ page }) => {
  const pricing = page.getByRole('region', { name: 'Simple pricing. Every feature included.' });
  const shownFeature = pricing.getByText('Payment calculator', { exact: true }).filter({ visible: true });

  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/');
  await rejectCookies(page);
  await expect(shownFeature).toHaveCount(1);
  await expect(pricing.getByRole('heading', { name: 'Every plan includes' })).toBeVisible();
  await pricing.screenshot({ path: `${shotsDir}/pricing-375.png` });

  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(shownFeature).toHaveCount(3);
  await expect(pricing.getByRole('heading', { name: 'Every plan includes' })).toBeHidden();
  await pricing.screenshot({ path: `${shotsDir}/pricing-1280.png` });
});

test('no public page trips the Content Security Policy (Lighthouse counts it against best practices)', async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`));
  });
  for (const path of ['/', '/get-started', '/contact', '/support', '/no-such-page']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // A form's validation parses with zod, which is where the eval probe ran.
    if (path === '/contact') await page.getByRole('button', { name: 'Send Message' }).click();
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), path).toEqual([]);
  }
});
