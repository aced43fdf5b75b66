import { expect, type Page } from '@playwright/test';
import { test } from './support/test';

/**
 * Forms that guide, and what follows a submit (issue 24, parts 4 and 5): at phone width an invalid
 * application takes the visitor to its first error under a summary; a valid one gives way to a
 * thank-you with its reference; a pricing card's plan travels to the form and on to /payment.
 * Screenshots (375 and 1280 px) go to SHOTS_DIR, else test-results/screenshots/after-submit/.
 */
const shots = process.env.SHOTS_DIR ?? 'test-results/screenshots/after-submit';
const phone = { width: 375, height: 812 };
const desktop = { width: 1280, height: 800 };

async function dismissCookieBanner(page: Page) {
  await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Reject non-essential' }).click();
}

/** Console errors and page errors (a hydration mismatch is one). */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

async function fillApplication(page: Page, email: string) {
  const form = page.getByRole('form', { name: 'Get started application' });
  await form.getByLabel('First Name').fill('Maria');
  await form.getByLabel('Last Name').fill('Delgado');
  await form.getByLabel('Email Address').fill(email);
  await form.getByLabel('Phone Number').fill('512-555-0100');
  await form.getByLabel('Dealership Name').fill('Hill Country Motors');
  await form.getByLabel('Street Address').fill('1200 Ranch Road 620 South');
  await form.getByLabel('City').fill('Austin');
  await form.getByLabel(/^State/).fill('TX');
  await form.getByLabel('ZIP Code').fill('78734');
  await form.getByLabel('Inventory Size').selectOption('50-99');
  await form.getByLabel('Preferred Launch Date').selectOption('1-2-weeks');
  await form.getByLabel('Increase online leads').check();
  await form.getByLabel(/I agree to the/).check();
}

for (const viewport of [phone, desktop]) {
  test(`an invalid application at ${viewport.width} px: focus on the first error, the summary at the top`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/get-started');
    await dismissCookieBanner(page);
    const form = page.getByRole('form', { name: 'Get started application' });
    // The visitor typed the first three fields, so the first error is the phone, well below the top.
    await form.getByLabel('First Name').fill('Maria');
    await form.getByLabel('Last Name').fill('Delgado');
    await form.getByLabel('Email Address').fill('maria@hillcountry.example');
    await form.getByRole('button', { name: 'Submit Application' }).click();

    const phoneField = form.getByLabel('Phone Number');
    await expect(phoneField).toBeFocused();
    await expect(phoneField).toBeInViewport();
    const summary = page.getByRole('alert').filter({ has: page.getByTestId('error-summary') });
    await expect(summary).toBeVisible();
    await expect(summary.getByRole('heading')).toHaveText('Please correct the following in your application (10 problems)');
    await expect(summary.getByRole('link').first()).toHaveText('Please enter a valid phone number');
    // The summary from its top (clear of the sticky header), for the screenshot.
    await page.getByTestId('error-summary').evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${shots}/error-summary-${viewport.width}.png` });

    // A summary entry takes the visitor to its field, far down the page.
    await summary.getByRole('link', { name: 'You must agree to the terms' }).click();
    await expect(form.getByLabel(/I agree to the/)).toBeFocused();
    await expect(form.getByLabel(/I agree to the/)).toBeInViewport();
  });
}

test('a plan picked on a pricing card: shown on get-started, in the thank-you with the reference, and on /payment (375 px)', async ({ page }) => {
  const problems = watchConsole(page);
  // The page's clock runs as usual until the test moves it on (below: past a toast's lifetime at once).
  await page.clock.install();
  await page.setViewportSize(phone);
  await page.goto('/');
  await dismissCookieBanner(page);
  await page.getByRole('link', { name: 'Get Started with Professional' }).click();
  await expect(page).toHaveURL(/\/get-started\?plan=professional$/);
  const plan = page.getByLabel('Plan');
  await expect(plan).toHaveValue('professional');
  await expect(plan.locator('option:checked')).toHaveText('Professional ($199/month)');
  await plan.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/plan-on-form-375.png` });

  await fillApplication(page, 'maria.plan@hillcountry.example');
  await page.getByRole('button', { name: 'Submit Application' }).click();
  const thankYou = page.getByTestId('thank-you');
  await expect(thankYou.getByRole('heading', { name: 'Application submitted successfully!' })).toBeFocused();
  await expect(thankYou.getByRole('heading', { name: 'Application submitted successfully!' })).toBeInViewport();
  const reference = await thankYou.getByTestId('lead-reference').textContent();
  expect(reference).toMatch(/^LW-G-\d+$/);
  await expect(thankYou.getByText('Professional ($199/month)')).toBeVisible();
  await expect(thankYou.getByText('maria.plan@hillcountry.example')).toBeVisible();
  await expect(thankYou.getByRole('heading', { name: 'What happens next' })).toBeVisible();
  await page.screenshot({ path: `${shots}/thank-you-375.png` });
  // Lasting: still there well after a toast would have gone (its timers fire as the clock jumps).
  await page.clock.fastForward(5500);
  await expect(thankYou).toBeVisible();
  await expect(page).toHaveURL(/\/get-started\?plan=professional$/);

  await thankYou.getByRole('link', { name: 'Continue to payment' }).click();
  await expect(page).toHaveURL(/\/payment\?plan=professional$/);
  await expect(page.getByTestId('payment-plan')).toContainText('Professional ($199/month)');
  await expect(page.getByText(/payment processing is being configured/)).toBeVisible();
  await expect(page.getByText(reference!)).toBeVisible();
  await page.screenshot({ path: `${shots}/payment-plan-375.png`, fullPage: true });
  expect(problems).toEqual([]);
});

test('the stored application carries the plan and the reference names it (1280 px)', async ({ page, request }) => {
  await page.setViewportSize(desktop);
  // Opened with the query: the prerendered page hydrates without a mismatch, then takes the plan.
  const problems = watchConsole(page);
  await page.goto('/get-started?plan=starter');
  await dismissCookieBanner(page);
  await expect(page.getByLabel('Plan')).toHaveValue('starter');
  expect(problems).toEqual([]);
  await page.screenshot({ path: `${shots}/plan-on-form-1280.png` });
  await fillApplication(page, 'maria.starter@hillcountry.example');
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/get-started-request'));
  await page.getByRole('button', { name: 'Submit Application' }).click();
  const body = (await (await answered).json()) as { id: number; reference: string; plan: string };
  expect(body).toMatchObject({ plan: 'starter', reference: `LW-G-${body.id}` });
  await expect(page.getByTestId('lead-reference')).toHaveText(body.reference);
  await page.getByTestId('thank-you').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/thank-you-1280.png` });
  await page.getByRole('link', { name: 'Continue to payment' }).click();
  await expect(page.getByTestId('payment-plan')).toContainText('Starter ($99/month)');
  await page.screenshot({ path: `${shots}/payment-plan-1280.png` });

  // An unknown plan is refused by the API, and ignored by the form.
  const refused = await request.post('/api/get-started-request', { data: { plan: 'gold' } });
  expect(refused.status()).toBe(400);
  await page.goto('/get-started?plan=gold');
  await expect(page.getByLabel('Plan')).toHaveValue('');
});

test('contact at 375 px: an invalid submit focuses the first error; a valid one leaves a thank-you with its reference', async ({ page }) => {
  await page.setViewportSize(phone);
  await page.goto('/contact');
  await dismissCookieBanner(page);
  const form = page.getByRole('form', { name: 'Send us a message' });
  await form.getByLabel('Full Name').fill('James Whitfield');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(form.getByLabel('Email Address')).toBeFocused();
  await expect(form.getByLabel('Email Address')).toBeInViewport();

  await form.getByLabel('Email Address').fill('james@whitfield.example');
  await form.getByLabel('Dealership Name').fill('Whitfield Auto Sales');
  await form.getByLabel('Phone Number').fill('(512) 555-0100');
  await form.getByLabel('Subject').selectOption('pricing');
  await form.getByLabel('Message').fill('What does the Professional plan include for 80 cars?');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('heading', { name: 'Message sent successfully!' })).toBeFocused();
  await expect(page.getByTestId('lead-reference')).toHaveText(/^LW-C-\d+$/);
  await page.getByTestId('thank-you').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/contact-thank-you-375.png` });
});
