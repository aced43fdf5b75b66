import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import SQLite from 'better-sqlite3';
import { io, type Socket } from 'socket.io-client';
import type { StaffClientToServerEvents, StaffServerToClientEvents } from '../../api/contract/socket';

export const staffEmail = 'staff@lotwise.example';
export const staffPassword = 'staff-password-123';

export type StaffSocket = Socket<StaffServerToClientEvents, StaffClientToServerEvents>;

/** The Cookie header of a staff sign-in through the real `POST /api/admin-login`. */
async function loginCookie(request: APIRequestContext): Promise<string | null> {
  const response = await request.post('/api/admin-login', { data: { username: staffEmail, password: staffPassword } });
  if (response.status() === 404) return null;
  if (!response.ok()) throw new Error(`admin-login failed: ${response.status()} ${await response.text()}`);
  const session = response.headersArray().find((header) => header.name.toLowerCase() === 'set-cookie' && header.value.startsWith('lw_session='));
  if (!session) throw new Error('admin-login set no session cookie');
  return session.value.split(';')[0]!;
}

/**
 * Until the auth module's admin-login is on this branch: a staff session written into the e2e
 * server's own session store and signed with its secret, exactly what a login would leave there.
 */
function storedSessionCookie(): string {
  const dataDir = resolve('.e2e-data');
  const secret = readFileSync(resolve(dataDir, 'session-secret'), 'utf8').trim();
  const db = new SQLite(resolve(dataDir, 'app.db'));
  db.pragma('busy_timeout = 5000');
  try {
    const now = new Date().toISOString();
    db.prepare('insert or ignore into admins (email, password_hash, created_at) values (?, ?, ?)').run(staffEmail, 'e2e-only', now);
    const { id } = db.prepare('select id from admins where email = ?').get(staffEmail) as { id: number };
    const sid = randomBytes(24).toString('base64url');
    const lifetimeMs = 24 * 60 * 60 * 1000;
    const expires = Date.now() + lifetimeMs;
    const data = {
      cookie: { originalMaxAge: lifetimeMs, expires: new Date(expires).toISOString(), httpOnly: true, path: '/', sameSite: 'lax', secure: false },
      adminId: id,
      adminEmail: staffEmail,
      staffLastActiveAt: Date.now(),
    };
    db.prepare('insert into sessions (sid, data, expires_at) values (?, ?, ?)').run(sid, JSON.stringify(data), expires);
    const signature = createHmac('sha256', secret).update(sid).digest('base64').replace(/=/g, '');
    return `lw_session=${encodeURIComponent(`${sid}.${signature}`)}`;
  } finally {
    db.close();
  }
}

/** A connected staff socket on `/admin`, as the staff dashboard would hold. */
export async function connectStaff(request: APIRequestContext, baseURL: string): Promise<StaffSocket> {
  const cookie = (await loginCookie(request)) ?? storedSessionCookie();
  const socket: StaffSocket = io(`${baseURL}/admin`, { transports: ['websocket'], extraHeaders: { cookie }, forceNew: true });
  await new Promise<void>((done, fail) => {
    socket.once('connect', done);
    socket.once('connect_error', fail);
  });
  return socket;
}
