import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { HttpError, isApiUrl } from './errors';
import { isSameSiteOrigin } from './origin';
import { tooManyRequestsMessage } from './rate-limits';

const stateChangingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Helmet with a CSP the built SPA passes, rate limits (per route, `429` with a clear message) and
 * an Origin/Referer check on state-changing calls that carry cookies.
 */
export default fp(
  async (app, options: { config: Config }) => {
    const { config } = options;
    // Pages and their assets: helmet's full set, with a CSP the built SPA passes. @fastify/helmet only
    // decorates each reply (`global: false`): the hook below picks the set by URL, which also reaches
    // the not-found answers no route's options would.
    await app.register(helmet, {
      global: false,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'", 'data:'],
          // 'self' covers the same-origin WebSocket (CSP3); ws: and wss: would let a page reach any host.
          connectSrc: ["'self'"],
          mediaSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(config.cookieSecure ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      // The site is served over plain HTTP in development; HSTS only makes sense behind HTTPS.
      hsts: config.cookieSecure,
    });
    /**
     * API answers: the headers OWASP's REST Security Cheat Sheet asks of them. A JSON answer rendered
     * on its own runs nothing and cannot be framed; and none of it (leads, chats, sessions) belongs in
     * a cache. The rest of helmet's set (opener policy, origin-agent cluster, referrer policy, DNS
     * prefetch, download options, cross-domain policies, XSS auditor) acts only on documents, and each
     * header costs every answer a little: a form post is the hottest call there is.
     */
    const apiHelmet = {
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      xFrameOptions: { action: 'deny' },
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      referrerPolicy: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    } as const;

    // After @fastify/helmet's own hook (which makes `reply.helmet`): the security headers, then the Origin check.
    app.addHook('onRequest', (request, reply, done) => {
      if (isApiUrl(request.url)) {
        reply.helmet(apiHelmet);
        reply.header('cache-control', 'no-store');
      } else {
        reply.helmet();
      }
      if (!stateChangingMethods.has(request.method) || !request.headers.cookie) return done();
      // Referer stands in for an Origin left out; a caller without either is not a browser page.
      if (!isSameSiteOrigin(request.headers.origin ?? request.headers.referer, request.headers.host, config.publicUrl)) {
        return done(new HttpError(403, 'Request refused: it did not come from this site'));
      }
      done();
    });

    // The per-route limits (`config.rateLimit`); the keyed ones (accounts, visitors, addresses) are rate-limits.ts's.
    const shared = app.redis;
    await app.register(rateLimit, {
      global: false,
      allowList: config.rateLimitAllowlist,
      // Shared counters in Redis. A short Redis outage must not turn every limited call into an
      // error: while a counter cannot be reached, the call goes through uncounted.
      ...(shared ? { redis: shared.rateLimitClient, nameSpace: `${shared.keyPrefix}rate-limit:`, skipOnError: true } : {}),
      errorResponseBuilder: (_request, context) => ({
        statusCode: context.statusCode,
        message: tooManyRequestsMessage(context.ttl),
      }),
    });
  },
  { name: 'security', dependencies: ['redis'] },
);
