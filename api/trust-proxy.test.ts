import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { ConfigError, parseConfig } from './config';
import { visitorClient, visitorCookie } from '../test/support/visitor-socket';
import { clientAddressOf, proxyTrust } from './plugins/client-address';
import { perAddressLimits } from './plugins/rate-limits';
import { sessionCookieName } from './plugins/session';
import { staffEmail, staffEnv, staffPassword } from '../test/support/factories';
import { buildTestServer } from '../test/support/helper';
import { closeClients, connected } from '../test/support/sockets';

afterEach(() => closeClients());

const tooManyRequests = /^Too many requests: please wait \d+ seconds and try again$/;

describe('TRUST_PROXY settings', () => {
  const trustProxy = (value: string) => parseConfig({ TRUST_PROXY: value }).trustProxy;

  it('is off by default, and takes true, a hop count, or proxy addresses and CIDRs', () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(trustProxy('')).toBe(false);
    expect(trustProxy('false')).toBe(false);
    expect(trustProxy('true')).toBe(true);
    expect(trustProxy('2')).toBe(2);
    expect(trustProxy('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(trustProxy(' 10.0.0.1, 192.168.0.0/16 ,::1')).toEqual(['10.0.0.1', '192.168.0.0/16', '::1']);
    expect(trustProxy('loopback, uniquelocal')).toEqual(['loopback', 'uniquelocal']);
  });

  it('stops the start on a bad value, with a message naming the variable', () => {
    for (const bad of ['yes', 'proxy.example.com', '10.0.0.300', '10.0.0.0/33', '10.0.0.1,nonsense', '-1']) {
      expect(() => parseConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
      expect(() => parseConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: must be true, a hop count, or comma-separated proxy addresses\/CIDRs/);
    }
  });

  it('finds the client behind as many proxies as it trusts, and believes no one by default', async () => {
    let setting: ReturnType<typeof trustProxy> = false;
    const server = createServer((incoming, outgoing) => outgoing.end(clientAddressOf(incoming, proxyTrust(setting))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const clientOf = (forwardedFor: string) =>
      new Promise<string>((resolve, reject) => {
        request({ port, host: '127.0.0.1', headers: { 'x-forwarded-for': forwardedFor } }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve(body));
        })
          .on('error', reject)
          .end();
      });
    const chain = '198.51.100.9, 203.0.113.5, 10.0.0.2';
    expect(await clientOf(chain)).toBe('127.0.0.1');
    setting = 1;
    expect(await clientOf(chain)).toBe('10.0.0.2');
    setting = 2;
    expect(await clientOf(chain)).toBe('203.0.113.5');
    setting = ['127.0.0.1', '10.0.0.0/8'];
    expect(await clientOf(chain)).toBe('203.0.113.5');
    setting = ['10.0.0.0/8'];
    expect(await clientOf(chain)).toBe('127.0.0.1');
    setting = true;
    expect(await clientOf(chain)).toBe('198.51.100.9');
  });
});

describe('staff sign-in behind a TLS-terminating proxy (COOKIE_SECURE=true)', async () => {
  const signIn = (app: Awaited<ReturnType<typeof buildTestServer>>['app'], headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/api/admin-login', remoteAddress, headers, payload: { username: staffEmail, password: staffPassword } });
  const sessionCookie = (response: { cookies: { name: string; value: string; secure?: boolean }[] }) =>
    response.cookies.find((cookie) => cookie.name === sessionCookieName);

  it('sets a Secure session cookie when the proxy says https, and the next call with it is signed in', async () => {
    const { app } = await buildTestServer({ ...staffEnv, COOKIE_SECURE: 'true', TRUST_PROXY: '127.0.0.1' });
    const answer = await signIn(app, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.20' });
    expect(answer.statusCode).toBe(200);
    const cookie = sessionCookie(answer);
    expect(cookie?.secure).toBe(true);
    const next = await app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie: `${sessionCookieName}=${cookie!.value}`, 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.20' },
    });
    expect(next.json<{ admin: { email: string } | null }>().admin).toMatchObject({ email: staffEmail });

    // The header is believed from the proxy only: a peer it does not name gets no Secure cookie over plain HTTP.
    const stranger = await signIn(app, { 'x-forwarded-proto': 'https' }, '198.51.100.30');
    expect(stranger.statusCode).toBe(200);
    expect(sessionCookie(stranger)).toBeUndefined();
  });

  it('without TRUST_PROXY, X-Forwarded-Proto is not believed: no Secure cookie is set over plain HTTP', async () => {
    const { app } = await buildTestServer({ ...staffEnv, COOKIE_SECURE: 'true' });
    const answer = await signIn(app, { 'x-forwarded-proto': 'https' });
    expect(answer.statusCode).toBe(200);
    expect(sessionCookie(answer)).toBeUndefined();
  });
});

describe('per-address limits behind a proxy', async () => {
  const direct = (await buildTestServer({}, { listen: true })).app;
  const proxied = (await buildTestServer({ TRUST_PROXY: '127.0.0.1' }, { listen: true })).app;
  const { max } = perAddressLimits.newVisitors;

  /** A cookieless call that issues a visitor identity: 404 (no such chat) while allowed, 429 after. */
  const newVisitor = (app: typeof direct, remoteAddress: string, forwardedFor: string) =>
    app.inject({ method: 'GET', url: '/api/chat-messages/session_nobody_started', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });
  const flood = async (app: typeof direct, remoteAddress: string, forwardedFor: (i: number) => string) => {
    const statuses = [];
    for (let i = 0; i <= max; i += 1) statuses.push((await newVisitor(app, remoteAddress, forwardedFor(i))).statusCode);
    return statuses;
  };
  const cutAtLimit = [...Array<number>(max).fill(404), 429];

  it('without TRUST_PROXY, ignore X-Forwarded-For: one address stays one address', async () => {
    expect(await flood(direct, '192.0.2.50', (i) => `203.0.113.${i % 250}`)).toEqual(cutAtLimit);
  });

  it('with TRUST_PROXY, count each client behind the proxy apart, and see through a forged X-Forwarded-For', async () => {
    expect(await flood(proxied, '127.0.0.1', () => '203.0.113.10')).toEqual(cutAtLimit);
    // A client may send its own X-Forwarded-For; the proxy appends the address it saw, which is the one counted.
    expect((await newVisitor(proxied, '127.0.0.1', '192.0.2.1, 203.0.113.10')).statusCode).toBe(429);
    expect((await newVisitor(proxied, '127.0.0.1', '203.0.113.11')).statusCode).toBe(404);
    // A peer that is not the proxy is counted by its own address, whatever it claims.
    expect(await flood(proxied, '198.51.100.40', (i) => `203.0.113.${i % 250}`)).toEqual(cutAtLimit);
  });

  it('with TRUST_PROXY, count a Socket.IO handshake under the same client address as REST', async () => {
    // 203.0.113.10 used up its new identities over REST above; its sockets without a cookie are refused too.
    const refused = visitorClient(proxied, undefined, { headers: { 'x-forwarded-for': '203.0.113.10' } });
    await expect(connected(refused)).rejects.toThrow(tooManyRequests);
    await connected(visitorClient(proxied, undefined, { headers: { 'x-forwarded-for': '203.0.113.12' } }));
  });

  it('caps open sockets per client behind the proxy, and per peer without TRUST_PROXY', async () => {
    const cap = perAddressLimits.openSockets;
    const openAll = (app: typeof direct, count: number, from: (i: number) => { localAddress?: string; headers: Record<string, string> }) =>
      Promise.allSettled(Array.from({ length: count }, (_, i) => connected(visitorClient(app, visitorCookie(app), from(i)))));
    const opened = (results: PromiseSettledResult<void>[]) => results.filter((result) => result.status === 'fulfilled').length;

    expect(opened(await openAll(proxied, cap + 5, () => ({ headers: { 'x-forwarded-for': '203.0.113.30' } })))).toBe(cap);
    await connected(visitorClient(proxied, visitorCookie(proxied), { headers: { 'x-forwarded-for': '203.0.113.31' } }));

    const varied = (i: number) => ({ localAddress: '127.0.0.12', headers: { 'x-forwarded-for': `203.0.113.${i % 250}` } });
    expect(opened(await openAll(direct, cap + 5, varied))).toBe(cap);
  });
});
