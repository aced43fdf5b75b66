import { z } from 'zod';

/** The operator's endpoints (README "Operating it"): probes and metrics outside `/api`, the API's own description under it. */
export const operatorPaths = {
  /** The process answers: no database, never shed. */
  healthz: '/healthz',
  /** The database, Redis (when configured) and the job runner answer; 503 names what does not. */
  readyz: '/readyz',
  /** Prometheus text, to loopback or a bearer token. */
  metrics: '/metrics',
  openapi: '/api/openapi.json',
  docs: '/api/docs',
} as const;

export const livenessSchema = z.object({ ok: z.literal(true) });

/** The parts /readyz checks, as named in `failing`. */
export const readinessParts = ['database', 'redis', 'jobs', 'pressure'] as const;
export type ReadinessPart = (typeof readinessParts)[number];

/** One part's state: `error` says why it failed in words that name no host or secret (the log has the cause). */
const partSchema = z.object({ ok: z.boolean(), error: z.string().optional() });

/**
 * This node's anonymous traffic today (UTC): new visitor conversations and visitor messages against
 * ANONYMOUS_DAILY_CONVERSATIONS / _MESSAGES. Over either, the node still takes chats but mails nothing
 * caused by anonymous traffic until the day ends. Not a readiness failure: a detail for operators.
 */
export const anonymousBudgetSchema = z.object({
  day: z.string(),
  conversations: z.number().int(),
  messages: z.number().int(),
  dailyConversations: z.number().int(),
  dailyMessages: z.number().int(),
  overToday: z.boolean(),
});
export type AnonymousBudgetStatus = z.infer<typeof anonymousBudgetSchema>;

export const readinessSchema = z.object({
  ready: z.boolean(),
  /** The parts that failed: empty when ready. */
  failing: z.array(z.enum(readinessParts)),
  checks: z.object({
    database: partSchema.extend({ ms: z.number().optional() }),
    /** Absent without REDIS_URL. */
    redis: partSchema.extend({ ms: z.number().optional() }).optional(),
    jobs: partSchema.extend({ lastLookSecondsAgo: z.number().nullable(), running: z.number().int() }),
    /** The event loop's lag at its last sample (null before the first); failing while requests are shed. */
    pressure: partSchema.extend({ eventLoopDelayMs: z.number().nullable() }),
  }),
  anonymousTraffic: anonymousBudgetSchema,
});
export type Readiness = z.infer<typeof readinessSchema>;
