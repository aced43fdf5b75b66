import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
import { keyedLimit } from '../../plugins/rate-limits';
import { sessionCookieName, sessionCookieOptions } from '../../plugins/session';
import * as auth from './auth.service';

const fifteenMinutesMs = 15 * 60 * 1000;
const hourMs = 60 * 60 * 1000;

/** Per IP: generous enough for a dealership office behind one address, tight enough to stop guessing. */
const signInPerIp = { max: 30, timeWindow: fifteenMinutesMs };
/** Per account: failed attempts only, so the owner is not locked out by their own successes. */
const failedSignInsPerAccount = { max: 10, timeWindowMs: fifteenMinutesMs };
const resetRequestsPerIp = { max: 10, timeWindow: fifteenMinutesMs };
const resetRequestsPerEmail = { max: 5, timeWindowMs: hourMs };

const staffFields = ['adminId', 'adminEmail', 'staffLastActiveAt'];
const dealerFields = ['dealerId', 'dealerUsername'];

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

/** Sign-in, sign-out, session state and password reset, for dealers and staff. */
export default async function authRoutes(app: FastifyInstance, options: { config: Config }) {
  const { config } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const allowlist = config.rateLimitAllowlist;
  const dealerFailures = keyedLimit(app, { name: 'dealer-login', allowlist, ...failedSignInsPerAccount });
  const staffFailures = keyedLimit(app, { name: 'staff-login', allowlist, ...failedSignInsPerAccount });
  const resetRequests = keyedLimit(app, { name: 'forgot-password', allowlist, ...resetRequestsPerEmail });

  routes.post(
    '/api/login',
    { schema: { body: dealerLoginSchema, response: { 200: dealerLoginAnswerSchema } }, config: { rateLimit: signInPerIp } },
    async (request) => {
      const account = request.body.username.toLowerCase();
      await dealerFailures.check(request, account);
      const dealer = await auth.signInDealer(app.db, request.body.username, request.body.password);
      if (!dealer) {
        await dealerFailures.hit(request, account);
        throw new HttpError(401, invalidCredentialsMessage);
      }
      // A new session id at every sign-in: an id planted before sign-in is worth nothing after it.
      await request.session.regenerate(staffFields);
      request.session.dealerId = dealer.id;
      request.session.dealerUsername = dealer.username;
      return { message: 'Login successful', user: dealer };
    },
  );

  routes.post(
    '/api/admin-login',
    { schema: { body: adminLoginSchema, response: { 200: adminLoginAnswerSchema } }, config: { rateLimit: signInPerIp } },
    async (request) => {
      const account = request.body.username.toLowerCase();
      await staffFailures.check(request, account);
      const staff = await auth.signInStaff(app.db, request.body.username, request.body.password);
      if (!staff) {
        await staffFailures.hit(request, account);
        throw new HttpError(401, invalidCredentialsMessage);
      }
      await request.session.regenerate(dealerFields);
      request.session.adminId = staff.id;
      request.session.adminEmail = staff.email;
      request.session.staffLastActiveAt = Date.now();
      return { message: 'Login successful', admin: { email: staff.email }, staffIdleMinutes: config.staffIdleMinutes };
    },
  );

  routes.post('/api/logout', { schema: { response: { 200: okBodySchema } } }, async (request, reply) => {
    delete request.session.dealerId;
    delete request.session.dealerUsername;
    await destroyIfEmpty(request, reply, config);
    return { ok: true as const };
  });

  routes.post('/api/admin-logout', { schema: { response: { 200: okBodySchema } } }, async (request, reply) => {
    // This sign-in's dashboard tabs lose their live feed at once, not at their next request.
    app.staffSockets.in(rooms.staffSession(request.session.sessionId)).disconnectSockets(true);
    clearStaff(request.session);
    await destroyIfEmpty(request, reply, config);
    return { ok: true as const };
  });

  routes.get('/api/session', { schema: { response: { 200: sessionSchema } } }, async (request, reply) => {
    const { session } = request;
    request.visitorId(reply);
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
    '/api/forgot-password',
    { schema: { body: forgotPasswordSchema, response: { 200: messageBodySchema } }, config: { rateLimit: resetRequestsPerIp } },
    async (request) => {
      await resetRequests.hit(request, request.body.email.toLowerCase());
      await auth.requestPasswordReset(app.db, app.mailer, config.publicUrl, request.body.email);
      return { message: forgotPasswordAnswer };
    },
  );

  routes.post(
    '/api/reset-password',
    { schema: { body: resetPasswordSchema, response: { 200: messageBodySchema } }, config: { rateLimit: resetRequestsPerIp } },
    async (request) => {
      const done = await auth.resetPassword(app.db, request.body.token, request.body.password);
      if (!done) throw new HttpError(400, resetLinkInvalidMessage);
      return { message: passwordResetDoneMessage };
    },
  );
}

