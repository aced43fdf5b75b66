import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { conversationPane, signIn } from './support/admin';

// Sunday November 22, 2026, noon in Chicago: closed until Monday 8:00 AM Chicago, 3:00 PM in Berlin.
const sundayNoonChicago = new Date('2026-11-22T18:00:00Z');

async function openWidget(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: /^Open chat/ }).click({ timeout: 10_000 });
  const chat = page.getByRole('dialog', { name: 'Chat With Us' });
  await expect(chat).toBeVisible();
  return chat;
}

test('closed and nobody online: a visitor in Berlin leaves a message, is told when we are back, and staff see it with the email', async ({
  browser,
  page,
}) => {
  test.setTimeout(45_000);
  const visitorContext = await browser.newContext({ timezoneId: 'Europe/Berlin' });
  const visitor = await visitorContext.newPage();
  // The hours clock reads the browser's clock: fixed on a Sunday, timers still running.
  await visitor.clock.setFixedTime(sundayNoonChicago);
  const chat = await openWidget(visitor);
  await expect(chat.getByText("We're away. Back tomorrow at 3:00 PM")).toBeVisible();

  // The form takes the live chat's place, with the first field focused.
  const name = chat.getByRole('textbox', { name: 'Name', exact: true });
  const email = chat.getByRole('textbox', { name: 'Email', exact: true });
  const message = chat.getByRole('textbox', { name: 'Message', exact: true });
  await expect(name).toBeFocused();
  await chat.getByRole('button', { name: 'Send message' }).click();
  await expect(chat.getByText('Please enter your name')).toBeVisible();
  await expect(chat.getByText('Please enter a valid email address')).toBeVisible();
  await expect(chat.getByText('Message cannot be empty')).toBeVisible();
  await expect(name).toBeFocused();

  const address = `pat-${Date.now().toString(36)}@dealer.example`;
  const question = `Can you call me about the Growth plan? ${Date.now()}`;
  await name.fill('Pat');
  await email.fill(address);
  await message.fill(question);
  await chat.getByRole('button', { name: 'Send message' }).click();
  await expect(chat.getByRole('status')).toHaveText(`Thanks, Pat. We're back tomorrow at 3:00 PM; we'll reply to ${address} then.`);
  await expect(chat.getByText(question)).toBeVisible();

  // The conversation goes on as usual.
  const composer = chat.getByPlaceholder('Type your message...');
  await expect(composer).toBeFocused();
  await composer.fill('Mornings are best.');
  await composer.press('Enter');
  await expect(chat.getByText('Mornings are best.')).toBeVisible();

  // Staff, signing in later, find it under the visitor's email.
  await signIn(page);
  await page.getByRole('tab', { name: /Chat Messages/ }).click();
  const row = page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').filter({ hasText: address });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Mornings are best.');
  await row.getByRole('button', { name: /View & Reply/ }).click();
  const pane = conversationPane(page);
  await expect(pane.getByRole('heading', { name: `Chat with ${address}` })).toBeVisible();
  await expect(pane.getByText(question)).toBeVisible();

  // With staff signed in, the visitor's widget says so, whatever the hours.
  await expect(chat.getByText('Online now')).toBeVisible();
  await visitorContext.close();
});

test('open with nobody online: the form says we usually reply within minutes, and so does the thanks', async ({ page }) => {
  // Tuesday November 24, 2026, 10 AM in Chicago.
  await page.clock.setFixedTime(new Date('2026-11-24T16:00:00Z'));
  const chat = await openWidget(page);
  await expect(chat.getByText('We usually reply within a few minutes')).toBeVisible();
  await chat.getByRole('textbox', { name: 'Name', exact: true }).fill('Sam');
  await chat.getByRole('textbox', { name: 'Email', exact: true }).fill('sam@lot.example');
  await chat.getByRole('textbox', { name: 'Message', exact: true }).fill('Do you support Spanish listings?');
  await chat.getByRole('button', { name: 'Send message' }).click();
  await expect(chat.getByRole('status')).toHaveText("Thanks, Sam. We'll reply within a few minutes, here and by email to sam@lot.example.");
});
