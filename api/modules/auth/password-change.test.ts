// @scaled: sockets of other nodes closed through the Redis adapter
import { setTimeout as sleep } from 'node:timers/promises';
import type { Session } from 'fastify';
import { describe, expect, it } from 'vitest';
import { signInStaff, staffEmail, staffEnv, staffPassword } from '../../../test/support/factories';
import { buildTestServer, cookiesFrom } from '../../../test/support/helper';
import { readOutbox } from '../../../test/support/outbox';
import { connectStaffSocket } from '../../../test/support/staff-socket';
import { bootstrapStaff, createDealer, createOrResetStaff } from './accounts';

/** The session id inside a signed `lw_session` cookie of a Cookie header. */
function sessionIdOf(cookie: string): string {
  return decodeURIComponent(/lw_session=([^;]+)/.exec(cookie)![1]!).split('.')[0]!;
}

describe('a password change ends the other sessions of the account', async () => {
  const { app, dir } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  const post = (url: string, payload: object | undefined, cookie?: string) =>
    app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
  const session = async (cookie: string) => (await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).json();
  const counts = (cookie: string) => app.inject({ method: 'GET', url: '/api/admin/counts', headers: { cookie } });
  const dealerSignIn = async (username: string, password: string, cookie?: string) => {
    const response = await post('/api/login', { username, password }, cookie);
    expect(response.statusCode).toBe(200);
    return cookiesFrom(response, cookie);
  };
  const resetToken = async (email: string) => {
    expect((await post('/api/forgot-password', { email })).statusCode).toBe(200);
    await app.jobs.runDue();
    const mail = (await readOutbox(dir)).filter((sent) => sent.headers.to === email).at(-1);
    return /reset-password\?token=([A-Za-z0-9_.-]+)/.exec(mail?.text ?? '')![1]!;
  };
  const storedSessionIds = async () => (await app.db.selectFrom('sessions').select('sid').execute()).map((row) => row.sid);

  it('a reset signs the dealer out of every other browser, keeps the one that made it, and spares a staff sign-in there', async () => {
    await createDealer(app.db, app.write, { username: 'oak-motors', email: 'sam@oak-motors.example', password: 'oak-password-1' });
    const laptop = await dealerSignIn('oak-motors', 'oak-password-1');
    const phone = await dealerSignIn('sam@oak-motors.example', 'oak-password-1');
    // A shared office browser: the dealer and a staff member signed in side by side.
    const office = cookiesFrom(await post('/api/admin-login', { username: staffEmail, password: staffPassword }, await dealerSignIn('oak-motors', 'oak-password-1')));

    const reset = await post('/api/reset-password', { token: await resetToken('sam@oak-motors.example'), password: 'oak-password-2' }, phone);
    expect(reset.statusCode).toBe(200);

    expect((await session(laptop)).dealer).toBeNull();
    expect(await storedSessionIds()).not.toContain(sessionIdOf(laptop));
    expect((await session(phone)).dealer).toEqual({ username: 'oak-motors' });
    expect(await session(office)).toMatchObject({ dealer: null, admin: { email: staffEmail } });
    expect((await counts(office)).statusCode).toBe(200);
  });

  it('a reset from a browser not signed in ends every session of the dealer', async () => {
    await createDealer(app.db, app.write, { username: 'elm-autos', email: 'kim@elm-autos.example', password: 'elm-password-1' });
    const before = await dealerSignIn('elm-autos', 'elm-password-1');
    const reset = await post('/api/reset-password', { token: await resetToken('kim@elm-autos.example'), password: 'elm-password-2' });
    expect(reset.statusCode).toBe(200);
    expect((await session(before)).dealer).toBeNull();
    expect((await dealerSignIn('elm-autos', 'elm-password-2')).length).toBeGreaterThan(0);
  });

  it('a request in flight during the reset cannot bring the old session back by saving it', async () => {
    await createDealer(app.db, app.write, { username: 'ash-cars', email: 'lou@ash-cars.example', password: 'ash-password-1' });
    const cookie = await dealerSignIn('ash-cars', 'ash-password-1');
    const sid = sessionIdOf(cookie);
    const inFlight = (await app.loadSession(sid)) as Session;
    expect(inFlight.dealerId).toBeDefined();

    expect((await post('/api/reset-password', { token: await resetToken('lou@ash-cars.example'), password: 'ash-password-2' })).statusCode).toBe(200);
    // What @fastify/session does at the end of a request that loaded the session before the reset.
    await new Promise<void>((resolve, reject) => app.sessionStore.set(sid, inFlight, (error) => (error ? reject(error instanceof Error ? error : new Error('session store failed')) : resolve())));

    expect((await session(cookie)).dealer).toBeNull();
  });

  it('admin:create resetting a staff password ends the staff sessions signed in before', async () => {
    await createOrResetStaff(app.write, 'rota@lotwise.example', 'rota-password-1');
    const before = (await signInStaff(app, 'rota@lotwise.example', 'rota-password-1')).cookie;
    const other = (await signInStaff(app)).cookie;
    expect((await counts(before)).statusCode).toBe(200);

    expect(await createOrResetStaff(app.write, 'rota@lotwise.example', 'rota-password-2')).toBe('updated');

    expect((await counts(before)).statusCode).toBe(401);
    expect(await storedSessionIds()).not.toContain(sessionIdOf(before));
    expect((await counts(other)).statusCode).toBe(200);
    expect((await counts((await signInStaff(app, 'rota@lotwise.example', 'rota-password-2')).cookie)).statusCode).toBe(200);
  });

  it('the ADMIN_PASSWORD bootstrap at start ends the sessions of the password it replaces', async () => {
    await createOrResetStaff(app.write, 'night@lotwise.example', 'night-password-1');
    const before = (await signInStaff(app, 'night@lotwise.example', 'night-password-1')).cookie;
    const start = (adminPassword: string) => bootstrapStaff(app.db, app.write, { adminEmail: 'night@lotwise.example', adminPassword, announce: () => undefined });
    // A restart with the same password signs nobody out.
    await start('night-password-1');
    expect((await counts(before)).statusCode).toBe(200);
    await start('night-password-2');
    expect((await counts(before)).statusCode).toBe(401);
    expect((await counts((await signInStaff(app, 'night@lotwise.example', 'night-password-2')).cookie)).statusCode).toBe(200);
  });
});

describe('a staff password change and live dashboard sockets', async () => {
  // 0.1 minutes: the server checks its staff sockets' sessions every 3 seconds.
  const { app } = await buildTestServer({ STAFF_IDLE_MINUTES: '0.1', RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { listen: true });

  it("closes the sockets of the account's old sessions, and only those", async () => {
    await createOrResetStaff(app.write, 'desk@lotwise.example', 'desk-password-1');
    await createOrResetStaff(app.write, 'floor@lotwise.example', 'floor-password-1');
    const leavingCookie = (await signInStaff(app, 'desk@lotwise.example', 'desk-password-1')).cookie;
    const stayingCookie = (await signInStaff(app, 'floor@lotwise.example', 'floor-password-1')).cookie;
    const leaving = await connectStaffSocket(app, leavingCookie);
    const staying = await connectStaffSocket(app, stayingCookie);
    let closedAfterChange = false;
    leaving.once('disconnect', () => {
      closedAfterChange = true;
    });
    // Both dashboards stay busy, so neither session can end by idling.
    const busy = () => Promise.all([leavingCookie, stayingCookie].map((cookie) => app.inject({ method: 'GET', url: '/api/admin/counts', headers: { cookie } })));
    try {
      await busy();
      // As `npm run admin:create` does from another process: only the database changes.
      await createOrResetStaff(app.write, 'desk@lotwise.example', 'desk-password-2');
      for (let waited = 0; !closedAfterChange && waited < 10_000; waited += 500) {
        await busy();
        await sleep(500);
      }
      expect(closedAfterChange).toBe(true);
      // A further check of the sessions leaves the other account's socket open.
      for (let waited = 0; waited < 3500; waited += 500) {
        await busy();
        await sleep(500);
      }
      expect(staying.connected).toBe(true);
    } finally {
      leaving.disconnect();
      staying.disconnect();
    }
  });
});
