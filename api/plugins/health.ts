import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Config } from '../config';
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
async function readiness(app: FastifyInstance, config: Config): Promise<Readiness> {
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
  const eventLoopDelayMs = Math.round(app.memoryUsage().eventLoopDelay);
  const underPressure = app.isUnderPressure();

  const failures: { part: ReadinessPart; cause: unknown }[] = [];
  if (!database.ok) failures.push({ part: 'database', cause: database.cause });
  if (redis && !redis.ok) failures.push({ part: 'redis', cause: redis.cause });
  if (!jobsOk) failures.push({ part: 'jobs', cause: runner.started ? `behind on the jobs table for ${runner.behindMs} ms` : 'not running' });
  if (underPressure) failures.push({ part: 'pressure', cause: `event loop delay ${eventLoopDelayMs} ms` });
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
 * work here. It also shows the day's anonymous traffic against its budget (a detail, never a failure). @fastify/under-pressure answers other requests 503 with Retry-After while the event loop
 * lags past PRESSURE_MAX_EVENT_LOOP_DELAY_MS. Both probes are outside the session scope, never rate
 * limited, never shed, and logged only at warn.
 */
export default fp(
  async (app, options: { config: Config }) => {
    const { config } = options;
    const { pressure } = config;
    await app.register(underPressure, {
      maxEventLoopDelay: pressure.maxEventLoopDelayMs,
      maxEventLoopUtilization: pressure.maxEventLoopUtilization,
      sampleInterval: pressure.sampleIntervalMs,
      retryAfter: pressure.retryAfterSeconds,
      // Our one error shape (errors.ts), with the Retry-After the client should honour.
      pressureHandler: async (request, reply, type, value) => {
        reply.header('retry-after', pressure.retryAfterSeconds);
        request.log.warn({ type, value }, 'under pressure: request shed');
        throw new HttpError(503, busyMessage(pressure.retryAfterSeconds));
      },
    });

    const routes = app.withTypeProvider<ZodTypeProvider>();
    const probe = { logLevel: 'warn', config: { pressureHandler: letThrough } } as const;
    routes.get(operatorPaths.healthz, { ...probe, schema: { response: { 200: livenessSchema } } }, async () => ({ ok: true as const }));
    routes.get(operatorPaths.readyz, { ...probe, schema: { response: { 200: readinessSchema, 503: readinessSchema } } }, async (_request, reply) => {
      const state = await readiness(app, config);
      reply.header('cache-control', 'no-store');
      return reply.code(state.ready ? 200 : 503).send(state);
    });
  },
  { name: 'health', dependencies: ['db', 'jobs', 'redis', 'anonymous-budget'] },
);
