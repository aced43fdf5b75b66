import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** The 429 sentence of every limit, the same words as the per-IP limits of `security.ts`. */
export function tooManyRequestsMessage(ttlMs: number): string {
  return `Too many requests: please wait ${Math.ceil(ttlMs / 1000)} seconds and try again`;
}

/** A counter's answer: within its limit, or refused until its window ends. */
export type CounterResult = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * A limit on a key other than a route's client IP (an account, a visitor, an address), which the
 * per-route `config.rateLimit` cannot express. A fixed window per key: it starts at the key's first
 * hit and lasts `timeWindowMs`; an attempt refused still counts. Allowlisted clients are the
 * caller's to skip (`isAllowlisted`), before any limit is asked.
 */
export interface KeyedLimit {
  /** Counts one attempt; refused once the window holds more than `max`. */
  hit(key: string): Promise<CounterResult>;
  /** Whether one more attempt would be allowed (fewer than `max` so far), without counting it. */
  peek(key: string): Promise<CounterResult>;
  /** Counts one attempt, never refused, and answers how many the window now holds. */
  tally(key: string): Promise<number>;
  /** Takes back one attempt that `hit` counted (one that another limit refused after all). */
  refund(key: string): Promise<void>;
  /** Refuses the key for the next `ms`, whatever it held. */
  block(key: string, ms: number): Promise<void>;
}

const ok: CounterResult = { ok: true };

/** rate-limiter-flexible counts in whole seconds; a window never shrinks to none. */
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * A keyed limit on rate-limiter-flexible: with Redis its counters are shared by every process,
 * under `REDIS_KEY_PREFIX` + `rate-limit:<name>:` (the keys @fastify/rate-limit's store used). While
 * Redis cannot be reached, each process counts in its own memory instead (the insurance limiter),
 * so an outage neither refuses calls for want of a counter nor lifts the limits.
 */
export function keyedLimit(app: FastifyInstance, options: { name: string; max: number; timeWindowMs: number }): KeyedLimit {
  const { name, max, timeWindowMs } = options;
  const limits = { points: max, duration: seconds(timeWindowMs) };
  const inMemory = new RateLimiterMemory({ ...limits, keyPrefix: name });
  const limiter: RateLimiterAbstract = app.redis
    ? new RateLimiterRedis({
        ...limits,
        storeClient: app.redis.rateLimitClient,
        keyPrefix: `${app.redis.keyPrefix}rate-limit:${name}`,
        insuranceLimiter: inMemory,
        // No round trip to a Redis known to be away: the insurance counts at once.
        rejectIfRedisNotReady: true,
      })
    : inMemory;
  const retryAfter = (result: RateLimiterRes): CounterResult => ({ ok: false, retryAfterMs: result.msBeforeNext > 0 ? result.msBeforeNext : timeWindowMs });
  return {
    async hit(key) {
      try {
        await limiter.consume(key);
        return ok;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return retryAfter(refusal);
        throw refusal;
      }
    },
    async peek(key) {
      const counted = await limiter.get(key);
      return counted && counted.consumedPoints >= max ? retryAfter(counted) : ok;
    },
    async tally(key) {
      return (await limiter.penalty(key)).consumedPoints;
    },
    async refund(key) {
      await limiter.reward(key);
    },
    async block(key, ms) {
      await limiter.block(key, seconds(ms));
    },
  };
}

/** An address as the limits count it: IPv4-mapped IPv6 as IPv4, IPv6 by its /64 (one household or office). */
export function addressKey(address: string): string {
  return address ? normalizeIP(address) : 'unknown';
}

/** True for the addresses of `RATE_LIMIT_ALLOWLIST`, which skip every limit. */
export function isAllowlisted(allowlist: readonly string[], address: string | undefined): boolean {
  if (!address) return false;
  return allowlist.includes(address) || allowlist.includes(addressKey(address));
}

/**
 * Limits by client address, over every visitor identity it holds, so a client that drops its cookies
 * gains nothing. One address may be a whole dealership office behind one router: each is sized for
 * about 30 people chatting at once, each of them well within the per-visitor limits.
 */
export const perAddressLimits = {
  /**
   * Visitor identities issued (REST and socket handshakes) per 10 minutes: a browser keeps its one for
   * 400 days, so 30 people, their private windows and cleared cookies fit four times over.
   */
  newVisitors: { max: 120, timeWindowMs: 10 * 60_000 },
  /** Chat sessions started per 10 minutes: one per person who opens the chat, 30 people twice over. */
  newChatSessions: { max: 60, timeWindowMs: 10 * 60_000 },
  /** Chat messages per minute: 30 people each sending one every 15 seconds, faster than people type in a chat. */
  chatMessages: { max: 120, timeWindowMs: 60_000 },
  /** Sockets open at once: one per open tab (the chat widget's or the staff dashboard's), 30 people with 3 tabs and room to spare. */
  openSockets: 100,
} as const;

export interface AddressLimit {
  /** Counts one hit for the client address; allowlisted addresses are never counted or refused. */
  hit(address: string | undefined): Promise<CounterResult>;
  /** Takes back a hit counted for the address (one that another limit refused after all). */
  refund(address: string | undefined): Promise<void>;
}

export function addressLimit(
  app: FastifyInstance,
  options: { name: string; max: number; timeWindowMs: number; allowlist: readonly string[] },
): AddressLimit {
  const limit = keyedLimit(app, options);
  const skips = (address: string | undefined) => isAllowlisted(options.allowlist, address);
  return {
    hit: async (address) => (skips(address) ? ok : limit.hit(addressKey(address ?? ''))),
    refund: async (address) => (skips(address) ? undefined : limit.refund(addressKey(address ?? ''))),
  };
}
