import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** How long the condition may take before the wait fails (default 20 s). */
  timeoutMs?: number;
  /** How often it is asked (default 20 ms). */
  intervalMs?: number;
  /** What the failure says was awaited. */
  what?: string;
}

/**
 * Waits until `condition` answers something truthy, and answers it: a test waits on the thing it
 * needs (a row, a mail, a state), never for a time it hopes is long enough. Asked at once, then every
 * `intervalMs`; past `timeoutMs` it fails, saying what it waited for and the last answer or error.
 * Free of Vitest, so Playwright and the scripts use it too.
 */
export async function waitUntil<T>(condition: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const { timeoutMs = 20_000, intervalMs = 20, what = 'the condition' } = options;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    let last: unknown;
    try {
      const answer = await condition();
      if (answer) return answer;
      last = answer;
    } catch (error) {
      last = error;
    }
    if (performance.now() > deadline) {
      const told = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`waited ${timeoutMs} ms for ${what}; last: ${told}`);
    }
    await sleep(intervalMs);
  }
}

/** Waits until `check` stops throwing (an `expect` that will come true), and answers what it returns. */
export async function waitFor<T>(check: () => T | Promise<T>, options: WaitOptions = {}): Promise<T> {
  let value: T | undefined;
  await waitUntil(async () => {
    value = await check();
    return true;
  }, options);
  return value as T;
}
