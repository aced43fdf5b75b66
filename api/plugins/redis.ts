import fp from 'fastify-plugin';
import { Redis, type RedisOptions } from 'ioredis';
import { ConfigError } from '../config';

/** The connections to the Redis that several processes share (`REDIS_URL`), both ioredis. */
export interface SharedRedis {
  /**
   * The Socket.IO adapter (which duplicates it for its blocking stream reads and its subscriptions)
   * and staff presence. While Redis is away their commands wait for it (ioredis's offline queue): a
   * broadcast sent meanwhile still reaches the other processes, and the stream reader does not spin.
   */
  client: Redis;
  /**
   * @fastify/rate-limit's Redis store. No offline queue here: while Redis is away a counter fails at
   * once instead of holding the request (one retry for a command caught by a dropped connection), and
   * the limits let the request through uncounted (`skipOnError` in security.ts).
   */
  rateLimitClient: Redis;
  /** Prefix of every key and channel this app uses (`REDIS_KEY_PREFIX`). */
  keyPrefix: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set with `REDIS_URL`; without it everything shared lives in this process's memory. */
    redis: SharedRedis | undefined;
  }
}

/** The URL without its password, for messages. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** True for the loopback names and addresses (127.0.0.0/8, ::1, localhost). */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The warning a start logs when `REDIS_URL` names a Redis off this host without a password: anyone
 * who can reach it could write the Socket.IO adapter's stream and route a visitor's messages to
 * another socket, or reset the rate-limit counters. Undefined when there is nothing to warn of.
 */
export function unprotectedRedisWarning(url: string): string | undefined {
  const parsed = new URL(url);
  if (parsed.password || isLoopbackHost(parsed.hostname)) return undefined;
  return (
    `REDIS_URL (${shownUrl(url)}) has no password and is not on this host: anyone who can reach that Redis can read and ` +
    'write this site\'s messages and counters. Set requirepass (or an ACL user) in redis.conf and put the password in the URL: ' +
    'redis://:PASSWORD@host:6379 (see the README, "Run on several hosts").'
  );
}

/** Retry delay once connected (a short outage is waited out); no retry while starting, so start fails clearly. */
function retryDelayMs(retries: number): number {
  return Math.min(100 * 2 ** retries, 2000);
}

/**
 * Connects to Redis at start (start fails, naming REDIS_URL, if it cannot) and quits at close. The
 * plugins that use it register after it, so their own close hooks (the Socket.IO adapter's) run first.
 */
export default fp(
  async (app, options: { redis: { url: string; keyPrefix: string } | undefined }) => {
    if (!options.redis) {
      app.decorate('redis', undefined);
      return;
    }
    const { url, keyPrefix } = options.redis;
    const warning = unprotectedRedisWarning(url);
    if (warning) app.log.warn(warning);
    let started = false;
    /** Why the first connection failed: ioredis's connect() rejects with a bare "Connection is closed". */
    let refusal: unknown;
    const common: RedisOptions = {
      // connect() below, so a failed first connection fails the start; the adapter's copies connect the same way.
      lazyConnect: true,
      retryStrategy: (retries) => (started ? retryDelayMs(retries) : null),
    };
    const client = new Redis(url, common);
    const rateLimitClient = new Redis(url, { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    // Without listeners a connection error would crash the process; the clients reconnect on their own.
    for (const [connection, name] of [
      [client, 'redis'],
      [rateLimitClient, 'redis (rate limits)'],
    ] as const) {
      connection.on('error', (error: unknown) => {
        if (started) app.log.warn({ err: error }, `${name} connection error`);
        else refusal ??= error;
      });
    }

    try {
      await Promise.all([client.connect(), rateLimitClient.connect()]);
    } catch (error) {
      client.disconnect();
      rateLimitClient.disconnect();
      const cause = refusal ?? error;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new ConfigError(`Could not connect to Redis at REDIS_URL (${shownUrl(url)}): ${reason || 'connection refused'}`);
    }
    started = true;

    app.decorate('redis', { client, rateLimitClient, keyPrefix });
    app.addHook('onClose', async () => {
      // A client whose Redis is away is dropped: a polite close would wait for it to come back.
      await Promise.allSettled(
        [client, rateLimitClient].map((connection) =>
          connection.status === 'ready' ? connection.quit() : Promise.resolve(connection.disconnect()),
        ),
      );
    });
  },
  { name: 'redis' },
);
