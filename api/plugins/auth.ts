import type { FastifyReply, FastifyRequest, RouteOptions, Session } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client';
import { lockedForShare } from '../../db/query-helpers';
import { dealerSignInFields, staffSignInFields } from '../../db/session-store';
import { adminsOnlyMessage, notAuthenticatedMessage, type StaffRole } from '../contract/auth';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: 401 unless the request carries a live staff session; a live one is refreshed. */
    requireStaff: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** onRequest hook: as `requireStaff`, then `actingStaff(…, 'admin')`: 403 unless the account is an admin (its role read now, so a change holds at once). */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** onRequest hook: 401 unless the request carries a dealer session. */
    requireDealer: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    staffIdleMs: number;
    /** True while the stored session `sid` is a live staff session (read from the store, outside @fastify/session). */
    isLiveStaffSid: (sid: string) => Promise<boolean>;
    /** The staff account signed in on the stored session `sid` while it is live; undefined otherwise. */
    liveStaffIdOf: (sid: string) => Promise<number | undefined>;
  }
}

type SessionData = Pick<Session, 'adminId' | 'staffLastActiveAt'>;

/** True while a session holds a staff sign-in that has seen a staff request within the idle limit, at `now` (the app's clock). */
export function isLiveStaffSession(session: SessionData | null | undefined, staffIdleMs: number, now: number): boolean {
  return Boolean(session?.adminId && session.staffLastActiveAt && now - session.staffLastActiveAt <= staffIdleMs);
}

/** The staff account signed in on a request that passed `requireStaff`. */
export function signedInStaffId(session: Pick<Session, 'adminId'>): number {
  if (session.adminId === undefined) throw new HttpError(401, notAuthenticatedMessage);
  return session.adminId;
}

/** What an action asks of the staff account doing it: to be active, or an active admin. */
export type ActorNeed = 'staff' | 'admin';

/** The acting account as the check reads it. */
export interface ActingStaff {
  id: number;
  email: string;
  displayName: string | null;
  role: StaffRole;
}

/**
 * THE check of who acts, read now: 401 unless `staffId` is an account that is not deactivated; 403
 * unless an admin when `need` is `admin`. `requireAdmin` runs it as a request starts, and the audit
 * log (api/modules/audit, `recordAudit`) runs it again inside the write of every audited action, on
 * that write's `tx.db`: a request that passed the door before its account was deactivated or demoted
 * commits nothing. In a write (`inWrite`) the row is kept from changing until commit (PostgreSQL `FOR SHARE`): a
 * deactivation racing the write waits for it, or the write waits and then sees the deactivation.
 */
export async function actingStaff(db: Db, staffId: number, need: ActorNeed, options: { inWrite: boolean }): Promise<ActingStaff> {
  const query = db.selectFrom('admins').select(['id', 'email', 'displayName', 'role', 'deactivatedAt']).where('id', '=', staffId);
  const account = await (options.inWrite ? lockedForShare(db, query) : query).executeTakeFirst();
  if (!account || account.deactivatedAt !== null) throw new HttpError(401, notAuthenticatedMessage);
  if (need === 'admin' && account.role !== 'admin') throw new HttpError(403, adminsOnlyMessage);
  return { id: account.id, email: account.email, displayName: account.displayName, role: account.role };
}

/**
 * Signs staff in on a request's session: a new session id (the old one may have been planted), the
 * dealer sign-in kept, the staff fields set and the idle clock started.
 */
export async function startStaffSession(request: FastifyRequest, staff: { id: number; email: string; credentialVersion: number }): Promise<void> {
  await request.session.regenerate([...dealerSignInFields]);
  request.session.adminId = staff.id;
  request.session.adminEmail = staff.email;
  request.session.adminCredentialVersion = staff.credentialVersion;
  request.session.staffLastActiveAt = request.server.clock.now();
}

/** Forgets the staff sign-in of a session, leaving any dealer sign-in in place. */
export function clearStaff(session: Session): void {
  for (const field of staffSignInFields) delete session[field];
}

export default fp(
  async (app, options: { staffIdleMinutes: number }) => {
    const staffIdleMs = options.staffIdleMinutes * 60 * 1000;
    app.decorate('staffIdleMs', staffIdleMs);
    app.decorate('liveStaffIdOf', async (sid: string) => {
      const session = await app.loadSession(sid);
      return isLiveStaffSession(session, staffIdleMs, app.clock.now()) ? session?.adminId : undefined;
    });
    app.decorate('isLiveStaffSid', async (sid: string) => (await app.liveStaffIdOf(sid)) !== undefined);

    app.decorate('requireStaff', async (request: FastifyRequest) => {
      const { session } = request;
      const now = app.clock.now();
      if (!isLiveStaffSession(session, staffIdleMs, now)) {
        if (session.adminId) clearStaff(session);
        throw new HttpError(401, notAuthenticatedMessage);
      }
      session.staffLastActiveAt = now;
    });

    app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      await app.requireStaff(request, reply);
      await actingStaff(app.db, signedInStaffId(request.session), 'admin', { inWrite: false });
    });

    app.decorate('requireDealer', async (request: FastifyRequest) => {
      if (!request.session.dealerId) throw new HttpError(401, notAuthenticatedMessage);
    });

    /**
     * A sign-in check runs before the body is parsed and validated: without a session the answer is
     * 401, never a 400 that tells a stranger what the route accepts. A route that hooks it later
     * stops the server at start rather than answer in the wrong order.
     */
    const signInChecks: unknown[] = [app.requireStaff, app.requireAdmin, app.requireDealer];
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const stage of ['preValidation', 'preHandler'] as const) {
        const hooks: unknown[] = [route[stage] ?? []].flat();
        if (hooks.some((hook) => signInChecks.includes(hook))) {
          throw new Error(`${String(route.method)} ${route.url}: a sign-in check belongs in onRequest, not ${stage}`);
        }
      }
    });
  },
  { name: 'auth', dependencies: ['session', 'db'] },
);
