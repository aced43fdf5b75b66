import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

/** The 429 sentence of every limit, the same words as the per-IP limits of `security.ts`. */
export function tooManyRequestsMessage(ttlMs: number): string {
  return `Too many requests: please wait ${Math.ceil(ttlMs / 1000)} seconds and try again`;
}

export interface KeyedLimit {
  /** Counts one attempt for this request's key; throws 429 once the key is over its limit. */
  hit(request: FastifyRequest, key: string): Promise<void>;
  /** Throws 429 if the key is already at its limit, without counting this attempt. */
  check(request: FastifyRequest, key: string): Promise<void>;
  /** Counts one attempt for this key; false once the key is over its limit (for limits that refuse silently). */
  take(request: FastifyRequest, key: string): Promise<boolean>;
  /** True while the key is under its limit, without counting this attempt. */
  allows(request: FastifyRequest, key: string): Promise<boolean>;
  /** Counts one attempt for this key and answers how many its window now holds (0 for allowlisted IPs). */
  tally(request: FastifyRequest, key: string): Promise<number>;
}

/**
 * A limit on something other than the client IP (an account, an email address), which the
 * per-route `config.rateLimit` cannot express. Allowlisted IPs skip it like every other limit.
 * `timeWindowMs` may depend on the request: a window that grows with an attack, say.
 */
export function keyedLimit(
  app: FastifyInstance,
  options: { name: string; max: number; timeWindowMs: number | ((request: FastifyRequest) => number); allowlist: readonly string[] },
): KeyedLimit {
  const keys = new WeakMap<FastifyRequest, string>();
  const { timeWindowMs } = options;
  const limiter = app.createRateLimit({
    max: options.max,
    timeWindow: typeof timeWindowMs === 'number' ? timeWindowMs : (request) => timeWindowMs(request),
    keyGenerator: (request) => keys.get(request) ?? request.ip,
  });
  const fallbackWindow = (request: FastifyRequest) => (typeof timeWindowMs === 'number' ? timeWindowMs : timeWindowMs(request));
  const apply = async (request: FastifyRequest, key: string, increment: boolean) => {
    if (isAllowlisted(options.allowlist, request.ip)) return undefined;
    keys.set(request, `${options.name}:${key}`);
    return limiter(request, { increment });
  };
  /** The ttl left when this attempt is over the limit, else undefined. */
  const over = async (request: FastifyRequest, key: string, increment: boolean): Promise<number | undefined> => {
    const result = await apply(request, key, increment);
    if (!result || result.isAllowed) return undefined;
    // A peek sees the attempts made so far: at the limit means the next one would be refused.
    const refused = increment ? result.isExceeded : result.remaining === 0;
    return refused ? result.ttl || fallbackWindow(request) : undefined;
  };
  const run = async (request: FastifyRequest, key: string, increment: boolean) => {
    const ttl = await over(request, key, increment);
    if (ttl !== undefined) throw new HttpError(429, tooManyRequestsMessage(ttl));
  };
  return {
    hit: (request, key) => run(request, key, true),
    check: (request, key) => run(request, key, false),
    take: async (request, key) => (await over(request, key, true)) === undefined,
    allows: async (request, key) => (await over(request, key, false)) === undefined,
    tally: async (request, key) => {
      const result = await apply(request, key, true);
      return !result || result.isAllowed ? 0 : result.max - result.remaining;
    },
  };
}

/** A counter's answer: within its limit, or refused until its window ends. */
export type CounterResult = { ok: true } | { ok: false; retryAfterMs: number };

export interface WindowCounter {
  /** Counts one hit for `key`. */
  hit(key: string): Promise<CounterResult>;
}

/** What @fastify/rate-limit reads of the "request" it is given: the key (our keyGenerator) and the route's groupId. */
interface CounterProbe {
  routeOptions: { config: Record<string, never> };
  counterKey: string;
}

/**
 * A fixed-window counter for limits counted outside a route's own `config.rateLimit` (socket
 * handshakes and events, service calls), kept in @fastify/rate-limit's store: when that store moves
 * to Redis for several processes, these counters move with it.
 */
export function windowCounter(app: FastifyInstance, options: { name: string; max: number; timeWindowMs: number }): WindowCounter {
  // The in-memory store keeps this many keys per counter, dropping the least recently used first (a
  // few hundred bytes each): the plugin's default of 5,000 is small for a key per visitor.
  const limitOptions: Parameters<FastifyInstance['createRateLimit']>[0] & { cache: number } = {
    max: options.max,
    timeWindow: options.timeWindowMs,
    cache: 20_000,
    keyGenerator: (request) => (request as unknown as CounterProbe).counterKey,
  };
  const limiter = app.createRateLimit(limitOptions);
  return {
    async hit(key) {
      const probe: CounterProbe = { routeOptions: { config: {} }, counterKey: `${options.name}:${key}` };
      const result = await limiter(probe as unknown as FastifyRequest);
      if (result.isAllowed || !result.isExceeded) return { ok: true };
      return { ok: false, retryAfterMs: result.ttl || options.timeWindowMs };
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
}

export function addressLimit(
  app: FastifyInstance,
  options: { name: string; max: number; timeWindowMs: number; allowlist: readonly string[] },
): AddressLimit {
  const counter = windowCounter(app, options);
  return {
    hit: async (address) => (isAllowlisted(options.allowlist, address) ? { ok: true } : counter.hit(addressKey(address ?? ''))),
  };
}
