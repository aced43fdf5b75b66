// @scaled: failure counters in Redis
import { describe, expect, it } from 'vitest';
import { underAttackAfterFailures, waitAfterFailureMs } from './sign-in-guard';

describe('the wait after an untrusted failure', () => {
  it('is nothing until the account is under attack, then doubles every 20 failures up to 15 minutes', () => {
    expect(waitAfterFailureMs(0)).toBe(0);
    expect(waitAfterFailureMs(underAttackAfterFailures - 1)).toBe(0);
    expect(waitAfterFailureMs(underAttackAfterFailures)).toBe(1000);
    expect(waitAfterFailureMs(39)).toBe(1000);
    expect(waitAfterFailureMs(40)).toBe(2000);
    expect(waitAfterFailureMs(100)).toBe(16_000);
    expect(waitAfterFailureMs(10_000)).toBe(15 * 60_000);
  });
});
