/**
 * Renders the link-preview image (og:image, 1200x630) from og-image.svg beside this file into
 * web/public/og-image.png, which is committed: run it after changing the SVG, and look at the result.
 *
 *   node --import tsx scripts/og-image/render.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';

const svg = readFileSync(join(import.meta.dirname, 'og-image.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
  await page.screenshot({ path: join(import.meta.dirname, '../../web/public/og-image.png'), clip: { x: 0, y: 0, width: 1200, height: 630 } });
} finally {
  await browser.close();
}
