import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import { z } from 'zod';
import { privateFileMode, privateFolderMode } from '../db/files';
import { defaultStaffIdleMinutes } from './contract/brand';
import { defaultPublicUrl } from './contract/web-pages';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((value) => value === 'true' || value === '1');

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value ? value : undefined));

/**
 * Which peers are proxies whose `X-Forwarded-For`/`-Proto` are believed: `false` (none, the default),
 * `true` (every peer), a hop count, or proxy addresses and CIDRs (proxy-addr's names such as
 * `loopback` too), checked here so a typo stops the start instead of trusting the wrong peer.
 */
const trustProxySetting = z
  .string()
  .default('')
  .transform((value, context): boolean | number | string[] => {
    const text = value.trim();
    if (text === '' || text === 'false' || text === '0') return false;
    if (text === 'true') return true;
    if (/^\d+$/.test(text)) return Number(text);
    const proxies = text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    try {
      proxyAddr.compile(proxies);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      context.addIssue({ code: 'custom', message: `must be true, a hop count, or comma-separated proxy addresses/CIDRs (${reason})` });
      return z.NEVER;
    }
    return proxies;
  });

/** Every environment variable the server reads, with its default; `.env.example` lists them too. */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_PATH: z.string().min(1).default('./data/app.db'),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for SQLite at DATABASE_PATH)')
        .optional(),
    ),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    ADMIN_EMAIL: z.email().optional(),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
    COOKIE_SECURE: booleanFlag,
    SMTP_URL: optionalString,
    MAIL_FROM: z.string().default('Lotwise <no-reply@lotwise.example>'),
    NOTIFY_EMAIL: z
      .string()
      .optional()
      .transform((value) => (value ? value : undefined))
      .pipe(z.email().optional()),
    // More staff notices (lead notices, escalations) than this due in one minute: the rest of that minute go out as one digest (0: never).
    NOTIFY_DIGEST_PER_MINUTE: z.coerce.number().int().min(0).max(10_000).default(10),
    // Internal: the digest's minute (tests shorten it).
    NOTIFY_DIGEST_WINDOW_SECONDS: z.coerce.number().positive().max(3600).default(60),
    // The mail policy's caps (api/modules/mail): mails to one visitor address an hour, and mails to
    // addresses that never proved they want ours, across the site, an hour (0: no cap).
    MAIL_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(0).max(10_000).default(10),
    MAIL_UNVERIFIED_PER_HOUR: z.coerce.number().int().min(0).max(10_000_000).default(2000),
    // Where people reach the site: put in mailed links and, at start, in the public pages' own links.
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http:// or https:// address' })
      .refine((value) => !/[?#\s"'<>&\\]/.test(value), 'PUBLIC_URL must be an address with no query, fragment, quotes or spaces')
      .default(defaultPublicUrl),
    STAFF_IDLE_MINUTES: z.coerce.number().positive().max(24 * 60).default(defaultStaffIdleMinutes),
    RATE_LIMIT_ALLOWLIST: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((ip) => ip.trim())
          .filter(Boolean),
      ),
    TRUST_PROXY: trustProxySetting,
    DATA_DIR: z.string().default('./data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    REDIS_URL: optionalString.pipe(
      z
        .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
        .optional(),
    ),
    // Internal: lets tests and benches share one Redis without sharing counters.
    REDIS_KEY_PREFIX: z.string().min(1).default('lotwise:'),
    // Internal: how long a staff socket counts as online after its process last refreshed it.
    PRESENCE_TTL_SECONDS: z.coerce.number().positive().max(3600).default(20),
    // How long a node's claim on a job lasts: a job of a node that died is taken again after it.
    JOBS_LEASE_SECONDS: z.coerce.number().positive().max(24 * 3600).default(60),
    // The first retry of a failed job after this; each next one waits twice as long, at most an hour.
    JOBS_RETRY_BASE_SECONDS: z.coerce.number().positive().max(3600).default(10),
    // Internal: how long a failing job is retried before it is dead (tests shorten the 24 hours).
    JOBS_RETRY_FOR_SECONDS: z.coerce.number().positive().default(24 * 3600),
    // Internal: the longest wait between two looks at the jobs table when nothing is due.
    JOBS_POLL_MS: z.coerce.number().int().positive().max(60_000).default(1000),
    // The jobs of each class one node runs at once (api/jobs/runner.ts jobClasses): a class never takes
    // another's slots. access = password-reset and invite mail; mail = every other mail; realtime = quick
    // in-product work (auto-assignment, rating ask); webhook = deliveries; maintenance = sweeps, retention.
    JOBS_SLOTS_ACCESS: z.coerce.number().int().positive().max(100).optional(),
    JOBS_SLOTS_MAIL: z.coerce.number().int().positive().max(100).optional(),
    JOBS_SLOTS_REALTIME: z.coerce.number().int().positive().max(100).optional(),
    JOBS_SLOTS_WEBHOOK: z.coerce.number().int().positive().max(100).optional(),
    JOBS_SLOTS_MAINTENANCE: z.coerce.number().int().positive().max(100).optional(),
    // Internal (tests, benches): the slots of every class not set on its own above.
    JOBS_CONCURRENCY: z.coerce.number().int().positive().max(100).optional(),
    // Internal: the least time between two password-reset mails to one dealer (tests shorten it).
    RESET_MAIL_SPACING_SECONDS: z.coerce.number().positive().max(3600).default(180),
    // A staff reply the visitor has not seen this long is mailed to them (when the chat has their email).
    CONTINUITY_DELAY_SECONDS: z.coerce.number().positive().max(24 * 3600).default(120),
    // Internal: the least time between two continuity mails of one chat (tests shorten the 10 minutes).
    CONTINUITY_MAIL_SPACING_SECONDS: z.coerce.number().positive().max(24 * 3600).default(600),
    // A visitor message no staff member has read this long after it came is mailed to NOTIFY_EMAIL.
    ESCALATION_DELAY_SECONDS: z.coerce.number().positive().max(24 * 3600).default(180),
    // Internal: the widget asks for a rating this long after the last staff reply (tests shorten it).
    RATING_ASK_DELAY_SECONDS: z.coerce.number().positive().max(7 * 24 * 3600).default(30 * 60),
    // /readyz calls the job runner stuck when it has not looked for due jobs for this long.
    JOBS_STUCK_SECONDS: z.coerce.number().positive().max(24 * 3600).default(30),
    // Load shedding (@fastify/under-pressure): 503 with Retry-After once the event loop lags this much (0: never).
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().min(0).default(1000),
    // The same once the event loop is busy this share of the time (0 to 1; 0: never).
    PRESSURE_MAX_EVENT_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
    PRESSURE_RETRY_AFTER_SECONDS: z.coerce.number().int().positive().max(3600).default(10),
    // Internal: how often the pressure is measured (tests shorten it).
    PRESSURE_SAMPLE_INTERVAL_MS: z.coerce.number().int().positive().max(60_000).default(1000),
    // GET /metrics (Prometheus): `off` takes the route and every measurement away.
    METRICS: z.enum(['on', 'off']).default('on'),
    // A scraper off this host sends `Authorization: Bearer <token>`; loopback needs none.
    METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    // Lets webhooks reach private, loopback and link-local addresses (tests, a receiver on the same network).
    WEBHOOK_ALLOW_PRIVATE: booleanFlag,
    // A webhook receiver that has not answered in this long has failed that try.
    WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(10),
    // New anonymous conversations and visitor messages a node takes per day (UTC) before it stops mailing for
    // anonymous traffic and alerts staff; past them it still accepts every chat (api/plugins/anonymous-budget.ts).
    ANONYMOUS_DAILY_CONVERSATIONS: z.coerce.number().int().positive().default(2000),
    ANONYMOUS_DAILY_MESSAGES: z.coerce.number().int().positive().default(20_000),
    // Chats and leads older than this many days are erased by a daily job; unset keeps everything.
    RETENTION_DAYS: optionalString.pipe(z.coerce.number<string | undefined>().int().positive().max(36_500).optional()),
  })
  .transform((env) => ({
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    /** PostgreSQL at `url` when DATABASE_URL is set, else SQLite at `path` (db/open.ts). */
    database: {
      url: env.DATABASE_URL,
      path: env.DATABASE_PATH === ':memory:' ? ':memory:' : resolve(env.DATABASE_PATH),
      poolSize: env.DATABASE_POOL_SIZE,
    },
    sessionSecret: env.SESSION_SECRET,
    adminEmail: env.ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD,
    cookieSecure: env.COOKIE_SECURE,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    notifyEmail: env.NOTIFY_EMAIL,
    /** Staff notices beyond `perWindow` due in one window go out as one digest; `perWindow` 0 turns it off. */
    notifyDigest: { perWindow: env.NOTIFY_DIGEST_PER_MINUTE, windowMs: env.NOTIFY_DIGEST_WINDOW_SECONDS * 1000 },
    mailCaps: { perAddressPerHour: env.MAIL_PER_ADDRESS_PER_HOUR, unverifiedPerHour: env.MAIL_UNVERIFIED_PER_HOUR },
    publicUrl: env.PUBLIC_URL.replace(/\/$/, ''),
    staffIdleMinutes: env.STAFF_IDLE_MINUTES,
    rateLimitAllowlist: env.RATE_LIMIT_ALLOWLIST,
    trustProxy: env.TRUST_PROXY,
    dataDir: resolve(env.DATA_DIR),
    logLevel: env.LOG_LEVEL,
    redis: env.REDIS_URL ? { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX } : undefined,
    presenceTtlSeconds: env.PRESENCE_TTL_SECONDS,
    resetMailSpacingSeconds: env.RESET_MAIL_SPACING_SECONDS,
    /** Email continuity (api/modules/chat/continuity/chat.continuity.ts): the unseen wait, and the least time between two mails of one chat. */
    continuity: { delayMs: env.CONTINUITY_DELAY_SECONDS * 1000, spacingMs: env.CONTINUITY_MAIL_SPACING_SECONDS * 1000 },
    /** Escalation of unread visitor messages and the rating's ask (DESIGN.md 10). */
    chatFollowUp: { escalationDelayMs: env.ESCALATION_DELAY_SECONDS * 1000, ratingAskDelayMs: env.RATING_ASK_DELAY_SECONDS * 1000 },
    /** Webhooks (api/modules/webhooks): private addresses allowed only when set; a try's time limit. */
    webhooks: { allowPrivate: env.WEBHOOK_ALLOW_PRIVATE, timeoutMs: env.WEBHOOK_TIMEOUT_SECONDS * 1000 },
    /** A node's daily bound on anonymous traffic (api/plugins/anonymous-budget.ts). */
    anonymousDaily: { conversations: env.ANONYMOUS_DAILY_CONVERSATIONS, messages: env.ANONYMOUS_DAILY_MESSAGES },
    /** Days after which chats and leads are erased (api/modules/privacy); undefined: kept for ever. */
    retentionDays: env.RETENTION_DAYS,
    jobs: {
      leaseMs: env.JOBS_LEASE_SECONDS * 1000,
      retryBaseMs: env.JOBS_RETRY_BASE_SECONDS * 1000,
      retryForMs: env.JOBS_RETRY_FOR_SECONDS * 1000,
      pollMs: env.JOBS_POLL_MS,
      slots: {
        access: env.JOBS_SLOTS_ACCESS ?? env.JOBS_CONCURRENCY ?? 2,
        mail: env.JOBS_SLOTS_MAIL ?? env.JOBS_CONCURRENCY ?? 4,
        realtime: env.JOBS_SLOTS_REALTIME ?? env.JOBS_CONCURRENCY ?? 2,
        webhook: env.JOBS_SLOTS_WEBHOOK ?? env.JOBS_CONCURRENCY ?? 4,
        maintenance: env.JOBS_SLOTS_MAINTENANCE ?? env.JOBS_CONCURRENCY ?? 1,
      },
      stuckAfterMs: env.JOBS_STUCK_SECONDS * 1000,
    },
    /** Load shedding (api/plugins/health.ts); a limit of 0 is off. */
    pressure: {
      maxEventLoopDelayMs: env.PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
      maxEventLoopUtilization: env.PRESSURE_MAX_EVENT_LOOP_UTILIZATION,
      retryAfterSeconds: env.PRESSURE_RETRY_AFTER_SECONDS,
      sampleIntervalMs: env.PRESSURE_SAMPLE_INTERVAL_MS,
    },
    /** GET /metrics (api/plugins/metrics.ts). */
    metrics: { enabled: env.METRICS === 'on', token: env.METRICS_TOKEN },
  }));

export type ParsedConfig = z.infer<typeof configSchema>;
/** The configuration the app runs with: the session secret is always settled. */
export type Config = ParsedConfig & { sessionSecret: string };

export class ConfigError extends Error {}

/** Parses the environment once; a bad value names its variable. */
export function parseConfig(environment: Record<string, string | undefined>): ParsedConfig {
  const result = configSchema.safeParse(environment);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/**
 * The session secret from the environment, or one generated once and kept in the data folder. With
 * Redis, several processes serve the same visitors, so they must all sign alike: the secret is required.
 */
export function settleSessionSecret(config: ParsedConfig): Config {
  if (config.sessionSecret) return { ...config, sessionSecret: config.sessionSecret };
  if (config.redis) {
    throw new ConfigError(
      'Invalid configuration:\n  SESSION_SECRET: required when REDIS_URL is set (every process must sign cookies with the same secret)',
    );
  }
  const file = resolve(config.dataDir, 'session-secret');
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return { ...config, sessionSecret: kept };
  }
  const generated = randomBytes(48).toString('base64url');
  mkdirSync(dirname(file), { recursive: true, mode: privateFolderMode });
  writeFileSync(file, `${generated}\n`, { mode: privateFileMode });
  return { ...config, sessionSecret: generated };
}

/** Reads `.env` when present (the real environment wins), then parses. */
export function loadConfig(): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return settleSessionSecret(parseConfig(process.env));
}
