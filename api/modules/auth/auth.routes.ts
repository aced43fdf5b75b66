import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dealerSignInFields, staffSignInFields } from '../../../db/session-store';
import {
  adminLoginAnswerSchema,
  adminLoginSchema,
  dealerLoginAnswerSchema,
  dealerLoginSchema,
  forgotPasswordAnswer,
  forgotPasswordSchema,
  invalidCredentialsMessage,
  resetPasswordSchema,
  sessionSchema,
} from '../../contract/auth';
import { messageBodySchema, okBodySchema } from '../../contract/common';
import { rooms } from '../../contract/socket';
import type { Config } from '../../config';
import { clearStaff, isLiveStaffSession } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { keyedLimit, type KeyedLimit } from '../../plugins/rate-limits';
import { sessionCookieName, sessionCookieOptions } from '../../plugins/session';
import * as auth from './auth.service';
import { apiPaths } from '../../contract/paths';

const fifteenMinutesMs = 15 * 60 * 1000;
const hourMs = 60 * 60 * 1000;

/** Per IP, every attempt: generous enough for a dealership office behind one address, tight enough to stop guessing. */
const signInPerIp = { max: 30, timeWindow: fifteenMinutesMs };
/**
 * Failed sign-ins per (account, address): locks one guesser out of one account without touching the
 * owner, who signs in from elsewhere. Failures only, so the owner's own successes cost nothing.
 */
const failedSignInsPerAccountAndIp = { max: 10, timeWindowMs: fifteenMinutesMs };
/**
 * Failed sign-ins per account from all addresses: a ceiling on guessing spread over many addresses.
 * Ten times the pair limit, so locking the owner out takes ten addresses at once; at most 100
 * guesses per 15 minutes, against passwords that cannot be one of the common ones.
 */
const failedSignInsPerAccount = { max: 100, timeWindowMs: fifteenMinutesMs };
const resetRequestsPerIp = { max: 10, timeWindow: fifteenMinutesMs };
/**
 * Reset mails actually sent, per (dealer, address) and per dealer. Past either, a request still gets
 * the same 200 sentence and sends nothing: a stranger can neither fill a dealer's mailbox, nor block
 * the dealer's own request from another address, nor learn whether the account exists.
 */
const resetMailsPerAccountAndIp = { max: 2, timeWindowMs: hourMs };
const resetMailsPerAccount = { max: 5, timeWindowMs: hourMs };

export const resetLinkInvalidMessage = 'This reset link is invalid or has expired';
export const passwordResetDoneMessage = 'Your password has been reset. You can now sign in.';

/**
 * Ends the whole session once it holds no sign-in at all, so no empty row lingers, and tells the
 * browser to drop its cookie (@fastify/session sets none for a destroyed session).
 */
async function destroyIfEmpty(request: FastifyRequest, reply: FastifyReply, config: Config): Promise<void> {
  const { session } = request;
  if (session.adminId || session.dealerId) return;
  await session.destroy();
  reply.clearCookie(sessionCookieName, sessionCookieOptions(config));
}

/**
 * Two limits on one account: per (account, client address), and a higher one per account across
 * all addresses. An address over its own limit counts no further against the account's.
 */
function perAccountAndIp(
  app: FastifyInstance,
  name: string,
  allowlist: string[],
  perPair: { max: number; timeWindowMs: number },
  perAccount: { max: number; timeWindowMs: number },
): KeyedLimit {
  const pairs = keyedLimit(app, { name: `${name}-pair`, allowlist, ...perPair });
  const accounts = keyedLimit(app, { name: `${name}-account`, allowlist, ...perAccount });
  const pairKey = (request: FastifyRequest, accountKey: string) => `${accountKey}|${request.ip}`;
  return {
    check: async (request, accountKey) => {
      await pairs.check(request, pairKey(request, accountKey));
      await accounts.check(request, accountKey);
    },
    hit: async (request, accountKey) => {
      await pairs.hit(request, pairKey(request, accountKey));
      await accounts.hit(request, accountKey);
    },
    take: async (request, accountKey) =>
      (await pairs.take(request, pairKey(request, accountKey))) && (await accounts.take(request, accountKey)),
  };
}

/** Sign-in, sign-out, session state and password reset, for dealers and staff. */
export default async function authRoutes(app: FastifyInstance, options: { config: Config }) {
  const { config } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const allowlist = config.rateLimitAllowlist;
  const dealerFailures = perAccountAndIp(app, 'dealer-login', allowlist, failedSignInsPerAccountAndIp, failedSignInsPerAccount);
  const staffFailures = perAccountAndIp(app, 'staff-login', allowlist, failedSignInsPerAccountAndIp, failedSignInsPerAccount);
  const resetMails = perAccountAndIp(app, 'reset-mail', allowlist, resetMailsPerAccountAndIp, resetMailsPerAccount);

  routes.post(
    apiPaths.dealerLogin,
    { schema: { body: dealerLoginSchema, response: { 200: dealerLoginAnswerSchema } }, config: { rateLimit: signInPerIp } },
    async (request) => {
      const target = await auth.findDealerSignIn(app.db, request.body.username);
      await dealerFailures.check(request, target.limitKey);
      const dealer = await auth.signInDealer(target, request.body.password);
      if (!dealer) {
        await dealerFailures.hit(request, target.limitKey);
        throw new HttpError(401, invalidCredentialsMessage);
      }
      // A new session id at every sign-in: an id planted before sign-in is worth nothing after it.
      await request.session.regenerate([...staffSignInFields]);
      request.session.dealerId = dealer.id;
      request.session.dealerUsername = dealer.username;
      request.session.dealerCredentialVersion = dealer.credentialVersion;
      return { message: 'Login successful', user: { id: dealer.id, username: dealer.username } };
    },
  );

  routes.post(
    apiPaths.staffLogin,
    { schema: { body: adminLoginSchema, response: { 200: adminLoginAnswerSchema } }, config: { rateLimit: signInPerIp } },
    async (request) => {
      const target = await auth.findStaffSignIn(app.db, request.body.username);
      await staffFailures.check(request, target.limitKey);
      const staff = await auth.signInStaff(target, request.body.password);
      if (!staff) {
        await staffFailures.hit(request, target.limitKey);
        throw new HttpError(401, invalidCredentialsMessage);
      }
      await request.session.regenerate([...dealerSignInFields]);
      request.session.adminId = staff.id;
      request.session.adminEmail = staff.email;
      request.session.adminCredentialVersion = staff.credentialVersion;
      request.session.staffLastActiveAt = Date.now();
      return { message: 'Login successful', admin: { email: staff.email }, staffIdleMinutes: config.staffIdleMinutes };
    },
  );

  routes.post(apiPaths.dealerLogout, { schema: { response: { 200: okBodySchema } } }, async (request, reply) => {
    for (const field of dealerSignInFields) delete request.session[field];
    await destroyIfEmpty(request, reply, config);
    return { ok: true as const };
  });

  routes.post(apiPaths.staffLogout, { schema: { response: { 200: okBodySchema } } }, async (request, reply) => {
    // This sign-in's dashboard tabs lose their live feed at once, not at their next request.
    app.staffSockets.in(rooms.staffSession(request.session.sessionId)).disconnectSockets(true);
    clearStaff(request.session);
    await destroyIfEmpty(request, reply, config);
    return { ok: true as const };
  });

  routes.get(apiPaths.session, { schema: { response: { 200: sessionSchema } } }, async (request, reply) => {
    const { session } = request;
    await request.visitorId(reply);
    let admin: { email: string } | null = null;
    if (isLiveStaffSession(session, app.staffIdleMs)) {
      // The dashboard calls this on user activity: it counts as staff activity, like any staff request.
      session.staffLastActiveAt = Date.now();
      admin = { email: session.adminEmail ?? '' };
    } else if (session.adminId) {
      clearStaff(session);
    }
    const dealer = session.dealerId && session.dealerUsername ? { username: session.dealerUsername } : null;
    return { admin, dealer, staffIdleMinutes: config.staffIdleMinutes };
  });

  routes.post(
    apiPaths.forgotPassword,
    { schema: { body: forgotPasswordSchema, response: { 200: messageBodySchema } }, config: { rateLimit: resetRequestsPerIp } },
    async (request) => {
      await auth.requestPasswordReset(app.db, app.mailer, {
        publicUrl: config.publicUrl,
        email: request.body.email,
        mayMail: (dealerId) => resetMails.take(request, `account:${dealerId}`),
      });
      return { message: forgotPasswordAnswer };
    },
  );

  routes.post(
    apiPaths.resetPassword,
    { schema: { body: resetPasswordSchema, response: { 200: messageBodySchema } }, config: { rateLimit: resetRequestsPerIp } },
    async (request) => {
      const changed = await auth.resetPassword(app.db, request.body.token, request.body.password, request.session.sessionId);
      if (!changed) throw new HttpError(400, resetLinkInvalidMessage);
      // The browser that made the change stays signed in, if it was signed in as this dealer.
      if (request.session.dealerId === changed.dealerId) request.session.dealerCredentialVersion = changed.credentialVersion;
      return { message: passwordResetDoneMessage };
    },
  );
}

