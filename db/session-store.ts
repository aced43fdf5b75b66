import type { SessionStore } from '@fastify/session';
import type { Session } from 'fastify';
import type { Db } from './client';

type Callback = (error?: unknown) => void;
type SessionCallback = (error: unknown, session?: Session | null) => void;

const fallbackLifetimeMs = 24 * 60 * 60 * 1000;

/**
 * The cookie-session store of @fastify/session, kept in the `sessions` table so a restart keeps
 * everyone signed in (never the in-memory store). Plain JSON in, plain JSON out.
 */
export class SqlSessionStore implements SessionStore {
  constructor(private readonly db: Db) {}

  set(sid: string, session: Session, callback: Callback): void {
    const expires = session.cookie.expires ? new Date(session.cookie.expires).getTime() : Date.now() + fallbackLifetimeMs;
    const data = JSON.stringify(session);
    this.db
      .insertInto('sessions')
      .values({ sid, data, expiresAt: expires })
      .onConflict((conflict) => conflict.column('sid').doUpdateSet({ data, expiresAt: expires }))
      .execute()
      .then(() => callback(), callback);
  }

  get(sid: string, callback: SessionCallback): void {
    this.db
      .selectFrom('sessions')
      .select(['data', 'expiresAt'])
      .where('sid', '=', sid)
      .executeTakeFirst()
      .then((row) => {
        if (!row || row.expiresAt <= Date.now()) return callback(null, null);
        callback(null, JSON.parse(row.data) as Session);
      }, callback);
  }

  destroy(sid: string, callback: Callback): void {
    this.db
      .deleteFrom('sessions')
      .where('sid', '=', sid)
      .execute()
      .then(() => callback(), callback);
  }

  /** Removes expired rows; run now and then, not on a hot path. */
  async prune(now = Date.now()): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('expiresAt', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
