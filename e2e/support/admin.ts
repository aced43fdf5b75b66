import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const staff = { email: 'staff@lotwise.example', password: 'staff-password-123' };

/** Signs in on /admin through the sign-in card, as a staff member would. */
export async function signIn(page: Page, base = ''): Promise<void> {
  await page.goto(`${base}/admin`);
  await page.getByLabel('Email').fill(staff.email);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/** The figure of one count card, e.g. `count-contact`. */
export async function countOf(page: Page, key: string): Promise<number> {
  const card = page.getByTestId(`count-${key}`);
  await expect(card.locator('[data-figure]')).not.toHaveText('–');
  return Number((await card.locator('[data-figure]').innerText()).replace(/,/g, ''));
}

let unique = 0;
/** A name no other test uses, so assertions find exactly this row. */
export function uniqueName(prefix: string): string {
  unique += 1;
  return `${prefix} ${Date.now().toString(36)}${unique}`;
}

export const leadPayloads = {
  contact: (name: string) => ({
    name,
    email: 'jane@doe-motors.example',
    company: 'Doe Motors',
    phone: '(512) 555-0100',
    subject: 'pricing',
    message: 'We have 80 cars on the lot and want a quote.',
  }),
  support: (name: string, priority = 'high') => ({
    name,
    email: 'sam@sam-autos.example',
    company: 'Sam Autos',
    priority,
    category: 'billing',
    subject: 'Invoice question',
    description: 'The November invoice lists more cars than we have.',
  }),
  demo: (name: string) => ({ name, email: 'dee@demo-cars.example', company: 'Demo Cars', phone: '(512) 555-0190' }),
  getStarted: (firstName: string) => ({
    firstName,
    lastName: 'Stone',
    email: 'ava@stone.example',
    phone: '(512) 555-0111',
    dealershipName: 'Stone Pre-Owned',
    address: '100 Main Street Suite 4',
    city: 'Austin',
    state: 'TX',
    zipCode: '78701',
    inventorySize: '50-99',
    launchDate: 'asap',
    primaryGoals: ['Increase online leads'],
    agreeToTerms: true,
  }),
};

export async function postLead(request: APIRequestContext, path: string, body: object): Promise<void> {
  const response = await request.post(path, { data: body });
  expect(response.status(), await response.text()).toBe(201);
}

export function newChatSessionId(): string {
  return `session_${Date.now()}_${Math.random().toString(36).slice(2, 11)}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface OwnServer {
  baseURL: string;
  /** Its DATA_DIR, the SQLite file and the outbox (mail as .eml files: no SMTP_URL) in it. */
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * A server of the built app with its own data and environment, started the way `npm start` starts it:
 * the compiled server of `npm run build` (each worker's, e2e/support/test.ts; or a second one with a
 * shortened idle limit, say). It inherits the environment, the test run's mark (scripts/test.ts) with it.
 */
export async function startOwnServer(env: Record<string, string>): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'lotwise-e2e-'));
  const baseURL = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['dist/server/server.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_PATH: join(dataDir, 'app.db'),
      PUBLIC_URL: baseURL,
      ADMIN_EMAIL: staff.email,
      ADMIN_PASSWORD: staff.password,
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(`${baseURL}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server on ${port} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseURL,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The open conversation in the chat tab's pane (View & Reply), named by its heading "Chat with ...". */
export function conversationPane(page: Page) {
  return page.getByRole('region', { name: /^Chat with/ });
}

/** Nothing on the page is wider than the window: no sideways scrolling. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const width = page.viewportSize()!.width;
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}
