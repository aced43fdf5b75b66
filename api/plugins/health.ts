import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Config } from '../config';
import { type EventLoopLag, measuredEventLoopLag } from '../lib/event-loop-lag';
import { livenessSchema, operatorPaths, type Readiness, type ReadinessPart, readinessSchema } from '../contract/operations';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/under-pressure's handler for this route: `letThrough` exempts it from shedding. */
    pressureHandler?: (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => Promise<void> | void;
  }
}

/** A route that answers under pressure too: probes and scrapes must see a busy node, not a refusal. */
export const letThrough = (): void => undefined;

/** How long one readiness check may take: a database that hangs fails the probe instead of holding it. */
const checkTimeoutMs = 2000;

export function busyMessage(retryAfterSeconds: number): string {
  return `The server is busy: please try again in ${retryAfterSeconds} seconds`;
}

class CheckTimeout extends Error {}

async function timed(check: () => Promise<unknown>): Promise<{ ok: true; ms: number } | { ok: false; error: string; cause: unknown }> {
  const startedAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new CheckTimeout()), checkTimeoutMs);
      }),
    ]);
    return { ok: true, ms: Math.round((performance.now() - startedAt) * 10) / 10 };
  } catch (error) {
    return { ok: false, error: error instanceof CheckTimeout ? `no answer within ${checkTimeoutMs} ms` : 'unreachable', cause: error };
  } finally {
    clearTimeout(timer);
  }
}

/** Each part's state now, one trivial question each, asked at once. */
async function readiness(app: FastifyInstance, config: Config, pressure: Pressure): Promise<Readiness> {
  const shared = app.redis;
  const [database, redis] = await Promise.all([
    timed(() => sql`select 1`.execute(app.db)),
    shared
      ? timed(async () => {
          // The rate-limit connection has no offline queue: while Redis is away its PING fails at once.
          await shared.rateLimitClient.ping();
          if (shared.client.status !== 'ready') throw new Error(`redis connection ${shared.client.status}`);
        })
      : undefined,
  ]);
  const runner = app.jobs.liveness();
  const jobsOk = runner.started && runner.behindMs <= config.jobs.stuckAfterMs;
  const eventLoopDelayMs = pressure.eventLoopDelayMs();
  const underPressure = pressure.shedding();

  const failures: { part: ReadinessPart; cause: unknown }[] = [];
  if (!database.ok) failures.push({ part: 'database', cause: database.cause });
  if (redis && !redis.ok) failures.push({ part: 'redis', cause: redis.cause });
  if (!jobsOk) failures.push({ part: 'jobs', cause: runner.started ? `behind on the jobs table for ${runner.behindMs} ms` : 'not running' });
  if (underPressure) failures.push({ part: 'pressure', cause: `event loop delay ${eventLoopDelayMs ?? 'not measured yet'} ms` });
  reportChange(app, failures);

  const part = (result: Awaited<ReturnType<typeof timed>>) => (result.ok ? { ok: true, ms: result.ms } : { ok: false, error: result.error });
  return {
    ready: failures.length === 0,
    failing: failures.map((failure) => failure.part),
    checks: {
      database: part(database),
      ...(redis ? { redis: part(redis) } : {}),
      jobs: {
        ok: jobsOk,
        ...(jobsOk ? {} : { error: runner.started ? 'the job runner is stuck' : 'the job runner is not running' }),
        lastLookSecondsAgo: runner.started ? Math.round(runner.behindMs / 100) / 10 : null,
        running: runner.running,
      },
      pressure: { ok: !underPressure, ...(underPressure ? { error: 'requests are being shed' } : {}), eventLoopDelayMs },
    },
    // A detail, never a failure: over its budget the node still takes every chat (api/plugins/anonymous-budget.ts).
    anonymousTraffic: app.anonymousBudget.status(),
  };
}

/** Whether requests are being shed now, and the lag to report. */
interface Pressure {
  /** The lag, rounded; null before its first sample (never NaN or Infinity: JSON has neither). */
  eventLoopDelayMs(): number | null;
  shedding(): boolean;
}

/** The parts failing at the last probe: the log tells each change once, not every probe. */
const lastFailing = new WeakMap<FastifyInstance, string>();

function reportChange(app: FastifyInstance, failures: { part: ReadinessPart; cause: unknown }[]): void {
  const now = failures.map((failure) => failure.part).join(',');
  if ((lastFailing.get(app) ?? '') === now) return;
  lastFailing.set(app, now);
  if (failures.length === 0) app.log.info('ready again');
  for (const { part, cause } of failures) app.log.warn({ part, err: cause }, `not ready: ${part}`);
}

/**
 * The probes and the load shedding. `GET /healthz`: the process answers (nothing else is asked, so
 * a busy database never gets a node restarted). `GET /readyz`: the database, Redis and the job runner
 * answer and requests are not being shed; 503 names the failing parts, so a balancer stops sending
 * work here. It also shows the day's anonymous traffic against its budget (a detail, never a failure).
 * Other requests are answered 503 with Retry-After while the event loop lags past
 * PRESSURE_MAX_EVENT_LOOP_DELAY_MS (the lag given in `lag`, else measured here: api/lib/event-loop-lag.ts)
 * or, through @fastify/under-pressure, is busier than PRESSURE_MAX_EVENT_LOOP_UTILIZATION. Both probes are outside the session scope, never rate
 * limited, never shed, and logged only at warn.
 */
export default fp(
  async (app, options: { config: Config; lag?: EventLoopLag }) => {
    const { config } = options;
    const { pressure } = config;
    const shed = async (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => {
      reply.header('retry-after', pressure.retryAfterSeconds);
      request.log.warn({ type, value }, 'under pressure: request shed');
      throw new HttpError(503, busyMessage(pressure.retryAfterSeconds));
    };
    // The event loop's lag is ours to measure (a test gives its own); @fastify/under-pressure keeps
    // the utilization limit.
    await app.register(underPressure, {
      maxEventLoopUtilization: pressure.maxEventLoopUtilization,
      sampleInterval: pressure.sampleIntervalMs,
      retryAfter: pressure.retryAfterSeconds,
      // Our one error shape (errors.ts), with the Retry-After the client should honour.
      pressureHandler: shed,
    });
    const measured = options.lag ? undefined : measuredEventLoopLag(pressure.sampleIntervalMs);
    const lag = options.lag ?? measured!;
    app.addHook('onClose', async () => measured?.stop());
    const delayMs = () => {
      const value = lag.delayMs();
      return value !== undefined && Number.isFinite(value) ? value : undefined;
    };
    const lagging = () => {
      const value = delayMs();
      return pressure.maxEventLoopDelayMs > 0 && value !== undefined && value > pressure.maxEventLoopDelayMs;
    };
    app.addHook('onRequest', async (request, reply) => {
      if (!lagging()) return;
      await (request.routeOptions.config.pressureHandler ?? shed)(request, reply, 'eventLoopDelay', delayMs());
    });
    const state: Pressure = {
      eventLoopDelayMs: () => {
        const value = delayMs();
        return value === undefined ? null : Math.round(value);
      },
      shedding: () => lagging() || app.isUnderPressure(),
    };

    const routes = app.withTypeProvider<ZodTypeProvider>();
    const probe = { logLevel: 'warn', config: { pressureHandler: letThrough } } as const;
    routes.get(operatorPaths.healthz, { ...probe, schema: { response: { 200: livenessSchema } } }, async () => ({ ok: true as const }));
    routes.get(operatorPaths.readyz, { ...probe, schema: { response: { 200: readinessSchema, 503: readinessSchema } } }, async (_request, reply) => {
      const ready = await readiness(app, config, state);
      reply.header('cache-control', 'no-store');
      return reply.code(ready.ready ? 200 : 503).send(ready);
    });
  },
  { name: 'health', dependencies: ['db', 'jobs', 'redis', 'anonymous-budget'] },
);
