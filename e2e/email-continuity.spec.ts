import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { type SmtpSink, startSmtpSink } from '../test/support/smtp-sink';
import { conversationPane, type OwnServer, signIn, startOwnServer } from './support/admin';

const shots = process.env.SHOTS_DIR ?? 'test-results/screenshots/continuity';

/** The same page at a phone's width and a desktop's, saved for a person to look at. */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  const size = page.viewportSize()!;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 860 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${shots}/${name}-${width}.png` });
  }
  await page.setViewportSize(size);
}

test.describe('email continuity: a visitor who left gets the reply by mail, and its link reopens the chat anywhere', () => {
  let sink: SmtpSink;
  let server: OwnServer;

  test.beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startOwnServer({ SMTP_URL: sink.url, CONTINUITY_DELAY_SECONDS: '2' });
  });

  test.afterAll(async () => {
    await server?.stop();
    await sink?.down();
  });

  test('a visitor with an email leaves, staff reply, the mail arrives, and its link in a fresh browser shows the conversation to answer', async ({ browser, page }) => {
    test.setTimeout(90_000);
    const email = `dana.${Date.now()}@reyes-motors.example`;
    const question = `Can you feed our lot to CarGurus? ${Date.now()}`;

    // The visitor writes while nobody is online (the leave-a-message form), and closes the tab.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(`${server.baseURL}/`);
    await visitor.getByRole('button', { name: 'Open chat' }).click({ timeout: 10_000 });
    const chat = visitor.getByRole('dialog', { name: 'Chat With Us' });
    await chat.getByRole('textbox', { name: 'Name', exact: true }).fill('Dana');
    await chat.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await chat.getByRole('textbox', { name: 'Message', exact: true }).fill(question);
    await chat.getByRole('button', { name: 'Send message' }).click();
    await expect(chat.getByRole('log').getByText(question)).toBeVisible();
    await expect(visitor.getByRole('button', { name: 'Email me this conversation' })).toBeVisible();
    await visitorContext.close();

    // Staff answer.
    await signIn(page, server.baseURL);
    await page.getByRole('tab', { name: /Chat Messages/ }).click();
    const row = page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').filter({ hasText: question });
    await row.getByRole('button', { name: /View & Reply/ }).click();
    const pane = conversationPane(page);
    const answer = `Yes: CarGurus, Cars.com and AutoTrader, every night. ${Date.now()}`;
    await pane.getByRole('textbox', { name: 'Reply' }).fill(answer);
    await pane.getByRole('button', { name: 'Send' }).click();
    await expect(pane.locator('[data-from="support"]').filter({ hasText: answer })).toBeVisible();
    await expect(pane.getByTestId('seen-mark')).toHaveCount(0);

    // The unseen reply is mailed to the visitor.
    await sink.waitFor((mails) => mails.some((mail) => mail.to === email), 20_000);
    const mail = sink.accepted.find((each) => each.to === email)!;
    expect(mail.subject).toBe('New reply from Lotwise');
    expect(mail.text).toContain(answer);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const link = /Continue the conversation: (\S+)/.exec(mail.text)![1]!;
    expect(link.startsWith(`${server.baseURL}/?chat=`)).toBe(true);

    // Another device: a fresh browser with no cookie of the visitor's.
    const phoneContext = await browser.newContext();
    const phone = await phoneContext.newPage();
    await phone.goto(link);
    const panel = phone.getByRole('dialog', { name: 'Chat With Us' });
    await expect(panel.getByText(question)).toBeVisible({ timeout: 10_000 });
    await expect(panel.getByText(answer)).toBeVisible();
    // The token leaves the address at once.
    await expect(phone).toHaveURL(`${server.baseURL}/`);

    // Staff see that the visitor saw the reply.
    await expect(pane.getByTestId('seen-mark')).toBeVisible();

    const followUp = `Great, what does setup cost? ${Date.now()}`;
    await panel.getByPlaceholder('Type your message...').fill(followUp);
    await panel.getByPlaceholder('Type your message...').press('Enter');
    await expect(pane.getByText(followUp)).toBeVisible();

    await shoot(phone, 'reopened-conversation');
    await shoot(page, 'staff-seen-marker');

    // "Email me this conversation" from the reopened chat.
    await panel.getByRole('button', { name: 'Email me this conversation' }).click();
    await expect(panel.getByRole('status')).toHaveText(`Sent to ${email}. It should arrive in a minute or two.`);
    await sink.waitFor((mails) => mails.some((each) => each.to === email && each.subject === 'Your chat with Lotwise'), 20_000);
    const transcript = sink.accepted.find((each) => each.to === email && each.subject === 'Your chat with Lotwise')!;
    expect(transcript.text).toContain(question);
    expect(transcript.text).toContain(followUp);
    await shoot(phone, 'widget-transcript-sent');

    // A second ask within 10 minutes is refused with the reason.
    await panel.getByRole('button', { name: 'Email me this conversation' }).click();
    await expect(panel.getByRole('status')).toContainText('please wait 10 minutes');
    await shoot(phone, 'widget-transcript-too-soon');

    // The mail's unsubscribe link, opened by a person: a page that asks, then one click.
    const unsubscribe = /^<(.+)>$/.exec(mail.headers['list-unsubscribe']!)![1]!;
    await phone.goto(unsubscribe);
    await expect(phone.getByRole('heading', { name: 'Unsubscribe from Lotwise emails' })).toBeVisible();
    await shoot(phone, 'unsubscribe-page');
    await phone.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(phone.getByRole('heading', { name: "You're unsubscribed" })).toBeVisible();
    await shoot(phone, 'unsubscribed');
    await phoneContext.close();
  });
});
