import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://127.0.0.1:${port}`;

/**
 * Browser tests: Debian's Chromium against the built app, started as a user would start it: the
 * compiled server of `npm start`, built from the current source first (esbuild takes a moment), so a
 * run never tests a stale build. The web app is built by `npm run test:e2e` (or `npx vite build`).
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'rm -rf .e2e-data && npm run --silent build:server && node dist/server/server.js',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: '.e2e-data',
      DATABASE_PATH: '.e2e-data/app.db',
      PUBLIC_URL: baseURL,
      ADMIN_EMAIL: 'staff@lotwise.example',
      ADMIN_PASSWORD: 'staff-password-123',
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
  },
});
