import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { type Clock, systemClock } from './lib/clock';
import type { EventLoopLag } from './lib/event-loop-lag';
import anonymousBudgetPlugin from './plugins/anonymous-budget';
import authPlugin from './plugins/auth';
import clientAddressPlugin, { proxyTrust } from './plugins/client-address';
import dbPlugin from './plugins/db';
import errorsPlugin from './plugins/errors';
import healthPlugin from './plugins/health';
import metricsPlugin from './plugins/metrics';
import openapiPlugin from './plugins/openapi';
import redisPlugin from './plugins/redis';
import securityPlugin from './plugins/security';
import { serializerCompiler } from './plugins/serializer';
import sessionPlugin, { cookieSessions } from './plugins/session';
import socketIoPlugin from './plugins/socket-io';
import eventsPlugin from './events';
import jobsPlugin from './jobs';
import accountsModule, { authRoutes, bootstrapStaff } from './modules/auth';
import leadsModule, { staffLeadRoutes } from './modules/leads';
import mailModule from './modules/mail';
import answersModule from './modules/answers';
import chatModule, { staffChatRoutes } from './modules/chat';
import { cannedReplyRoutes } from './modules/canned';
import leadConfirmationModule from './modules/lead-confirmation';
import { contactRoutes } from './modules/contacts';
import { reportRoutes } from './modules/reports';
import teamModule, { teamRoutes } from './modules/team';
import { auditRoutes } from './modules/audit';
import { createWebhooks, webhookRoutes } from './modules/webhooks';
import { operationsRoutes, personalData, scheduleRetention } from './modules/operations';
import { apiPaths } from './contract/paths';
import { requestLogFields } from './request-log';
import { prerenderedPagesFolder, registerWebPages } from './web-pages';

/** Largest request body accepted: a larger one gets 413 with a message. */
export const bodyLimitBytes = 64 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** The time of the in-memory bounds (api/lib/clock.ts). */
    clock: Clock;
  }
}

export interface BuildOptions {
  /** Where the built SPA lives; not served when the folder is missing (API-only tests). */
  webRoot?: string;
  /** Where the log lines go instead of stdout (a test reads them); the level is still config.logLevel. */
  logStream?: { write(line: string): void };
  /** Told of every route as it is added (a test compares them with the OpenAPI document). */
  onRoute?: (route: RouteOptions) => void;
  /** The time of the in-memory bounds (typing relay, anonymous daily budget); tests move a manual one on. */
  clock?: Clock;
  /** The event loop's lag the load shedding and /readyz see (api/lib/event-loop-lag.ts); measured when absent. */
  eventLoopLag?: EventLoopLag;
}

/** Builds the whole server, not listening: `server.ts` listens, tests inject or listen on port 0. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // X-Forwarded-For/-Proto are believed only from the proxies TRUST_PROXY names.
  const trust = proxyTrust(config.trustProxy);
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            // A reset link's token in a logged URL would let anyone who reads the log set the password.
            serializers: { req: requestLogFields },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    bodyLimit: bodyLimitBytes,
    trustProxy: trust,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // First: it learns every route as it is added.
  await app.register(openapiPlugin);

  app.decorate('clock', options.clock ?? systemClock);
  await app.register(errorsPlugin);
  await app.register(clientAddressPlugin, { trust });
  // Under test, a write batch that holds SQLite's one connection past 50 ms is logged (db/writes.ts).
  await app.register(dbPlugin, { database: config.database, slowBatchMs: config.env === 'test' ? 50 : undefined });
  await app.register(eventsPlugin);
  await app.register(jobsPlugin, { config });
  await app.register(redisPlugin, { redis: config.redis });
  await app.register(securityPlugin, { config });
  await app.register(sessionPlugin, { config });
  await app.register(authPlugin, { staffIdleMinutes: config.staffIdleMinutes });
  await app.register(socketIoPlugin, { config });
  await app.register(anonymousBudgetPlugin, { config });
  await app.register(healthPlugin, { config, lag: options.eventLoopLag });
  await app.register(metricsPlugin, { config });

  app.get(apiPaths.health, async () => ({ ok: true as const }));

  await app.register(mailModule, { config });
  await app.register(accountsModule, { config });
  await bootstrapStaff(app.db, app.write, {
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
    // Shown to the person starting the server, once; never in test output.
    announce: (text) => {
      if (config.env !== 'test') console.log(text);
    },
  });
  // The public form posts, the visitor's chat calls and the sockets need no cookie session.
  await app.register(leadsModule, { config });
  const webRoot = options.webRoot ?? resolve('dist/web');
  // Before the chat, which answers from it when nobody can.
  await app.register(answersModule, { webRoot });
  await app.register(chatModule, { config });
  await app.register(leadConfirmationModule, { config });
  await app.register(teamModule, { config });
  const webhooks = createWebhooks(app, config);
  const data = personalData(app, config);
  scheduleRetention(app, data, config.retentionDays);
  // Everything that reads or writes a sign-in runs in this scope, with @fastify/session's hooks.
  await app.register(async (signedIn) => {
    await signedIn.register(cookieSessions, { config });
    await signedIn.register(authRoutes, { config });
    await signedIn.register(staffLeadRoutes);
    await signedIn.register(staffChatRoutes, { chat: app.chat });
    await signedIn.register(cannedReplyRoutes);
    await signedIn.register(contactRoutes);
    await signedIn.register(reportRoutes);
    await signedIn.register(teamRoutes, { team: app.team, config });
    await signedIn.register(auditRoutes);
    await signedIn.register(webhookRoutes, { webhooks });
    await signedIn.register(operationsRoutes, { data });
  });

  if (existsSync(resolve(webRoot, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (scripts/vite/precompress.ts).
      preCompressed: true,
      // The prerendered pages are answered at their own paths (/about), never as /pages/about.html:
      // only @fastify/static's own route for such a file is refused, not a page route's sendFile.
      allowedPath: (_path, _root, request) => !request?.routeOptions.url?.startsWith(prerenderedPagesFolder),
      setHeaders(res, path) {
        // Hashed bundles never change; the HTML shell must always be fresh.
        res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    registerWebPages(app, { webRoot, publicUrl: config.publicUrl });
  }

  return app;
}
