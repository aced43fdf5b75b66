import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, expect, type Page } from '@playwright/test';
import { conversationPane } from './support/admin';
import { test, workerServer } from './support/test';

const shots = process.env.SHOTS_DIR ?? 'test-results/screenshots/notes';
const password = 'team-password-123';

/** A staff account with a display name, made as an operator would (`npm run admin:create`) in this worker's server's database. */
function createStaff(email: string, name: string): void {
  const { dataDir } = workerServer();
  execFileSync('node', ['dist/server/admin-create.js', '--email', email, '--password', password, '--name', name], {
    env: { ...process.env, DATABASE_PATH: join(dataDir, 'app.db'), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'pipe',
  });
}

async function staffPage(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto('/admin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  return page;
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  const size = page.viewportSize()!;
  await page.screenshot({ path: `${shots}/${name}-1280.png` });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: `${shots}/${name}-375.png` });
  await page.setViewportSize(size);
}

test('two staff and a visitor: collision seen live, a note the visitor never sees, a canned reply sent with the / picker', async ({ browser }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  createStaff(`dana.${stamp}@lotwise.example`, 'Dana');
  createStaff(`lee.${stamp}@lotwise.example`, 'Lee');
  const dana = await staffPage(browser, `dana.${stamp}@lotwise.example`);
  const lee = await staffPage(browser, `lee.${stamp}@lotwise.example`);

  // Dana adds a canned reply on the team's screen.
  await dana.goto('/admin/canned-replies');
  await dana.getByRole('button', { name: 'New canned reply' }).click();
  await dana.getByRole('button', { name: 'Add canned reply' }).click();
  await expect(dana.getByText('A title is required')).toBeVisible();
  const title = `Pricing ${stamp}`;
  await dana.getByLabel('Title').fill(title);
  await dana.getByLabel('Text').fill('Hi {name}, our plans start at $299 a month, setup included.');
  await dana.getByRole('button', { name: 'Add canned reply' }).click();
  await expect(dana.getByRole('heading', { name: title })).toBeVisible();
  await shoot(dana, 'canned-replies-screen');

  // A visitor writes in the widget.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto('/');
  await visitor.getByRole('button', { name: 'Open chat' }).click({ timeout: 10_000 });
  const question = `Do you build sites for two lots? ${stamp}`;
  await visitor.getByPlaceholder('Type your message...').fill(question);
  await visitor.getByPlaceholder('Type your message...').press('Enter');

  const open = async (page: Page) => {
    await page.goto('/admin?tab=chat');
    const row = page.getByRole('table', { name: 'Chat Messages' }).getByRole('row').filter({ hasText: question });
    await row.getByRole('button', { name: /View & Reply/ }).click();
    await expect(conversationPane(page).getByText(question)).toBeVisible();
    return row;
  };
  await open(dana);
  const leeRow = await open(lee);
  const danaPane = conversationPane(dana);
  const leePane = conversationPane(lee);

  // Collision: each sees the other, live; Lee's list row is marked; Dana sees Lee typing a reply.
  await expect(danaPane.getByTestId('collision')).toHaveText(/Lee is viewing/);
  await expect(leePane.getByTestId('collision')).toHaveText(/Dana is viewing/);
  await expect(leeRow.getByTestId('viewers-mark')).toBeVisible();
  await leePane.getByRole('textbox', { name: 'Reply' }).pressSequentially('Let me check', { delay: 40 });
  await expect(danaPane.getByTestId('collision')).toHaveText(/Lee is typing a reply…/);
  await shoot(dana, 'collision-typing');
  // The typing stops showing a few seconds after Lee's last keystroke.
  await expect(danaPane.getByTestId('collision')).toHaveText(/Lee is viewing/, { timeout: 10_000 });

  // A private note: Lee sees it live, apart, labelled; the visitor never does.
  const note = `Owns two lots; offer the multi-site plan ${stamp}`;
  await danaPane.getByRole('button', { name: 'Note', exact: true }).click();
  await danaPane.getByRole('textbox', { name: 'Private note' }).fill(note);
  await danaPane.getByRole('button', { name: 'Add note' }).click();
  await expect(leePane.locator('[data-from="note"]').filter({ hasText: note })).toContainText('Dana');
  await expect(danaPane.locator('[data-from="note"]').filter({ hasText: note })).toContainText('Note');

  // The canned reply, through the / picker, from the keyboard.
  await danaPane.getByRole('button', { name: 'Reply', exact: true }).click();
  const box = danaPane.getByRole('textbox', { name: 'Reply' });
  await box.pressSequentially('/pricing', { delay: 20 });
  const picker = danaPane.getByRole('listbox', { name: 'Canned replies' });
  await expect(picker.getByRole('option', { name: new RegExp(title) })).toBeVisible();
  await shoot(dana, 'canned-picker');
  await box.press('Enter');
  const sent = 'Hi, our plans start at $299 a month, setup included.';
  await expect(box).toHaveValue(sent);
  await box.press('Enter');
  await expect(visitor.getByText(sent)).toBeVisible();
  // The note was written before the reply the visitor now shows: it never reached them.
  await expect(visitor.getByText(note)).toHaveCount(0);
  expect(await visitor.content()).not.toContain(note);
  await shoot(lee, 'collision-note');

  // Dana closes her tab: Lee no longer sees her.
  await dana.context().close();
  await expect(leePane.getByTestId('collision')).not.toHaveText(/Dana/);
  await expect(leeRow.getByTestId('viewers-mark')).toHaveCount(0);
  await lee.context().close();
  await visitorContext.close();
});
