import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { HttpError } from './errors';
import { tooManyRequestsMessage } from './rate-limits';

const stateChangingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The origins a browser may send state-changing cookie calls from: this server's own. */
function allowedOrigin(request: FastifyRequest, config: Config, origin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.origin === config.publicUrl) return true;
  // The origin the browser sees this server at (the Host header), whatever the deployment.
  return Boolean(request.headers.host) && parsed.host === request.headers.host;
}

/**
 * Helmet with a CSP the built SPA passes, rate limits (per route, `429` with a clear message) and
 * an Origin/Referer check on state-changing calls that carry cookies.
 */
export default fp(
  async (app, options: { config: Config }) => {
    const { config } = options;
    await app.register(helmet, {
      // Applied below from a copy made once: @fastify/helmet would rebuild every header on every request.
      global: false,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", 'ws:', 'wss:'],
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

    // The headers are the same for every response (no per-request nonces), so helmet runs once and
    // its output is replayed.
    let securityHeaders: Record<string, string | number | string[]> | undefined;
    app.addHook('onRequest', async (_request, reply) => {
      if (!securityHeaders) {
        const before = new Set(reply.raw.getHeaderNames());
        await reply.helmet();
        securityHeaders = {};
        for (const [name, value] of Object.entries(reply.raw.getHeaders())) {
          if (!before.has(name) && value !== undefined) securityHeaders[name] = value;
        }
        return;
      }
      reply.headers(securityHeaders);
    });

    await app.register(rateLimit, {
      global: false,
      allowList: config.rateLimitAllowlist,
      errorResponseBuilder: (_request, context) => ({
        statusCode: context.statusCode,
        message: tooManyRequestsMessage(context.ttl),
      }),
    });

    app.addHook('onRequest', async (request) => {
      if (!stateChangingMethods.has(request.method) || !request.headers.cookie) return;
      const source = request.headers.origin ?? request.headers.referer;
      // Browsers send Origin on every cross-site POST; a caller without either is not a browser page.
      if (!source) return;
      if (!allowedOrigin(request, config, source)) {
        throw new HttpError(403, 'Request refused: it did not come from this site');
      }
    });
  },
  { name: 'security' },
);
