import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { timings } from '../../api/contract/brand';

export const firstLoadBudgetKb = 120;
const webRoot = resolve('dist/web');

export interface ScriptSize {
  path: string;
  rawBytes: number;
  gzipBytes: number;
}

export interface FirstLoadJs {
  /** Every script the page requested before the chat button's delay, largest first. */
  scripts: ScriptSize[];
  totalGzipBytes: number;
  /** What was requested in the 1.5 s after that delay (the chat widget). */
  afterDelay: ScriptSize[];
}

const sizeOf = (path: string): ScriptSize => {
  const raw = readFileSync(join(webRoot, path));
  return { path, rawBytes: raw.length, gzipBytes: gzipSync(raw, { level: 9 }).length };
};

/**
 * Loads `path` of the built site in Chromium and sizes (gzip, from dist/web) every script it requested
 * within the chat launcher's delay from the start of navigation: the page's first-load JavaScript.
 */
export async function measureFirstLoadJs(origin: string, path = '/'): Promise<FirstLoadJs> {
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
    const started = Date.now();
    await page.goto(`${origin}${path}`, { waitUntil: 'load' });
    await page.waitForTimeout(Math.max(0, timings.chatButtonDelayMs - 100 - (Date.now() - started)));
    counting = false;
    await page.waitForTimeout(1500);

    const sized = [...scripts].map(sizeOf).sort((a, b) => b.gzipBytes - a.gzipBytes);
    return {
      scripts: sized,
      totalGzipBytes: sized.reduce((sum, script) => sum + script.gzipBytes, 0),
      afterDelay: [...afterDelay].map(sizeOf),
    };
  } finally {
    await browser.close();
  }
}
