import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { forgotPasswordAnswer } from '../../contract/auth';
import { signInStaff, staffEmail, staffEnv, staffPassword } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';
import { readOutbox } from '../../../test/support/outbox';
import { createDealer } from './accounts';

describe('sign-in and reset limits', async () => {
  const { app, dir } = await buildTestServer({ ...staffEnv, RESET_MAIL_SPACING_SECONDS: '1' });
  await createDealer(app.db, app.write, { username: 'limit-dealer', email: 'limit@dealer.example', password: 'dealer-password-1' });
  await createDealer(app.db, app.write, { username: 'twin-dealer', email: 'twin@dealer.example', password: 'dealer-password-1' });
  await createDealer(app.db, app.write, { username: 'mail-dealer', email: 'mail@dealer.example', password: 'dealer-password-1' });
  await createDealer(app.db, app.write, { username: 'siege-dealer', email: 'siege@dealer.example', password: 'dealer-password-1' });
  await createDealer(app.db, app.write, { username: 'v6-dealer', email: 'v6@dealer.example', password: 'dealer-password-1' });
  const post = (url: string, payload: object, remoteAddress: string) => app.inject({ method: 'POST', url, payload, remoteAddress });
  const tooMany = /^Too many requests: please wait \d+ seconds and try again$/;

  it('locks the guessing address out of an account after 10 failures, while the owner signs in from another', async () => {
    for (let i = 0; i < 10; i += 1) {
      const response = await post('/api/admin-login', { username: staffEmail, password: `wrong-${i}` }, '10.1.0.1');
      expect(response.statusCode).toBe(401);
    }
    const locked = await post('/api/admin-login', { username: staffEmail, password: staffPassword }, '10.1.0.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(tooMany);
    expect((await post('/api/admin-login', { username: staffEmail, password: staffPassword }, '10.1.0.2')).statusCode).toBe(200);
    // The locked address may still sign in to other accounts.
    expect((await post('/api/login', { username: 'limit-dealer', password: 'dealer-password-1' }, '10.1.0.1')).statusCode).toBe(200);
  });

  it("counts a dealer's username and email logins as one account", async () => {
    for (const login of ['twin-dealer', 'TWIN@dealer.example', 'twin-dealer', 'twin@dealer.example', 'twin@DEALER.example']) {
      expect((await post('/api/login', { username: login, password: 'wrong-password' }, '10.4.0.1')).statusCode).toBe(401);
      expect((await post('/api/login', { username: login, password: 'wrong-password' }, '10.4.0.1')).statusCode).toBe(401);
    }
    expect((await post('/api/login', { username: 'twin-dealer', password: 'dealer-password-1' }, '10.4.0.1')).statusCode).toBe(429);
    expect((await post('/api/login', { username: 'twin@dealer.example', password: 'dealer-password-1' }, '10.4.0.1')).statusCode).toBe(429);
  });

  it('limits guesses at a login that names no account in the same way, whatever its case', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const login = i % 2 ? 'Nobody@Nowhere.example' : 'nobody@nowhere.example';
      statuses.push((await post('/api/login', { username: login, password: `guess-${i}` }, '10.5.0.1')).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
  });

  it("never holds the owner's browser back for other addresses' failures, and meets the others with a wait, not a wall", async () => {
    const login = (password: string, address: string, cookie?: string) =>
      app.inject({ method: 'POST', url: '/api/login', payload: { username: 'siege-dealer', password }, remoteAddress: address, headers: cookie ? { cookie } : {} });
    // The owner signed in on this browser before: it carries a signed device cookie for the account.
    const first = await login('dealer-password-1', '10.6.9.1');
    expect(first.statusCode).toBe(200);
    const device = first.cookies.find((cookie) => cookie.name.startsWith('lw_device_d'));
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api' });
    const ownerBrowser = `${device!.name}=${device!.value}`;

    // Ten failures from each of ten addresses: each address is locked out of the account.
    for (let address = 1; address <= 10; address += 1) {
      const statuses = await Promise.all(Array.from({ length: 10 }, () => login('wrong-password', `10.6.0.${address}`)));
      expect(statuses.map((response) => response.statusCode)).toEqual(Array<number>(10).fill(401));
    }
    const locked = await login('dealer-password-1', '10.6.0.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(tooMany);

    // The owner's browser signs in from anywhere, a locked address included.
    expect((await login('dealer-password-1', '10.6.0.1', ownerBrowser)).statusCode).toBe(200);
    expect((await login('dealer-password-1', '10.6.9.2', ownerBrowser)).statusCode).toBe(200);
    // So does the owner on a new browser from another address: a first try is never held back.
    expect((await login('dealer-password-1', '10.6.9.3')).statusCode).toBe(200);

    // A guesser from a fresh address gets one try, then must wait before the next.
    expect((await login('wrong-password', '10.6.1.1')).statusCode).toBe(401);
    const waiting = await login('dealer-password-1', '10.6.1.1');
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().message).toMatch(tooMany);
  });

  it("holds a trusted browser back by its own failures only", async () => {
    const login = (password: string, address: string, cookie?: string) =>
      app.inject({ method: 'POST', url: '/api/admin-login', payload: { username: staffEmail, password }, remoteAddress: address, headers: cookie ? { cookie } : {} });
    const signedIn = await login(staffPassword, '10.8.0.1');
    const device = signedIn.cookies.find((cookie) => cookie.name.startsWith('lw_device_s'))!;
    const browser = `${device.name}=${device.value}`;
    for (let i = 0; i < 10; i += 1) expect((await login(`wrong-${i}`, `10.8.1.${i}`, browser)).statusCode).toBe(401);
    expect((await login(staffPassword, '10.8.2.1', browser)).statusCode).toBe(429);
    // Its failures were its own: the owner from another browser, even at the same address, is let in.
    expect((await login(staffPassword, '10.8.1.0')).statusCode).toBe(200);
    // A forged or tampered device cookie is no device cookie.
    expect((await login(staffPassword, '10.8.2.2', `${device.name}=staff:1:forged`)).statusCode).toBe(200);
  });

  it('counts an IPv6 address by its /64', async () => {
    const login = (password: string, address: string) =>
      app.inject({ method: 'POST', url: '/api/login', payload: { username: 'v6-dealer', password }, remoteAddress: address });
    for (let host = 1; host <= 10; host += 1) expect((await login('wrong-password', `2001:db8:6:1::${host.toString(16)}`)).statusCode).toBe(401);
    expect((await login('dealer-password-1', '2001:db8:6:1:ffff::1')).statusCode).toBe(429);
    expect((await login('dealer-password-1', '2001:db8:6:2::1')).statusCode).toBe(200);
  });

  it("answers GET /api/session past an address's new-visitor quota, and mints no visitor for staff", async () => {
    const session = (address: string, cookie?: string) =>
      app.inject({ method: 'GET', url: '/api/session', remoteAddress: address, headers: cookie ? { cookie } : {} });
    const staff = await signInStaff(app, staffEmail, staffPassword, '10.9.0.1');
    const staffSession = await session('10.9.0.1', staff.cookie);
    expect(staffSession.json().admin).toMatchObject({ email: staffEmail });
    expect(staffSession.cookies.map((cookie) => cookie.name)).not.toContain('lw_visitor');

    // Spend the address's quota of new visitors (120 per 10 minutes).
    for (let i = 0; i < 120; i += 1) expect((await session('10.9.0.1')).cookies.map((cookie) => cookie.name)).toContain('lw_visitor');
    const anonymous = await session('10.9.0.1');
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.cookies.map((cookie) => cookie.name)).not.toContain('lw_visitor');
    const signedIn = await session('10.9.0.1', staff.cookie);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().admin).toMatchObject({ email: staffEmail });
    // The quota itself stands where a visitor identity is needed: a new chat from that address.
    const chat = await app.inject({ method: 'POST', url: '/api/chat-message', remoteAddress: '10.9.0.1', payload: { sessionId: 'session_quota_1', message: 'Hello', isFromUser: true } });
    expect(chat.statusCode).toBe(429);
  });

  it('limits sign-in attempts per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      statuses.push((await post('/api/login', { username: `guess-${i}`, password: 'guess' }, '10.2.0.1')).statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it("counts only an address's failures: a shared office address lets every staff member and trusted browser in", async () => {
    const office = '10.3.0.1';
    const login = (username: string, password: string, cookie?: string) =>
      app.inject({ method: 'POST', url: '/api/admin-login', payload: { username, password }, remoteAddress: office, headers: cookie ? { cookie } : {} });
    // One colleague's browser signed in here before (its device cookie); then the whole office signs in, again and again.
    const first = await login(staffEmail, staffPassword);
    const device = first.cookies.find((cookie) => cookie.name.startsWith('lw_device_s'))!;
    const trustedBrowser = `${device.name}=${device.value}`;
    for (let i = 0; i < 40; i += 1) expect((await login(staffEmail, staffPassword)).statusCode, `sign-in ${i}`).toBe(200);
    // Someone at the same address guesses at accounts until the address is held back (30 failures per 15 minutes)...
    for (let i = 0; i < 30; i += 1) expect((await login(`guess-${i}@nowhere.example`, 'guess')).statusCode).toBe(401);
    expect((await login(staffEmail, staffPassword)).statusCode).toBe(429);
    // ...but a browser holding a valid device cookie is held back only by its own failures.
    expect((await login(staffEmail, staffPassword, trustedBrowser)).statusCode).toBe(200);
  });

  it("lets neither a stranger's reset requests starve the dealer's own nor fill the dealer's mailbox", async () => {
    const mailsToDealer = async () => {
      await app.jobs.runDue();
      return (await readOutbox(dir)).filter((mail) => mail.headers.to === 'mail@dealer.example');
    };
    const linkOf = (mail: { text: string }) => /reset-password\?token=([A-Za-z0-9_.-]+)/.exec(mail.text)![1]!;
    const forgot = async (address: string) => {
      const response = await post('/api/forgot-password', { email: 'mail@dealer.example' }, address);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: forgotPasswordAnswer });
    };
    const spacing = () => sleep(1100);

    // A stranger, from three addresses, two requests each: one mail, the spacing holds the rest.
    for (const address of ['10.3.0.1', '10.3.0.2', '10.3.0.3']) {
      await forgot(address);
      await forgot(address);
    }
    const afterStranger = await mailsToDealer();
    expect(afterStranger).toHaveLength(1);

    // The dealer's own request, once the spacing has passed, mails the same working link again.
    await spacing();
    await forgot('10.3.1.1');
    const afterOwner = await mailsToDealer();
    expect(afterOwner).toHaveLength(2);
    expect(linkOf(afterOwner[1]!)).toBe(linkOf(afterOwner[0]!));

    // One address gets two mails an hour at most, however patient.
    await spacing();
    await forgot('10.3.0.1');
    await spacing();
    await forgot('10.3.0.1');
    expect(await mailsToDealer()).toHaveLength(3);

    // Many addresses at once: one mail (the spacing has passed), the rest held by it.
    for (let address = 4; address <= 9; address += 1) await forgot(`10.3.0.${address}`);
    expect(await mailsToDealer()).toHaveLength(4);

    const token = linkOf((await mailsToDealer()).at(-1)!);
    expect((await post('/api/reset-password', { token, password: 'a-new-password-7' }, '10.3.1.1')).statusCode).toBe(200);
  });
});
