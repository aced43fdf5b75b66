import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const serverTests = ['api', 'db', 'scripts', 'test'];

/** Every test file of the server project, under `serverTests`. */
function serverTestFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path);
      return entry.name.endsWith('.test.ts') ? [path] : [];
    });
  return serverTests.flatMap(walk);
}

/** A test that can only pass on the PostgreSQL run: left out of server-scaled, it would run nowhere. */
const postgresOnly = /skipIf\(\s*!onPostgres|runIf\(\s*onPostgres|freshPostgresUrl|testPostgresUrl/;

/**
 * The files that run again on PostgreSQL and Redis (project `server-scaled`): those whose first line is
 * `// @scaled: <why>`, because what they test depends on the dialect (a statement that differs per
 * dialect, a migration, a lock, claims and leases) or on several processes or nodes (Redis: the Socket.IO
 * adapter, shared counters; a kill -9). README "Tests on PostgreSQL and Redis" says how to decide. A file
 * with a PostgreSQL-only test must carry the mark, or that test would run nowhere: the config refuses it.
 */
function scaledTestFiles(): string[] {
  return serverTestFiles().filter((file) => {
    const source = readFileSync(file, 'utf8');
    const marked = /^\/\/ @scaled: \S/.test(source);
    if (!marked && postgresOnly.test(source)) {
      throw new Error(`${file} has a test for the PostgreSQL run only but no first line \`// @scaled: <why>\`: it would run nowhere`);
    }
    return marked;
  });
}

/**
 * What the server projects share: Node, the timeouts of tests that start servers, and one module graph
 * per worker (`isolate: false`). Every server test file imports the whole app, and importing it anew for
 * each file was most of the run (468 of 700 s summed, 2026-11-28); a file's state lives in the servers and
 * databases it makes, never in a module, so files share the imported modules and only pay once per
 * worker. The setup file gives every file its end-of-file cleanup (test/support/cleanup.ts).
 */
const serverProject = {
  environment: 'node' as const,
  testTimeout: 30_000,
  hookTimeout: 30_000,
  isolate: false,
  setupFiles: ['test/setup/file-end.ts'],
};

export default defineConfig({
  plugins: [react()],
  test: {
    // The server tests wait on servers, sockets and databases more than they compute: more files at once
    // than the one worker Vitest gives 2 cores by default; 3 timed out CPU-bound tests (password hashing) on a loaded machine.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    // expect.poll waits on the condition itself; 1 s (Vitest's default) is less than a push through
    // Redis takes with two test files and a build on 2 cores, so it waits up to 5 s before failing.
    expect: { poll: { timeout: 5000 } },
    projects: [
      {
        extends: true,
        test: {
          ...serverProject,
          name: 'server',
          include: serverTests.map((dir) => `${dir}/**/*.test.ts`),
        },
      },
      {
        extends: true,
        test: {
          // The tests marked `// @scaled: <why>` again, on PostgreSQL and Redis as several processes use them
          // (test/setup/ starts one of each for the run, through scripts/services/; each test server makes
          // its own database and takes its own Redis key prefix, so files in parallel do not meet).
          ...serverProject,
          name: 'server-scaled',
          include: scaledTestFiles(),
          globalSetup: ['test/setup/postgres.ts', 'test/setup/redis.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          // Their clocks are fake or absent, so a test's time is its rendering: a burst of 500 pushes, seconds
          // of it, ran past Vitest's 5 s default on a busy machine (2026-11-28). The limit is there to catch a hang.
          testTimeout: 15_000,
          include: ['web/**/*.test.{ts,tsx}'],
          setupFiles: ['web/test/setup.ts'],
        },
      },
    ],
  },
});
