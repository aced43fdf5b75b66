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
  type StaffAccount,
} from '../../contract/auth';
import { messageBodySchema, okBodySchema } from '../../contract/common';
import { deactivatedSignInMessage } from '../../contract/team';
import type { Config } from '../../config';
import { clearStaff, isLiveStaffSession, signedInStaffId, startStaffSession } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { addressKey, isAllowlisted, keyedLimit } from '../../plugins/rate-limits';
import { sessionCookieName, sessionCookieOptions } from '../../plugins/session';
import * as auth from './auth.service';
import { signInGuard } from './sign-in-guard';
import { apiPaths } from '../../contract/paths';

const fifteenMinutesMs = 15 * 60 * 1000;
const hourMs = 60 * 60 * 1000;

const resetRequestsPerIp = { max: 10, timeWindow: fifteenMinutesMs };
/**
 * Reset mails actually sent per (dealer, address): past it, a request still gets the same 200
 * sentence and sends nothing, so one stranger can neither fill a dealer's mailbox nor learn whether
 * the account exists. Per dealer there is no count that strangers could spend, only a spacing
 * (`RESET_MAIL_SPACING_SECONDS`, 3 minutes): each mail re-sends the latest valid link, so a
 * stranger's request only puts the owner's own working link in the owner's mailbox again.
 */
const resetMailsPerAccountAndIp = { max: 2, timeWindowMs: hourMs };

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
  const dealerGuard = signInGuard(app, { kind: 'dealer', config });
  const staffGuard = signInGuard(app, { kind: 'staff', config });
  const resetMailPairs = keyedLimit(app, { name: 'reset-mail-pair', ...resetMailsPerAccountAndIp });
  const resetMailSpacing = keyedLimit(app, { name: 'reset-mail-account', max: 1, timeWindowMs: config.resetMailSpacingSeconds * 1000 });
  /** One more reset mail to this dealer from this address, if neither limit is reached (both count it). */
  const mayMailReset = async (request: FastifyRequest, dealerId: number) => {
    if (isAllowlisted(allowlist, request.ip)) return true;
    const account = `account:${dealerId}`;
    const pair = `${account}|${addressKey(request.ip)}`;
    if (!(await resetMailPairs.peek(pair)).ok || !(await resetMailSpacing.peek(account)).ok) return false;
    return (await resetMailSpacing.hit(account)).ok && (await resetMailPairs.hit(pair)).ok;
  };

  routes.post(
    apiPaths.dealerLogin,
    // No per-route limit: the guard counts an address's failures, never its successes (sign-in-guard.ts).
    { schema: { body: dealerLoginSchema, response: { 200: dealerLoginAnswerSchema } } },
    async (request, reply) => {
      const target = await auth.findDealerSignIn(app.db, request.body.username);
      const attempt = { limitKey: target.limitKey, accountId: target.account?.id };
      await dealerGuard.admit(request, attempt);
      const dealer = await auth.signInDealer(target, request.body.password);
      if (!dealer) {
        await dealerGuard.failed(request, attempt);
        throw new HttpError(401, invalidCredentialsMessage);
      }
      dealerGuard.succeeded(reply, dealer.id);
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
    { schema: { body: adminLoginSchema, response: { 200: adminLoginAnswerSchema } } },
    async (request, reply) => {
      const target = await auth.findStaffSignIn(app.db, request.body.username);
      const attempt = { limitKey: target.limitKey, accountId: target.account?.id };
      await staffGuard.admit(request, attempt);
      const staff = await auth.signInStaff(target, request.body.password);
      if (!staff) {
        await staffGuard.failed(request, attempt);
        throw new HttpError(401, invalidCredentialsMessage);
      }
      // Said only to whoever knows the password: a deactivated account signs in no more.
      if (target.account?.deactivatedAt) throw new HttpError(403, deactivatedSignInMessage);
      staffGuard.succeeded(reply, staff.id);
      await auth.recordStaffSignIn(app.write, staff.id);
      await startStaffSession(request, staff);
      return { message: 'Login successful', admin: staff.account, staffIdleMinutes: config.staffIdleMinutes };
    },
  );

  routes.post(apiPaths.dealerLogout, { schema: { response: { 200: okBodySchema } } }, async (request, reply) => {
    for (const field of dealerSignInFields) delete request.session[field];
    await destroyIfEmpty(request, reply, config);
    return { ok: true as const };
  });

  routes.post(apiPaths.staffLogout, { schema: { response: { 200: okBodySchema } } }, async (request, reply) => {
    const staffId = request.session.adminId;
    const { sessionId } = request.session;
    clearStaff(request.session);
    // Its event closes this sign-in's dashboard tabs at once, on every node, not at their next request.
    if (staffId !== undefined) await auth.recordStaffSignOut(app.write, staffId, sessionId);
    await destroyIfEmpty(request, reply, config);
    return { ok: true as const };
  });

  routes.get(apiPaths.session, { schema: { response: { 200: sessionSchema } } }, async (request, reply) => {
    const { session } = request;
    // Only for a browser nobody is signed in on: staff and dealers never chat as visitors.
    if (!session.adminId && !session.dealerId) await request.offerVisitorId(reply);
    let admin: StaffAccount | null = null;
    const now = app.clock.now();
    if (isLiveStaffSession(session, app.staffIdleMs, now)) {
      // The dashboard calls this on user activity: it counts as staff activity, like any staff request.
      session.staffLastActiveAt = now;
      // A live sign-in's account exists: the session store drops the sign-in of one deleted.
      admin = (await auth.staffAccountOf(app.db, signedInStaffId(session))) ?? null;
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
      await auth.requestPasswordReset(app.db, app.write, {
        linkSecret: config.sessionSecret,
        email: request.body.email,
        mayMail: (dealerId) => mayMailReset(request, dealerId),
      });
      return { message: forgotPasswordAnswer };
    },
  );

  routes.post(
    apiPaths.resetPassword,
    { schema: { body: resetPasswordSchema, response: { 200: messageBodySchema } }, config: { rateLimit: resetRequestsPerIp } },
    async (request) => {
      const changed = await auth.resetPassword(app.db, app.write, request.body.token, request.body.password, request.session.sessionId);
      if (!changed) throw new HttpError(400, resetLinkInvalidMessage);
      // The browser that made the change stays signed in, if it was signed in as this dealer.
      if (request.session.dealerId === changed.dealerId) request.session.dealerCredentialVersion = changed.credentialVersion;
      return { message: passwordResetDoneMessage };
    },
  );
}

