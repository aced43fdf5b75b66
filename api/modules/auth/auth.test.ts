import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { commonPasswordMessage, forgotPasswordAnswer, passwordIsIdentityMessage } from '../../contract/auth';
import { rooms } from '../../contract/socket';
import { manualClock } from '../../../test/support/clock';
import { signInStaff, staffEmail, staffEnv, staffPassword } from '../../../test/support/factories';
import { buildTestServer, cookiesFrom } from '../../../test/support/helper';
import { readOutbox } from '../../../test/support/outbox';
import { connectStaffSocket } from '../../../test/support/staff-socket';
import { createDealer, createOrResetStaff } from './accounts';
import { passwordResetDoneMessage, resetLinkInvalidMessage } from './auth.routes';

const invalid = { message: 'Invalid username or password' };

describe('sign-in, session and sign-out', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  await createDealer(app.db, app.write, { username: 'reyes-motors', email: 'Owner@Reyes-Motors.example', password: 'dealer-password-1' });

  const post = (url: string, payload: unknown, cookie?: string) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers: cookie ? { cookie } : {} });
  const session = async (cookie?: string) => (await app.inject({ method: 'GET', url: '/api/session', headers: cookie ? { cookie } : {} })).json();
  const sessionRows = async () => Number((await app.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('tells an anonymous visitor nobody is signed in, issues the visitor cookie and stores no session', async () => {
    const before = await sessionRows();
    const response = await app.inject({ method: 'GET', url: '/api/session' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ admin: null, dealer: null, staffIdleMinutes: 10 });
    expect(response.cookies.map((cookie) => cookie.name)).toContain('lw_visitor');
    expect(response.cookies.find((cookie) => cookie.name === 'lw_visitor')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(await sessionRows()).toBe(before);
  });

  it('signs a dealer in by username or by email in any case', async () => {
    const byName = await post('/api/login', { username: 'reyes-motors', password: 'dealer-password-1' });
    expect(byName.statusCode).toBe(200);
    expect(byName.json()).toEqual({ message: 'Login successful', user: { id: expect.any(Number), username: 'reyes-motors' } });
    expect(await session(cookiesFrom(byName))).toEqual({ admin: null, dealer: { username: 'reyes-motors' }, staffIdleMinutes: 10 });

    const byEmail = await post('/api/login', { username: 'owner@reyes-motors.EXAMPLE', password: 'dealer-password-1' });
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.cookies.find((cookie) => cookie.name === 'lw_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('answers a wrong password and an unknown account with the same 401', async () => {
    const wrong = await post('/api/login', { username: 'reyes-motors', password: 'not-the-password' });
    const unknown = await post('/api/login', { username: 'nobody-here', password: 'dealer-password-1' });
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json()).toEqual(invalid);
    expect(unknown.json()).toEqual(invalid);
    expect(wrong.cookies).toEqual([]);
    const staffWrong = await post('/api/admin-login', { username: staffEmail, password: 'wrong-password' });
    const staffUnknown = await post('/api/admin-login', { username: 'ghost@lotwise.example', password: staffPassword });
    expect([staffWrong.statusCode, staffUnknown.statusCode]).toEqual([401, 401]);
    expect(staffWrong.json()).toEqual(invalid);
    expect(staffUnknown.json()).toEqual(invalid);
    // A dealer's password does not open the staff dashboard.
    expect((await post('/api/admin-login', { username: 'owner@reyes-motors.example', password: 'dealer-password-1' })).statusCode).toBe(401);
  });

  it('requires both dealer login fields', async () => {
    const response = await post('/api/login', { username: '  ', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Validation failed', errors: { username: 'Username is required', password: 'Password is required' } });
  });

  it('gives the admin login the field messages of the contract', async () => {
    const badEmail = await post('/api/admin-login', { username: 'staff', password: 'x' });
    expect(badEmail.json()).toEqual({ message: 'Validation failed', errors: { username: 'Please enter a valid email address' } });
    const noPassword = await post('/api/admin-login', { username: staffEmail, password: '' });
    expect(noPassword.json()).toEqual({ message: 'Validation failed', errors: { password: 'Password is required' } });
  });

  it('signs staff in with the idle limit, and the session says so', async () => {
    const response = await post('/api/admin-login', { username: staffEmail.toUpperCase(), password: staffPassword });
    expect(response.statusCode).toBe(200);
    // The ADMIN_EMAIL account is an admin; with no display name chosen it shows the email's part before the @.
    const account = { email: staffEmail, role: 'admin', displayName: 'staff' };
    expect(response.json()).toEqual({ message: 'Login successful', admin: account, staffIdleMinutes: 10 });
    expect((await session(cookiesFrom(response))).admin).toEqual(account);
  });

  it("shows a staff member's role and display name as they are now, in the sign-in answer and the session", async () => {
    await createOrResetStaff(app.write, 'anna.lee@lotwise.example', 'anna-staff-password-1', { displayName: '  Anna  ' });
    const response = await post('/api/admin-login', { username: 'anna.lee@lotwise.example', password: 'anna-staff-password-1' });
    expect(response.json()).toMatchObject({ admin: { email: 'anna.lee@lotwise.example', role: 'admin', displayName: 'Anna' } });
    await app.db.updateTable('admins').set({ role: 'agent', displayName: null }).where('email', '=', 'anna.lee@lotwise.example').execute();
    expect((await session(cookiesFrom(response))).admin).toEqual({ email: 'anna.lee@lotwise.example', role: 'agent', displayName: 'anna.lee' });
    // A display name the contract refuses creates nothing.
    await expect(createOrResetStaff(app.write, 'blank@lotwise.example', 'blank-staff-password-1', { displayName: ' ' })).rejects.toThrow('Display name cannot be empty');
    expect(await app.db.selectFrom('admins').select('id').where('email', '=', 'blank@lotwise.example').execute()).toEqual([]);
  });

  it('issues a new session id at sign-in, so a planted id is worthless', async () => {
    const dealer = await post('/api/login', { username: 'reyes-motors', password: 'dealer-password-1' });
    const planted = cookiesFrom(dealer);
    const staff = await post('/api/admin-login', { username: staffEmail, password: staffPassword }, planted);
    const fresh = cookiesFrom(staff, planted);
    expect(fresh).not.toBe(planted);
    // The old id no longer opens anything; the new one carries both sign-ins.
    expect(await session(planted)).toMatchObject({ admin: null, dealer: null });
    expect(await session(fresh)).toMatchObject({ admin: { email: staffEmail }, dealer: { username: 'reyes-motors' } });
  });

  it('signs a dealer out, leaving a staff sign-in in the same browser alone', async () => {
    const dealer = await post('/api/login', { username: 'reyes-motors', password: 'dealer-password-1' });
    const both = cookiesFrom(await post('/api/admin-login', { username: staffEmail, password: staffPassword }, cookiesFrom(dealer)), cookiesFrom(dealer));
    const out = await post('/api/logout', undefined, both);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    expect(await session(both)).toMatchObject({ admin: { email: staffEmail }, dealer: null });
    // The session lives on for the staff sign-in, so the browser keeps its cookie.
    expect(out.cookies.find((cookie) => cookie.name === 'lw_session' && cookie.value === '')).toBeUndefined();
  });

  it('signs the only sign-in out with a Set-Cookie that expires the session cookie', async () => {
    const cookie = cookiesFrom(await post('/api/login', { username: 'reyes-motors', password: 'dealer-password-1' }));
    const out = await post('/api/logout', undefined, cookie);
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((set) => set.name === 'lw_session')).toMatchObject({ value: '', path: '/', httpOnly: true, sameSite: 'Lax', expires: new Date(0) });
    expect((await session(cookie)).dealer).toBeNull();
  });

  it('signs staff out: staff calls answer 401 after it and the empty session row is gone', async () => {
    const cookie = (await signInStaff(app)).cookie;
    expect((await app.inject({ method: 'GET', url: '/api/admin/counts', headers: { cookie } })).statusCode).toBe(200);
    const before = await sessionRows();
    const out = await post('/api/admin-logout', undefined, cookie);
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((set) => set.name === 'lw_session')).toMatchObject({ value: '', path: '/', expires: new Date(0) });
    expect((await app.inject({ method: 'GET', url: '/api/admin/counts', headers: { cookie } })).json()).toEqual({ message: 'Not authenticated' });
    expect((await session(cookie)).admin).toBeNull();
    expect(await sessionRows()).toBe(before - 1);
  });

  it('refuses a cross-site sign-out carrying the cookie', async () => {
    const cookie = (await signInStaff(app)).cookie;
    const response = await app.inject({ method: 'POST', url: '/api/admin-logout', headers: { cookie, origin: 'https://evil.example' } });
    expect(response.statusCode).toBe(403);
    expect((await session(cookie)).admin).toMatchObject({ email: staffEmail });
  });
});

describe('staff idle expiry', async () => {
  // 0.02 minutes = 1.2 seconds of idleness ends a staff session, on a clock the test moves.
  const clock = manualClock();
  const { app } = await buildTestServer({ ...staffEnv, STAFF_IDLE_MINUTES: '0.02', RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { clock });
  const counts = (cookie: string) => app.inject({ method: 'GET', url: '/api/admin/counts', headers: { cookie } });
  const session = async (cookie: string) => (await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).json();

  it('ends a staff session after the idle limit without staff requests', async () => {
    const cookie = (await signInStaff(app)).cookie;
    expect((await session(cookie)).staffIdleMinutes).toBe(0.02);
    expect((await counts(cookie)).statusCode).toBe(200);
    clock.advance(1200);
    expect((await session(cookie)).admin).toMatchObject({ email: staffEmail });
    clock.advance(1201);
    expect((await counts(cookie)).statusCode).toBe(401);
    expect((await session(cookie)).admin).toBeNull();
  });

  it('reports admin null from GET /api/session once the limit has passed', async () => {
    const cookie = (await signInStaff(app)).cookie;
    clock.advance(1201);
    expect((await session(cookie)).admin).toBeNull();
    expect((await counts(cookie)).statusCode).toBe(401);
  });

  it('counts GET /api/session and staff calls as activity', async () => {
    const cookie = (await signInStaff(app)).cookie;
    for (let i = 0; i < 4; i += 1) {
      clock.advance(1000);
      expect((await session(cookie)).admin).toMatchObject({ email: staffEmail });
    }
    clock.advance(1000);
    expect((await counts(cookie)).statusCode).toBe(200);
  });
});

describe('forgot and reset password', async () => {
  const { app, dir } = await buildTestServer({ RATE_LIMIT_ALLOWLIST: '127.0.0.1', PUBLIC_URL: 'https://www.lotwise.example' });
  await createDealer(app.db, app.write, { username: 'park-cars', email: 'lee@park-cars.example', password: 'old-password-1' });
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object });

  const mailedToken = async (): Promise<string> => {
    await app.jobs.runDue();
    const mails = await readOutbox(dir);
    const last = mails.at(-1);
    const match = last?.text.match(/https:\/\/www\.lotwise\.example\/reset-password\?token=([A-Za-z0-9_.-]+)/);
    if (!match?.[1]) throw new Error(`no reset link in the outbox: ${last?.text ?? '(empty)'}`);
    return match[1];
  };

  it('mails a link, resets the password with it once, and the new password signs in', async () => {
    const response = await post('/api/forgot-password', { email: 'LEE@park-cars.example' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: forgotPasswordAnswer });
    const token = await mailedToken();
    const mail = (await readOutbox(dir)).at(-1)!;
    expect(mail.headers.to).toBe('lee@park-cars.example');
    expect(mail.headers.subject).toBe('Reset your Lotwise password');

    // Only the token's hash is stored.
    const stored = await app.db.selectFrom('passwordResets').select(['token', 'used', 'expiresAt']).execute();
    expect(stored.map((row) => row.token)).toEqual([createHash('sha256').update(token).digest('hex')]);
    const lifetime = new Date(stored[0]!.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(59 * 60 * 1000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60 * 1000);

    const reset = await post('/api/reset-password', { token, password: 'new-password-2' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ message: passwordResetDoneMessage });

    expect((await post('/api/login', { username: 'park-cars', password: 'new-password-2' })).statusCode).toBe(200);
    expect((await post('/api/login', { username: 'park-cars', password: 'old-password-1' })).statusCode).toBe(401);

    const again = await post('/api/reset-password', { token, password: 'third-password-3' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: resetLinkInvalidMessage });
  });

  it('answers the same sentence for an unknown email and mails nothing', async () => {
    const before = (await readOutbox(dir)).length;
    const response = await post('/api/forgot-password', { email: 'nobody@nowhere.example' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: forgotPasswordAnswer });
    await app.jobs.runDue();
    expect((await readOutbox(dir)).length).toBe(before);
  });

  it('validates the forgot-password email', async () => {
    const response = await post('/api/forgot-password', { email: 'not-an-email' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.email).toBe('Please enter a valid email address');
  });

  it('mails the latest link again while it has a while to run, and spends every earlier link when one is used', async () => {
    await post('/api/forgot-password', { email: 'lee@park-cars.example' });
    const first = await mailedToken();
    await post('/api/forgot-password', { email: 'lee@park-cars.example' });
    expect(await mailedToken()).toBe(first);
    // With under 15 minutes left, a request gets a new link with a full hour.
    await app.db.updateTable('passwordResets').set({ expiresAt: new Date(Date.now() + 10 * 60_000).toISOString() }).execute();
    await post('/api/forgot-password', { email: 'lee@park-cars.example' });
    const second = await mailedToken();
    expect(second).not.toBe(first);
    expect((await post('/api/reset-password', { token: second, password: 'fourth-password-4' })).statusCode).toBe(200);
    expect((await post('/api/reset-password', { token: first, password: 'fifth-password-5' })).statusCode).toBe(400);
    expect((await post('/api/login', { username: 'park-cars', password: 'fourth-password-4' })).statusCode).toBe(200);
  });

  it('refuses a common password or the account\'s own name, in any case, and leaves the link for a better one', async () => {
    await post('/api/forgot-password', { email: 'lee@park-cars.example' });
    const token = await mailedToken();
    const refused = (sentence: string) => ({ message: 'Validation failed', errors: { password: sentence } });
    for (const password of ['password123', 'PassWord123', 'iloveyou1', 'qwertyuiop']) {
      const response = await post('/api/reset-password', { token, password });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(refused(commonPasswordMessage));
    }
    for (const password of ['park-cars', 'PARK-CARS', 'Lee@Park-Cars.example']) {
      // The username itself is only 9 characters: long enough to pass the length rule.
      expect((await post('/api/reset-password', { token, password })).json()).toEqual(refused(passwordIsIdentityMessage));
    }
    await createDealer(app.db, app.write, { username: 'fern-motors', email: 'jordan.fernandez@fern.example', password: 'fern-password-1' });
    await post('/api/forgot-password', { email: 'jordan.fernandez@fern.example' });
    const fernToken = await mailedToken();
    expect((await post('/api/reset-password', { token: fernToken, password: 'Jordan.Fernandez' })).json()).toEqual(refused(passwordIsIdentityMessage));

    expect((await post('/api/reset-password', { token, password: 'seventh-password-7' })).statusCode).toBe(200);
    expect((await post('/api/login', { username: 'park-cars', password: 'seventh-password-7' })).statusCode).toBe(200);
  });

  it('refuses an expired link and a made-up one', async () => {
    const token = `expired-token-0123456789abcdef.${'s'.repeat(43)}`;
    await app.db
      .insertInto('passwordResets')
      .values({
        email: 'lee@park-cars.example',
        token: createHash('sha256').update(token).digest('hex'),
        expiresAt: new Date(Date.now() - 1000).toISOString(),
        createdAt: new Date(Date.now() - 3_601_000).toISOString(),
        used: 0,
      })
      .execute();
    expect((await post('/api/reset-password', { token, password: 'sixth-password-6' })).json()).toEqual({ message: resetLinkInvalidMessage });
    expect((await post('/api/reset-password', { token: `made-up-token-0123456789abcdef.${'s'.repeat(43)}`, password: 'sixth-password-6' })).statusCode).toBe(400);
    const short = await post('/api/reset-password', { token: `made-up-token-0123456789.${'s'.repeat(43)}`, password: 'short' });
    expect(short.json().errors.password).toBe('Password must be at least 8 characters');
  });
});

describe('staff sign-out and live sockets', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { listen: true });

  it('disconnects the staff sockets of that sign-in, and only those', async () => {
    const leaving = (await signInStaff(app)).cookie;
    const staying = (await signInStaff(app)).cookie;
    const sessionIdOf = (cookie: string) => decodeURIComponent(/lw_session=([^;.]+)/.exec(cookie)![1]!);
    // Each staff socket sits in the room of its sign-in (the chat module's connect handler does this).
    app.staffSockets.on('connection', (socket) => {
      const sessionId = sessionIdOf(socket.handshake.headers.cookie ?? '');
      void socket.join(rooms.staffSession(sessionId));
    });
    const leavingSocket = await connectStaffSocket(app, leaving);
    const stayingSocket = await connectStaffSocket(app, staying);
    try {
      const told = new Promise<void>((resolve) => leavingSocket.once('session:expired', () => resolve()));
      const disconnected = new Promise<string>((resolve) => leavingSocket.once('disconnect', resolve));
      const response = await app.inject({ method: 'POST', url: '/api/admin-logout', headers: { cookie: leaving } });
      expect(response.statusCode).toBe(200);
      // Its other tabs show the sign-in card at once (session:expired), then lose their feed.
      await told;
      await expect(disconnected).resolves.toBe('io server disconnect');
      // A round trip on the other sign-in's socket: a disconnect of it would have come first.
      await stayingSocket.timeout(5000).emitWithAck('chat:viewers');
      expect(stayingSocket.connected).toBe(true);
    } finally {
      leavingSocket.disconnect();
      stayingSocket.disconnect();
    }
  });
});
