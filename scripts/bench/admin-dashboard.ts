import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { freePort } from '../services/free-port';

/** The staff dashboard as the admin benchmark drives it: the built app in a child process, signed in through its card. */

export const staff = { username: 'bench@lotwise.example', password: 'bench-password-123' };

export interface Running {
  label: string;
  baseURL: string;
  child: ChildProcess;
}

export async function startServer(label: string, dataDir: string): Promise<Running> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_PATH: join(dataDir, 'app.db'),
      PUBLIC_URL: baseURL,
      ADMIN_EMAIL: staff.username,
      ADMIN_PASSWORD: staff.password,
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) return { label, baseURL, child };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${label} server did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function stopServer(server: Running): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

export async function newBenchContext(browser: Browser, server: Running): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.baseURL, viewport: { width: 1280, height: 900 } });
  // tsx compiles this file with esbuild's keepNames, which wraps inner functions in `__name(...)`;
  // the browser side of page.evaluate needs that helper too.
  await context.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((fn) => fn);' });
  return context;
}

/** Signs in through the card as staff do; resolves with the time from the click to the first rows. */
export async function signIn(page: Page): Promise<number> {
  await page.goto('/admin');
  await page.getByLabel('Email').fill(staff.username);
  await page.getByLabel('Password').fill(staff.password);
  const signInStart = performance.now();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.locator('tr[data-row-index], [data-empty-table]').first().waitFor();
  return performance.now() - signInStart;
}
