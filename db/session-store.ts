import type { SessionStore } from '@fastify/session';
import type { Session } from 'fastify';
import type { Db } from './client';

type Callback = (error?: unknown) => void;
type SessionCallback = (error: unknown, session?: Session | null) => void;

const fallbackLifetimeMs = 24 * 60 * 60 * 1000;

/** What a staff sign-in puts in a session; signing out or expiring removes exactly these. */
export const staffSignInFields = ['adminId', 'adminEmail', 'staffLastActiveAt', 'adminCredentialVersion'] as const satisfies readonly (keyof Session)[];
/** What a dealer sign-in puts in a session. */
export const dealerSignInFields = ['dealerId', 'dealerUsername', 'dealerCredentialVersion'] as const satisfies readonly (keyof Session)[];

function forget(session: Session, fields: readonly (keyof Session)[]): void {
  for (const field of fields) delete session[field];
}

/**
 * The cookie-session store of @fastify/session, kept in the `sessions` table so a restart keeps
 * everyone signed in (never the in-memory store). Plain JSON in, plain JSON out, plus the ids of the
 * accounts signed in, in their own columns.
 *
 * A sign-in stamps its account's credential version into the session; a load drops any sign-in
 * whose account has changed its password since (or is gone). This holds in every server process,
 * and a request in flight that writes its old copy back revives nothing.
 */
export class SqlSessionStore implements SessionStore {
  /** `write` is the app's one way to write (api/events), handed down: db/ knows no events. */
  constructor(
    private readonly db: Db,
    private readonly write: <T>(work: (db: Db) => Promise<T>) => Promise<T>,
  ) {}

  set(sid: string, session: Session, callback: Callback): void {
    const expires = session.cookie.expires ? new Date(session.cookie.expires).getTime() : Date.now() + fallbackLifetimeMs;
    const data = JSON.stringify(session);
    const accounts = { adminId: session.adminId ?? null, dealerId: session.dealerId ?? null };
    this.write((db) =>
      db
        .insertInto('sessions')
        .values({ sid, data, expiresAt: expires, ...accounts })
        .onConflict((conflict) => conflict.column('sid').doUpdateSet({ data, expiresAt: expires, ...accounts }))
        .execute(),
    ).then(() => callback(), callback);
  }

  get(sid: string, callback: SessionCallback): void {
    this.db
      .selectFrom('sessions')
      .leftJoin('admins', 'admins.id', 'sessions.adminId')
      .leftJoin('users', 'users.id', 'sessions.dealerId')
      .select(['sessions.data', 'sessions.expiresAt', 'admins.credentialVersion as adminVersion', 'users.credentialVersion as dealerVersion'])
      .where('sessions.sid', '=', sid)
      .executeTakeFirst()
      .then((row) => {
        if (!row || row.expiresAt <= Date.now()) return callback(null, null);
        const session = JSON.parse(row.data) as Session;
        let dropped = false;
        if (session.adminId !== undefined && session.adminCredentialVersion !== row.adminVersion) {
          forget(session, staffSignInFields);
          dropped = true;
        }
        if (session.dealerId !== undefined && session.dealerCredentialVersion !== row.dealerVersion) {
          forget(session, dealerSignInFields);
          dropped = true;
        }
        // A session whose only sign-ins were just dropped is no session at all.
        if (dropped && session.adminId === undefined && session.dealerId === undefined) return callback(null, null);
        callback(null, session);
      }, callback);
  }

  destroy(sid: string, callback: Callback): void {
    this.write((db) => db.deleteFrom('sessions').where('sid', '=', sid).execute()).then(() => callback(), callback);
  }
}

/** Removes expired rows; run now and then (a periodic job), not on a hot path. */
export async function pruneExpiredSessions(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expiresAt', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Ends the sign-ins of one account after its password changed, all but the session `keepSid`
 * (the one making the change, if any). A row holding only that sign-in is deleted; one that also
 * holds a sign-in of the other kind loses this one at its next load, its stamp being behind.
 * Returns the ids of every session that held the sign-in, so their live sockets can be closed.
 */
export async function endSignInsOf(db: Db, account: { adminId: number } | { dealerId: number }, keepSid?: string): Promise<string[]> {
  const [column, otherColumn, id] =
    'adminId' in account ? (['adminId', 'dealerId', account.adminId] as const) : (['dealerId', 'adminId', account.dealerId] as const);
  const held = await db
    .selectFrom('sessions')
    .select('sid')
    .where(column, '=', id)
    .where('sid', '!=', keepSid ?? '')
    .execute();
  await db
    .deleteFrom('sessions')
    .where(column, '=', id)
    .where(otherColumn, 'is', null)
    .where('sid', '!=', keepSid ?? '')
    .execute();
  return held.map((row) => row.sid);
}
