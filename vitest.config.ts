import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['api/**/*.test.ts', 'db/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          // The API and socket suites again, on PostgreSQL and Redis as several processes use them
          // (test/setup/ starts one of each for the run, through scripts/services/), with the database layer's tests that
          // hold for both dialects.
          name: 'server-scaled',
          environment: 'node',
          include: ['api/**/*.test.ts', 'db/writes.test.ts', 'db/migrations.test.ts', 'scripts/backup.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          globalSetup: ['test/setup/postgres.ts', 'test/setup/redis.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/**/*.test.{ts,tsx}'],
          setupFiles: ['web/test/setup.ts'],
        },
      },
    ],
  },
});
