/**
 * Home page JavaScript budget (DESIGN section 8): builds the SPA, serves it with the real server on a
 * throwaway database, loads `/` in Chromium and sums the gzip size of every script the page requested
 * before the chat button's 2 s delay. Exits non-zero over budget.
 *
 *   npm run bench:bundle            (build first)
 *   npm run bench:bundle -- --no-build
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { timings } from '../api/contract/brand';
import { buildApp } from '../api/app';
import { parseConfig } from '../api/config';

const budgetKb = 120;
const webRoot = resolve('dist/web');

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  }
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-bench-bundle-'));
  const config = {
    ...parseConfig({
      NODE_ENV: 'production',
      DATABASE_PATH: join(dir, 'app.db'),
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      // A throwaway staff account, so start does not print a generated one.
      ADMIN_EMAIL: 'bench@lotwise.example',
      ADMIN_PASSWORD: 'bench-password-0123456789',
    }),
    sessionSecret: 'bench-session-secret-that-is-long-enough-0123456789',
  };
  const app = await buildApp(config, { webRoot });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });

  try {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    let counting = true;
    page.on('request', (request) => {
      if (counting && request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
    });
    await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'networkidle' });
    // Everything requested before the chat launcher's delay counts as first load.
    await page.waitForTimeout(timings.chatButtonDelayMs - 100);
    counting = false;

    let total = 0;
    const rows: [string, number, number][] = [];
    for (const path of scripts) {
      const source = readFileSync(join(webRoot, path));
      const gzip = gzipSync(source, { level: 9 }).length;
      total += gzip;
      rows.push([path, source.length, gzip]);
    }
    rows.sort((a, b) => b[2] - a[2]);
    for (const [path, raw, gzip] of rows) {
      console.log(`${(gzip / 1024).toFixed(2).padStart(8)} KB gzip  ${(raw / 1024).toFixed(1).padStart(7)} KB raw  ${path}`);
    }
    const totalKb = total / 1024;
    const verdict = totalKb <= budgetKb ? 'within' : 'OVER';
    console.log(`\nHome page first-load JS: ${totalKb.toFixed(2)} KB gzip in ${rows.length} files; budget ${budgetKb} KB (${verdict}, ${((totalKb / budgetKb) * 100).toFixed(0)}% of budget)`);
    if (totalKb > budgetKb) process.exitCode = 1;
  } finally {
    await browser.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
