import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests: Debian's Chromium against the built app (`npm run build`: `npm ci` runs it, `npm test`
 * again when the source is newer; the global setup refuses a missing or stale build rather than testing
 * it). Each worker starts its own server, as `npm start` starts it, on a free port with its own data
 * (e2e/support/test.ts), so the specs can run in parallel. A worker is a browser and a server, two
 * busy processes: one worker per two cores (E2E_WORKERS overrides it). On 2 cores two workers took
 * 14.6 minutes against 15.4 for one, and a three-page journey ran out of its 30 s beside the other.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  globalSetup: './e2e/support/fresh-build.ts',
  fullyParallel: false,
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : '50%',
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
});
