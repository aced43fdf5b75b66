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
}

/**
 * A limit on something other than the client IP (an account, an email address), which the
 * per-route `config.rateLimit` cannot express. Allowlisted IPs skip it like every other limit.
 */
export function keyedLimit(
  app: FastifyInstance,
  options: { name: string; max: number; timeWindowMs: number; allowlist: string[] },
): KeyedLimit {
  const keys = new WeakMap<FastifyRequest, string>();
  const limiter = app.createRateLimit({
    max: options.max,
    timeWindow: options.timeWindowMs,
    keyGenerator: (request) => keys.get(request) ?? request.ip,
  });
  /** The ttl left when this attempt is over the limit, else undefined. */
  const over = async (request: FastifyRequest, key: string, increment: boolean): Promise<number | undefined> => {
    if (options.allowlist.includes(request.ip)) return undefined;
    keys.set(request, `${options.name}:${key}`);
    const result = await limiter(request, { increment });
    if (result.isAllowed) return undefined;
    // A peek sees the attempts made so far: at the limit means the next one would be refused.
    const refused = increment ? result.isExceeded : result.remaining === 0;
    return refused ? result.ttl || options.timeWindowMs : undefined;
  };
  const run = async (request: FastifyRequest, key: string, increment: boolean) => {
    const ttl = await over(request, key, increment);
    if (ttl !== undefined) throw new HttpError(429, tooManyRequestsMessage(ttl));
  };
  return {
    hit: (request, key) => run(request, key, true),
    check: (request, key) => run(request, key, false),
    take: async (request, key) => (await over(request, key, true)) === undefined,
  };
}
