import { expect, type Page } from '@playwright/test';
import { test } from './support/test';

async function dismissCookieBanner(page: Page) {
  await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Reject non-essential' }).click();
}

const toast = (page: Page) => page.getByTestId('toast');

test('demo request: errors under the fields, then the thank-you in the dialog, closed and reset', async ({ page }) => {
  await page.goto('/');
  await dismissCookieBanner(page);
  await page.getByRole('button', { name: 'Request Demo' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Request a Demo' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Full Name')).toBeFocused();

  await dialog.getByRole('button', { name: 'Request Demo' }).click();
  await expect(dialog.getByText('Name must be at least 2 characters', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Please enter a valid email address')).toBeVisible();
  await expect(dialog.getByText('Company name must be at least 2 characters')).toBeVisible();

  await dialog.getByLabel('Full Name').fill('Maria Delgado');
  await dialog.getByLabel('Email Address').fill('maria@hillcountry.example');
  await dialog.getByLabel('Dealership Name').fill('Hill Country Motors');
  await dialog.getByLabel('Phone (optional)').fill('(512) 555-0100');
  await dialog.getByRole('button', { name: 'Request Demo' }).click();

  await expect(dialog.getByRole('heading', { name: 'Demo Requested!' })).toBeFocused();
  await expect(dialog.getByText("We'll contact you within 24 hours to schedule your demo.")).toBeVisible();
  await expect(dialog.getByTestId('lead-reference')).toHaveText(/^LW-D-\d+$/);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toHaveCount(0);

  // Opened again, the dialog starts empty.
  await page.getByRole('button', { name: 'Request Demo' }).last().click();
  await expect(page.getByRole('dialog', { name: 'Request a Demo' }).getByLabel('Full Name')).toHaveValue('');
});

test('contact: errors under the fields, then a thank-you with the reference, and another message from an empty form', async ({ page }) => {
  await page.goto('/contact');
  await dismissCookieBanner(page);
  await expect(page.getByText('Monday-Friday 8:00 AM-6:00 PM CST')).toBeVisible();
  await expect(page.getByText('Quick Response Guarantee')).toBeVisible();
  const form = page.getByRole('form', { name: 'Send us a message' });

  await form.getByLabel('Phone Number').fill('123');
  await form.getByRole('button', { name: 'Send Message' }).click();
  for (const message of [
    'Name must be at least 2 characters',
    'Please enter a valid email address',
    'Company name must be at least 2 characters',
    'Please enter a valid phone number',
    'Please select a subject',
    'Message must be at least 10 characters',
  ]) {
    await expect(form.getByText(message, { exact: true })).toBeVisible();
  }

  await form.getByLabel('Full Name').fill('James Whitfield');
  await form.getByLabel('Email Address').fill('james@whitfield.example');
  await form.getByLabel('Dealership Name').fill('Whitfield Auto Sales');
  await form.getByLabel('Phone Number').fill('(512) 555-0100');
  await form.getByLabel('Subject').selectOption('partnership');
  await form.getByLabel('Message').fill('We would like to talk about a referral partnership.');
  await form.getByRole('button', { name: 'Send Message' }).click();

  await expect(page.getByRole('heading', { name: 'Message sent successfully!' })).toBeFocused();
  await expect(page.getByTestId('lead-reference')).toHaveText(/^LW-C-\d+$/);
  await expect(toast(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Send another message' }).click();
  await expect(form.getByLabel('Full Name')).toHaveValue('');
  await expect(form.getByLabel('Subject')).toHaveValue('');
  await expect(form.getByText('Name must be at least 2 characters', { exact: true })).toHaveCount(0);
});

test('support ticket: errors under the fields, then a thank-you with the reference', async ({ page }) => {
  await page.goto('/support');
  await dismissCookieBanner(page);
  for (const card of ['Live Chat', 'Phone Support', 'Email Support']) {
    await expect(page.getByRole('heading', { name: card })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Start Live Chat' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Create support ticket' });

  await form.getByLabel('Subject').fill('Bug');
  await form.getByRole('button', { name: 'Submit Ticket' }).click();
  for (const message of [
    'Please select a priority level',
    'Please select a category',
    'Subject must be at least 5 characters',
    'Description must be at least 20 characters',
  ]) {
    await expect(form.getByText(message, { exact: true })).toBeVisible();
  }

  await form.getByLabel('Full Name').fill('Priya Raman');
  await form.getByLabel('Email Address').fill('priya@lakeside.example');
  await form.getByLabel('Dealership Name').fill('Lakeside Pre-Owned');
  await form.getByLabel('Priority').selectOption('urgent');
  await form.getByLabel('Category').selectOption('billing');
  await form.getByLabel('Subject').fill('Charged twice this month');
  await form.getByLabel('Description').fill('Our card was charged twice for the July invoice, please refund one.');
  await form.getByRole('button', { name: 'Submit Ticket' }).click();

  await expect(page.getByRole('heading', { name: 'Support ticket created!' })).toBeFocused();
  await expect(page.getByTestId('lead-reference')).toHaveText(/^LW-S-\d+$/);
  await expect(form).toHaveCount(0);
});

test('support: Start Live Chat opens the chat panel', async ({ page }) => {
  await page.goto('/support');
  await dismissCookieBanner(page);
  await page.getByRole('button', { name: 'Start Live Chat' }).click();
  await expect(page.getByText('Chat With Us')).toBeVisible();
});

test('get started: errors, then submitted, saved locally, a thank-you with the reference, and on to /payment', async ({ page }) => {
  await page.goto('/get-started');
  await dismissCookieBanner(page);
  for (const step of ['Submit Application', 'Strategy Call', 'Custom Setup', 'Launch & Training']) {
    await expect(page.getByRole('heading', { name: step, exact: true })).toBeVisible();
  }
  await expect(page.getByText('Quick Launch Guarantee')).toBeVisible();
  const form = page.getByRole('form', { name: 'Get started application' });

  await form.getByRole('button', { name: 'Submit Application' }).click();
  // Under each field (and, as links, in the summary at the top).
  await expect(form.locator('#gs-firstName-error')).toHaveText('First name must be at least 2 characters');
  await expect(form.locator('#gs-primaryGoals-error')).toHaveText('Please select at least one goal');
  await expect(form.locator('#gs-agreeToTerms-error')).toHaveText('You must agree to the terms');

  await form.getByLabel('First Name').fill('Maria');
  await form.getByLabel('Last Name').fill('Delgado');
  await form.getByLabel('Email Address').fill('maria@hillcountry.example');
  await form.getByLabel('Phone Number').fill('512-555-0100');
  await form.getByLabel('Dealership Name').fill('Hill Country Motors');
  await form.getByLabel('Street Address').fill('1200 Ranch Road 620 South');
  await form.getByLabel('City').fill('Austin');
  await form.getByLabel(/^State/).fill('TX');
  await form.getByLabel('ZIP Code').fill('78734');
  await form.getByLabel('Inventory Size').selectOption('1-49');
  await form.getByLabel('Preferred Launch Date').selectOption('1-2-weeks');
  await form.getByLabel('Increase online leads').check();
  await form.getByLabel('Mobile-friendly website').check();
  await form.getByLabel('CarGurus').check();
  await form.getByLabel('Facebook Marketplace').check();
  await form.getByLabel(/I agree to the/).check();
  await form.getByRole('button', { name: 'Submit Application' }).click();

  await expect(page.getByRole('heading', { name: 'Application submitted successfully!' })).toBeFocused();
  await expect(page.getByTestId('lead-reference')).toHaveText(/^LW-G-\d+$/);
  await page.getByRole('link', { name: 'Continue to payment' }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await expect(page.getByText(/payment processing is being configured/)).toBeVisible();
  await expect(page.getByText('Hill Country Motors')).toBeVisible();
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('dealerapp_data') ?? 'null'));
  expect(saved).toMatchObject({
    firstName: 'Maria',
    primaryGoals: ['Increase online leads', 'Mobile-friendly website'],
    feedExportDestinations: ['CarGurus', 'Facebook Marketplace'],
    agreeToTerms: true,
  });
});
