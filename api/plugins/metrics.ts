import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config';
import type { ErrorBody } from '../contract/common';
import { operatorPaths } from '../contract/operations';
import { jobGauges } from '../jobs/jobs.gauges';
import { letThrough } from './health';

/** Seconds: from a cached answer to a slow export. */
const requestBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Seconds: a commit, or a push after it, takes well under a millisecond when all is well. */
const fastBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

function isLoopbackAddress(ip: string): boolean {
  return ip === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(ip);
}

function sameSecret(given: string, expected: string): boolean {
  // Digests of equal length: the comparison takes the same time whatever was sent.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Who may scrape: a bearer token equal to METRICS_TOKEN, or a caller on this host. The address is
 * the one TRUST_PROXY lets Fastify believe; a request that came through a proxy (it carries
 * X-Forwarded-For or Forwarded) is never taken for a local one, even when TRUST_PROXY is unset and
 * the proxy itself sits on loopback.
 */
function scrapeAccess(request: FastifyRequest, token: string | undefined): 'allowed' | 'unauthorized' | 'hidden' {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) return token !== undefined && sameSecret(authorization, `Bearer ${token}`) ? 'allowed' : 'unauthorized';
  const proxied = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !proxied && isLoopbackAddress(request.ip) ? 'allowed' : 'hidden';
}

/**
 * `GET /metrics`: Prometheus text from prom-client, this node's own figures (each node of several is
 * scraped on its own). Request duration by route pattern and status, sockets by namespace, chat
 * messages stored, push latency, form posts, rate-limit refusals, Node's own (event-loop lag among
 * them), database write time, and the job table's state, read when scraped. METRICS=off takes the
 * route and every measurement away. A stranger without a token gets the same 404 as an unknown path;
 * a wrong token gets 401.
 */
export default fp(
  async (app, options: { config: Config }) => {
    const { enabled, token } = options.config.metrics;
    if (!enabled) return;
    // A registry per app: tests run several apps in one process.
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const registers = [registry];

    const requestDuration = new Histogram({
      name: 'lotwise_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: requestBuckets,
      registers,
    });
    const rateLimitRefusals = new Counter({
      name: 'lotwise_rate_limit_refusals_total',
      help: 'Requests refused with 429 by a rate limit, by route pattern (socket:<event> for a socket event)',
      labelNames: ['route'] as const,
      registers,
    });
    app.addHook('onResponse', (request, reply, done) => {
      // The pattern (/api/chat-messages/:sessionId), never the URL: one series per route, no ids in labels.
      const route = request.routeOptions.url ?? 'unmatched';
      requestDuration.observe({ method: request.method, route, status: reply.statusCode }, reply.elapsedTime / 1000);
      if (reply.statusCode === 429) rateLimitRefusals.inc({ route });
      done();
    });
    app.socketRefusals.observe((event) => rateLimitRefusals.inc({ route: `socket:${event}` }));

    new Gauge({
      name: 'lotwise_sockets_connected',
      help: 'Socket.IO connections to this node, by namespace',
      labelNames: ['namespace'] as const,
      registers,
      collect() {
        this.set({ namespace: app.visitorSockets.name }, app.visitorSockets.sockets.size);
        this.set({ namespace: app.staffSockets.name }, app.staffSockets.sockets.size);
      },
    });

    const chatMessages = new Counter({
      name: 'lotwise_chat_messages_stored_total',
      help: 'Chat messages stored by this node, by kind (visitor, staff, system)',
      labelNames: ['kind'] as const,
      registers,
    });
    app.events.on('chat.message.created', ({ message }) => {
      chatMessages.inc({ kind: message.kind });
    });
    const formPosts = new Counter({
      name: 'lotwise_form_posts_total',
      help: 'Public form posts stored as leads by this node, by kind (a filled honeypot is not counted)',
      labelNames: ['kind'] as const,
      registers,
    });
    app.events.on('lead.created', ({ kind }) => {
      formPosts.inc({ kind });
    });

    const anonymous = app.anonymousBudget;
    new Gauge({
      name: 'lotwise_anonymous_traffic_today',
      help: "This node's anonymous traffic today (UTC), by kind: new visitor conversations, visitor messages",
      labelNames: ['kind'] as const,
      registers,
      collect() {
        const status = anonymous.status();
        this.set({ kind: 'conversations' }, status.conversations);
        this.set({ kind: 'messages' }, status.messages);
      },
    });
    new Gauge({
      name: 'lotwise_anonymous_budget_over',
      help: '1 while this node is over its daily budget of anonymous traffic (ANONYMOUS_DAILY_*): mail caused by it is skipped until the day ends',
      registers,
      collect() {
        this.set(anonymous.overToday() ? 1 : 0);
      },
    });

    const writeTime = new Histogram({
      name: 'lotwise_db_write_seconds',
      help: 'Database write transactions (a group commit of one or more writes), from start to commit',
      buckets: fastBuckets,
      registers,
    });
    app.commits.observe((durationMs) => writeTime.observe(durationMs / 1000));
    const pushLatency = new Histogram({
      name: 'lotwise_chat_push_latency_seconds',
      help: "From a chat message's commit to its socket pushes sent by this node",
      buckets: fastBuckets,
      registers,
    });
    // Heard after every module's own listeners (they subscribe while the app loads): the pushes are out.
    app.addHook('onReady', () => {
      app.events.on('chat.message.created', () => {
        const committedAt = app.commits.lastAt();
        if (committedAt !== undefined) pushLatency.observe((performance.now() - committedAt) / 1000);
      });
    });

    const jobs = {
      due: new Gauge({ name: 'lotwise_jobs_due', help: 'Jobs due and waiting for a runner', registers }),
      running: new Gauge({ name: 'lotwise_jobs_running', help: 'Jobs held by a runner now', registers }),
      dead: new Gauge({ name: 'lotwise_jobs_dead', help: 'Dead jobs kept for an admin', registers }),
      oldestDueAge: new Gauge({ name: 'lotwise_jobs_oldest_due_age_seconds', help: 'How long the longest-waiting due job has waited (0: none)', registers }),
    };

    app.get(operatorPaths.metrics, { logLevel: 'warn', config: { pressureHandler: letThrough }, schema: { hide: true } }, async (request, reply) => {
      const access = scrapeAccess(request, token);
      if (access === 'hidden') return reply.code(404).send({ message: `Not found: GET ${operatorPaths.metrics}` } satisfies ErrorBody);
      if (access === 'unauthorized') {
        return reply.code(401).header('www-authenticate', 'Bearer').send({ message: 'A valid metrics token is needed' } satisfies ErrorBody);
      }
      // The job table's state, read now (the table is shared: every node reports the same figures).
      const now = Date.now();
      const state = await jobGauges(app.db, now);
      jobs.due.set(state.due);
      jobs.running.set(state.running);
      jobs.dead.set(state.dead);
      jobs.oldestDueAge.set(state.oldestDueAt === undefined ? 0 : Math.max(0, now - state.oldestDueAt) / 1000);
      reply.header('cache-control', 'no-store');
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: 'metrics', dependencies: ['db', 'events', 'jobs', 'socket-io', 'health', 'anonymous-budget'] },
);
