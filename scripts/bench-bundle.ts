/**
 * Home page JavaScript budget (120 KB gzip on first load): builds the SPA, serves it with the real server on a
 * throwaway database, loads `/` in Chromium and sums the gzip size of every script the page requested
 * before the chat button's 2 s delay. Exits non-zero over budget.
 *
 *   npm run bench:bundle            (build first)
 *   npm run bench:bundle -- --no-build
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { timings } from '../api/contract/brand';
import { startBuiltSite } from './bench/built-site';

const budgetKb = 120;
const webRoot = resolve('dist/web');

async function main(): Promise<void> {
  const site = await startBuiltSite('bundle');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });

  try {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    const afterDelay = new Set<string>();
    let counting = true;
    page.on('request', (request) => {
      if (request.resourceType() !== 'script') return;
      (counting ? scripts : afterDelay).add(new URL(request.url()).pathname);
    });
    // Everything requested within the chat launcher's delay from the start of navigation counts as
    // first load; the chat widget itself loads after that delay and has its own 30 KB budget.
    const started = Date.now();
    await page.goto(`${site.origin}/`, { waitUntil: 'load' });
    await page.waitForTimeout(Math.max(0, timings.chatButtonDelayMs - 100 - (Date.now() - started)));
    counting = false;

    // What the chat launcher fetches after its delay (the widget: at most 30 KB gzip more).
    await page.waitForTimeout(1500);

    const gzipSize = (path: string) => gzipSync(readFileSync(join(webRoot, path)), { level: 9 }).length;
    let total = 0;
    const rows: [string, number, number][] = [];
    for (const path of scripts) {
      const gzip = gzipSize(path);
      total += gzip;
      rows.push([path, readFileSync(join(webRoot, path)).length, gzip]);
    }
    rows.sort((a, b) => b[2] - a[2]);
    for (const [path, raw, gzip] of rows) {
      console.log(`${(gzip / 1024).toFixed(2).padStart(8)} KB gzip  ${(raw / 1024).toFixed(1).padStart(7)} KB raw  ${path}`);
    }
    const totalKb = total / 1024;
    const verdict = totalKb <= budgetKb ? 'within' : 'OVER';
    console.log(`\nHome page first-load JS: ${totalKb.toFixed(2)} KB gzip in ${rows.length} files; budget ${budgetKb} KB (${verdict}, ${((totalKb / budgetKb) * 100).toFixed(0)}% of budget)`);
    const laterKb = [...afterDelay].reduce((sum, path) => sum + gzipSize(path), 0) / 1024;
    console.log(`After the ${timings.chatButtonDelayMs / 1000} s delay: ${laterKb.toFixed(2)} KB gzip more (${[...afterDelay].join(', ') || 'nothing'}); chat budget 30 KB`);
    if (totalKb > budgetKb) process.exitCode = 1;
  } finally {
    await browser.close();
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
