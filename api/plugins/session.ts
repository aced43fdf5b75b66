import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { FastifyReply, FastifyRequest, Session } from 'fastify';
import fp from 'fastify-plugin';
import { pruneExpiredSessions, SqlSessionStore } from '../../db/session-store';
import type { Config } from '../config';
import { HttpError } from './errors';
import { addressLimit, type CounterResult, perAddressLimits, tooManyRequestsMessage } from './rate-limits';

declare module 'fastify' {
  interface Session {
    adminId?: number;
    adminEmail?: string;
    /** Milliseconds since the epoch of the staff member's last request (server-side idle expiry). */
    staffLastActiveAt?: number;
    /** The staff account's credential version at sign-in: a password change since signs the session out. */
    adminCredentialVersion?: number;
    dealerId?: number;
    dealerUsername?: string;
    /** The dealer account's credential version at sign-in. */
    dealerCredentialVersion?: number;
  }
  interface FastifyInstance {
    sessionStore: SqlSessionStore;
    /** The visitor identity of a raw Cookie header, if it carries a validly signed one. */
    visitorIdFromCookieHeader(cookieHeader: string | undefined): string | undefined;
    /** The session id of a raw Cookie header, if it carries a validly signed session cookie. */
    sessionIdFromCookieHeader(cookieHeader: string | undefined): string | undefined;
    /** A session as the store holds it, or null: read without @fastify/session's hooks. */
    loadSession(sid: string): Promise<Session | null>;
    /** A fresh visitor identity and the Set-Cookie value that issues it. */
    issueVisitorCookie(): { visitorId: string; setCookie: string };
    /** Counts one new visitor identity for a client address; refused past the per-address limit. */
    newVisitorAllowed(clientAddress: string): Promise<CounterResult>;
  }
  interface FastifyRequest {
    /**
     * The visitor identity from the signed visitor cookie, issuing one on this reply if absent; a
     * client address that has been issued too many lately gets a 429 instead.
     */
    visitorId(reply: FastifyReply): Promise<string>;
    /**
     * Issues the visitor identity on this reply if it has none and the client address is within its
     * quota; past the quota it issues nothing rather than refusing (the chat calls refuse instead).
     */
    offerVisitorId(reply: FastifyReply): Promise<void>;
  }
}

export const sessionCookieName = 'lw_session';
export const visitorCookieName = 'lw_visitor';
const sessionLifetimeMs = 30 * 24 * 60 * 60 * 1000;
const visitorLifetimeSeconds = 400 * 24 * 60 * 60;
const pruneEveryMs = 15 * 60 * 1000;

/** The session cookie's attributes; clearing it takes the same ones, or a browser keeps the cookie. */
export function sessionCookieOptions(config: Pick<Config, 'cookieSecure'>) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: config.cookieSecure, path: '/' };
}

/**
 * Cookies and sessions: a signed, httpOnly session cookie backed by the `sessions` table, and a
 * signed, long-lived visitor cookie that says which chat sessions a visitor owns. A visitor who
 * never signs in and never chats costs no row.
 */
export default fp(
  async (app, options: { config: Config }) => {
    const { config } = options;
    await app.register(fastifyCookie, { secret: config.sessionSecret });

    const store = new SqlSessionStore(app.db, (work) => app.write((tx) => work(tx.db)));
    app.decorate('sessionStore', store);
    const cookieOptions = {
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: config.cookieSecure,
      path: '/',
      maxAge: visitorLifetimeSeconds,
      signed: true,
    };

    const signedCookie = (cookieHeader: string | undefined, name: string) => {
      if (!cookieHeader) return undefined;
      const raw = app.parseCookie(cookieHeader)[name];
      if (!raw) return undefined;
      const unsigned = app.unsignCookie(raw);
      return unsigned.valid && unsigned.value ? unsigned.value : undefined;
    };
    app.decorate('visitorIdFromCookieHeader', (cookieHeader: string | undefined) => signedCookie(cookieHeader, visitorCookieName));
    app.decorate('sessionIdFromCookieHeader', (cookieHeader: string | undefined) => signedCookie(cookieHeader, sessionCookieName));
    app.decorate(
      'loadSession',
      (sid: string) =>
        new Promise<Session | null>((resolve, reject) => {
          store.get(sid, (error, session) => (error ? reject(error instanceof Error ? error : new Error('session store failed', { cause: error })) : resolve(session ?? null)));
        }),
    );

    app.decorate('issueVisitorCookie', () => {
      const visitorId = randomBytes(18).toString('base64url');
      const { signed: _signed, ...serializeOptions } = cookieOptions;
      const setCookie = app.serializeCookie(visitorCookieName, app.signCookie(visitorId), serializeOptions);
      return { visitorId, setCookie };
    });

    // Without this, a client that never keeps its cookie is a new visitor on every call.
    const newVisitors = addressLimit(app, { name: 'new-visitor', allowlist: config.rateLimitAllowlist, ...perAddressLimits.newVisitors });
    app.decorate('newVisitorAllowed', (clientAddress: string) => newVisitors.hit(clientAddress));

    /** Issues a new visitor identity on this reply, and later calls in the same request see it. */
    const issueOn = (request: FastifyRequest, reply: FastifyReply): string => {
      const issued = randomBytes(18).toString('base64url');
      reply.setCookie(visitorCookieName, issued, cookieOptions);
      request.headers.cookie = `${request.headers.cookie ? `${request.headers.cookie}; ` : ''}${visitorCookieName}=${app.signCookie(issued)}`;
      return issued;
    };

    app.decorateRequest('visitorId', async function visitorId(this: FastifyRequest, reply: FastifyReply) {
      const existing = app.visitorIdFromCookieHeader(this.headers.cookie);
      if (existing) return existing;
      const allowed = await newVisitors.hit(this.ip);
      if (!allowed.ok) throw new HttpError(429, tooManyRequestsMessage(allowed.retryAfterMs));
      return issueOn(this, reply);
    });

    app.decorateRequest('offerVisitorId', async function offerVisitorId(this: FastifyRequest, reply: FastifyReply) {
      if (app.visitorIdFromCookieHeader(this.headers.cookie)) return;
      if ((await newVisitors.hit(this.ip)).ok) issueOn(this, reply);
    });

    // Periodic work of the whole cluster, run by one node at a time (api/jobs): a single DELETE by expiry.
    app.jobs.every('sessions.prune', pruneEveryMs, async (context) => {
      const pruned = await app.write((tx) => pruneExpiredSessions(tx.db, Date.now()));
      if (pruned > 0) context.log.info({ pruned }, 'expired sessions removed');
    });
  },
  { name: 'session', dependencies: ['db', 'events', 'jobs', 'security'] },
);

/**
 * @fastify/session on the `sessions` store, for the scope it is registered in. `app.ts` registers
 * it around the routes that use sign-ins only: for a request without a session cookie it still makes
 * a new session id, signs it and hashes it twice, which the public form posts have no use for.
 */
export const cookieSessions = fp(
  async (app, options: { config: Config }) => {
    const { config } = options;
    await app.register(fastifySession, {
      secret: config.sessionSecret,
      cookieName: sessionCookieName,
      store: app.sessionStore,
      saveUninitialized: false,
      rolling: true,
      cookie: { ...sessionCookieOptions(config), maxAge: sessionLifetimeMs },
    });
  },
  { name: 'cookie-sessions', dependencies: ['session'] },
);
