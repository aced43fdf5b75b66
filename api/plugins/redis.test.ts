// @scaled: the Redis connection itself
import { describe, expect, it } from 'vitest';
import { unprotectedRedisWarning } from './redis';

describe('REDIS_URL without a password', () => {
  it('warns of a Redis on another host with no password, naming the fix', () => {
    const warning = unprotectedRedisWarning('redis://10.0.0.7:6379');
    expect(warning).toContain('REDIS_URL (redis://10.0.0.7:6379) has no password');
    expect(warning).toContain('redis://:PASSWORD@host:6379');
    expect(unprotectedRedisWarning('rediss://redis.internal.example:6380/0')).toBeDefined();
    expect(unprotectedRedisWarning('redis://user@10.0.0.7:6379')).toBeDefined();
  });

  it('says nothing of a Redis on loopback or one with a password', () => {
    for (const url of ['redis://127.0.0.1:6379', 'redis://localhost:6379', 'redis://[::1]:6379', 'redis://127.0.0.2:6390']) {
      expect(unprotectedRedisWarning(url)).toBeUndefined();
    }
    expect(unprotectedRedisWarning('redis://:s3cret@10.0.0.7:6379')).toBeUndefined();
    expect(unprotectedRedisWarning('redis://app:s3cret@redis.internal.example:6379')).toBeUndefined();
  });
});
