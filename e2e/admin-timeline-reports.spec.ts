import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { loginCookie } from './support/staff';
import { newChatSessionId, signIn } from './support/admin';

const shots = process.env.SHOTS_DIR ?? 'test-results/screenshots/reports';

/** The page at a phone's width and a desktop's, whole, saved for a person to look at. */
async function shoot(page: Page, name: string, before?: (width: number) => Promise<void>): Promise<void> {
  mkdirSync(shots, { recursive: true });
  // The sign-in's toast goes by itself: not in the picture.
  await expect(page.getByTestId('toast')).toHaveCount(0, { timeout: 10_000 });
  const size = page.viewportSize()!;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 860 });
    await before?.(width);
    await page.waitForTimeout(300);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

function timelineOf(page: Page, email: string) {
  return page.getByRole('list', { name: `Timeline of ${email}` });
}

test('one contact, one timeline: a form and a chat with the same email, seen together from either', async ({ browser, page }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  const formEmail = `Jo.${stamp}@Lot-Motors.example`;
  const chatEmail = formEmail.toLowerCase();
  const question = `Can you take 80 cars? ${stamp}`;

  // The visitor sends the contact form, then writes in the chat with the same email in other case (nobody online: the widget asks for it).
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto('/contact');
  await visitor.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Reject non-essential' }).click();
  const form = visitor.getByRole('form', { name: 'Send us a message' });
  await form.getByLabel('Full Name').fill('Jo Lot');
  await form.getByLabel('Email Address').fill(formEmail);
  await form.getByLabel('Dealership Name').fill('Lot Motors');
  await form.getByLabel('Phone Number').fill('(512) 555-0100');
  await form.getByLabel('Subject').selectOption('pricing');
  await form.getByLabel('Message').fill('How much for a site for 80 cars?');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(visitor.getByText('Message sent successfully!')).toBeVisible();

  await visitor.getByRole('button', { name: 'Open chat' }).click({ timeout: 10_000 });
  const chat = visitor.getByRole('dialog', { name: 'Chat With Us' });
  await chat.getByRole('textbox', { name: 'Name', exact: true }).fill('Jo');
  await chat.getByRole('textbox', { name: 'Email', exact: true }).fill(chatEmail);
  await chat.getByRole('textbox', { name: 'Message', exact: true }).fill(question);
  await chat.getByRole('button', { name: 'Send message' }).click();
  await expect(chat.getByRole('log').getByText(question)).toBeVisible();

  // From the lead: the chat is on its timeline, the lead itself marked.
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);
  await page.getByRole('table', { name: 'Contact Forms' }).getByRole('row').filter({ hasText: 'Jo Lot' }).first().click();
  await expect(page).toHaveURL(/\/admin\/leads\/contact\/\d+$/);
  const leadAddress = new URL(page.url()).pathname;
  const fromLead = timelineOf(page, formEmail);
  await expect(fromLead.getByRole('listitem')).toHaveCount(2);
  await expect(fromLead.getByRole('listitem').nth(0)).toContainText(`Conversation: ${question}`);
  await expect(fromLead.getByRole('listitem').nth(1)).toContainText('Contact form: Pricing Information');
  await expect(fromLead.getByRole('listitem').nth(1)).toContainText('This lead');
  await page.getByRole('region', { name: 'Timeline' }).scrollIntoViewIfNeeded();
  await shoot(page, 'timeline-lead');

  // From the conversation: the same two, the lead a link back.
  await fromLead.getByRole('link', { name: `Conversation: ${question}` }).click();
  await expect(page).toHaveURL(/\/admin\/chats\/session_[\w-]+$/);
  const fromChat = timelineOf(page, chatEmail);
  await expect(fromChat.getByRole('listitem')).toHaveCount(2);
  await expect(fromChat.getByRole('listitem').nth(0)).toContainText('This conversation');
  await shoot(page, 'timeline-conversation', async (width) => {
    // Below wide screens the visitor's context folds away: opened for the picture.
    const toggle = page.getByRole('button', { name: 'Visitor context' });
    if (width < 1280 && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    await fromChat.scrollIntoViewIfNeeded();
  });
  await fromChat.getByRole('link', { name: /Contact form: Pricing Information/ }).click();
  await expect(page).toHaveURL(new RegExp(`${leadAddress}$`));
  await visitorContext.close();
});

test('reports: drawn as charts with their tables, and a table downloaded as CSV', async ({ page, request, baseURL }) => {
  test.setTimeout(60_000);
  // A conversation today: a visitor writes, staff reply and resolve it, the visitor rates it good.
  const sessionId = newChatSessionId();
  const sent = await request.post('/api/chat-message', { data: { sessionId, message: `Reports, please ${Date.now()}` } });
  expect(sent.status(), await sent.text()).toBe(201);
  const staffCookie = await loginCookie(request);
  const staffHeaders = { cookie: staffCookie, origin: baseURL! };
  expect((await request.post('/api/admin-chat-reply', { headers: staffHeaders, data: { sessionId, message: 'Here you are.' } })).ok()).toBe(true);
  expect((await request.patch(`/api/chat-sessions/${sessionId}`, { headers: staffHeaders, data: { status: 'resolved' } })).ok()).toBe(true);
  expect((await request.post(`/api/chat-rating/${sessionId}`, { data: { rating: 'good' } })).ok()).toBe(true);

  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);
  await page.goto('/admin/reports');
  await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
  const today = new Date().toISOString().slice(0, 10);
  const conversations = page.getByRole('region', { name: 'Conversations per day' });
  const todayRow = conversations.getByRole('table', { name: 'Conversations per day' }).getByRole('row', { name: new RegExp(`^${today}`) });
  await expect(todayRow).toBeVisible();
  const todayCount = Number(await todayRow.getByRole('cell').innerText());
  expect(todayCount).toBeGreaterThanOrEqual(1);
  // The replying staff member's row, under whatever name other journeys on this server gave the account.
  await expect(page.getByRole('region', { name: 'Response and resolution times' }).getByRole('row', { name: /^(?!Agent |Whole team ).+ \d+ \S+ \S+ \d+ / }).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Ratings' }).getByRole('row', { name: /^Good/ })).toBeVisible();

  // Each chart drew on its canvas.
  const charts = page.getByTestId('report-chart');
  await expect(charts).toHaveCount(5);
  for (const chart of await charts.all()) {
    await expect
      .poll(() => chart.evaluate((canvas: HTMLCanvasElement) => canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data.some((value, index) => index % 4 === 3 && value > 0)))
      .toBe(true);
  }

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Conversations per day as CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^conversations-per-day-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path()), 'utf8');
  expect(csv.split('\r\n')[0]).toBe('Day,Conversations');
  expect(csv).toContain(`\r\n${today},${todayCount}\r\n`);

  await shoot(page, 'reports');
});
