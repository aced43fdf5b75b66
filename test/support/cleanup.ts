import { onTestFinished } from 'vitest';

/** What waits for the end of the test file: the cleanups of things made outside a running test. */
const atFileEnd: (() => unknown)[] = [];

/**
 * Runs the cleanups waiting for the end of the test file, last made first. The server projects' setup
 * file (test/setup/file-end.ts) registers it as an `afterAll` of every file: a setup file runs again
 * before each test file, while this module, imported once per worker (the server projects share their
 * modules between files), could not register it for more than the first.
 */
export async function cleanUpFileEnd(): Promise<void> {
  for (const cleanup of atFileEnd.splice(0).reverse()) await cleanup();
}

/**
 * Runs `cleanup` when what it undoes is done with, and never drops it: at the end of the running test
 * when called inside one (`onTestFinished`), else at the end of the test file, last made first cleaned.
 * Every helper that starts a server, a process or a folder registers its cleanup here.
 */
export function cleanUpLater(cleanup: () => unknown): void {
  // Vitest says itself whether a test is running: onTestFinished throws outside one. (expect's state
  // is no witness: in a beforeAll after a test it still names that test.)
  try {
    onTestFinished(async () => void (await cleanup()));
  } catch {
    atFileEnd.push(cleanup);
  }
}
