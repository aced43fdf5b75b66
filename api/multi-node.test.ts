// @scaled: several nodes on Redis
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io as connect } from 'socket.io-client';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import type { ChatMessage } from './contract/chat';
import { apiPaths, leadPaths, pathTo } from './contract/paths';
import { socketLimits, type TypingPayload } from './contract/socket';
import { pause, visitorClient, visitorCookie, type VisitorClient } from '../test/support/visitor-socket';
import { startRedis } from '../scripts/services/redis';
import { signInNewStaff, staffEmail, staffEnv, staffPassword, validInput } from '../test/support/factories';
import { buildTestServer, type TestServer } from '../test/support/helper';
import { startAppProcess } from '../scripts/services/app-process';
import { runScript } from '../test/support/process';
import { freePort } from '../scripts/services/free-port';
import { closeClients, collect, connected, nextEvent, tracked } from '../test/support/sockets';
import { connectStaffSocket, type StaffClient } from '../test/support/staff-socket';

const redisUrl = inject('redisUrl') as string | undefined;

type SendAck = { ok: true; message: ChatMessage } | { ok: false; error: string };
const send = (socket: VisitorClient, sessionId: string, message: string) =>
  socket.emitWithAck('chat:send', { sessionId, message }) as Promise<SendAck>;

afterEach(() => closeClients());

describe('starting with REDIS_URL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-redis-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { DATABASE_PATH: join(dir, 'app.db'), DATA_DIR: dir, LOG_LEVEL: 'warn' };

  it('refuses to start without SESSION_SECRET, naming it', async () => {
    const result = await runScript('api/server.ts', [], { ...env, REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SESSION_SECRET: required when REDIS_URL is set');
  });

  it('refuses to start when Redis cannot be reached, naming REDIS_URL', async () => {
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    const result = await runScript('api/server.ts', [], { ...env, REDIS_URL: nobody, SESSION_SECRET: 'a-session-secret-of-at-least-32-characters' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Could not connect to Redis at REDIS_URL (${nobody}`);
  });
});

/**
 * Two real app instances sharing one Redis key prefix: two nodes of one deployment. Each keeps its own
 * SQLite file, so these tests use nothing that needs shared data (the PostgreSQL runs cover that).
 */
describe.runIf(redisUrl)('two nodes sharing Redis', async () => {
  const prefix = `nodes-${randomBytes(6).toString('hex')}:`;
  const nodeEnv = { ...staffEnv, REDIS_KEY_PREFIX: prefix, PRESENCE_TTL_SECONDS: '2' };
  const a: TestServer = await buildTestServer(nodeEnv, { listen: true });
  const b: TestServer = await buildTestServer(nodeEnv, { listen: true });

  const connectedVisitor = async (node: TestServer, cookie = visitorCookie(node.app)) => {
    const socket = visitorClient(node.app, cookie);
    const told = nextEvent(socket, 'staff:presence');
    await connected(socket);
    return { socket, cookie, told: await told };
  };
  const connectedStaff = async (node: TestServer): Promise<StaffClient> => connectStaffSocket(node.app, (await signInNewStaff(node.app)).cookie);

  it('counts failed sign-ins to one account once across both nodes', async () => {
    const remoteAddress = '10.20.30.40';
    const failOn = (node: TestServer) =>
      node.app.inject({ method: 'POST', url: apiPaths.staffLogin, remoteAddress, payload: { username: staffEmail, password: 'wrong-password-1' } });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await failOn(a)).statusCode).toBe(401);
      expect((await failOn(b)).statusCode).toBe(401);
    }
    // Ten failures in all: the pair is locked on both nodes, even with the right password.
    for (const node of [a, b]) {
      const right = await node.app.inject({ method: 'POST', url: apiPaths.staffLogin, remoteAddress, payload: { username: staffEmail, password: staffPassword } });
      expect(right.statusCode).toBe(429);
      expect(right.json().message).toMatch(/^Too many requests/);
    }
  });

  it("lets the owner's browser in on either node while strangers' failures on both hold each other back", async () => {
    const login = (node: TestServer, password: string, remoteAddress: string, cookie?: string) =>
      node.app.inject({ method: 'POST', url: apiPaths.staffLogin, remoteAddress, payload: { username: staffEmail, password }, headers: cookie ? { cookie } : {} });
    const signedIn = await login(b, staffPassword, '10.21.9.1');
    const device = signedIn.cookies.find((cookie) => cookie.name.startsWith('lw_device_s'))!;
    const ownerBrowser = `${device.name}=${device.value}`;
    // Address 1 fails ten times on A, one try after another (the account is not under attack yet).
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await login(a, 'wrong-password-1', '10.21.0.1')).statusCode).toBe(401);
    // Then 90 guessers fail once each, on both nodes: a first try is never delayed, so each is a plain
    // 401 however the requests interleave, and together they put the account under attack.
    for (let group = 0; group < 9; group += 1) {
      const statuses = await Promise.all(
        Array.from({ length: 10 }, (_, index) => login(index % 2 ? a : b, 'wrong-password-1', `10.21.2.${group * 10 + index + 1}`)),
      );
      expect(statuses.map((response) => response.statusCode)).toEqual(Array<number>(10).fill(401));
    }
    // Address 1 failed on A: it is locked on B too, but the owner's browser is let in there and on A.
    expect((await login(b, staffPassword, '10.21.0.1')).statusCode).toBe(429);
    expect((await login(a, staffPassword, '10.21.0.1', ownerBrowser)).statusCode).toBe(200);
    expect((await login(b, staffPassword, '10.21.0.2', ownerBrowser)).statusCode).toBe(200);
    // A fresh guesser fails once on A and must wait on B as well.
    expect((await login(a, 'wrong-password-1', '10.21.1.1')).statusCode).toBe(401);
    expect((await login(b, staffPassword, '10.21.1.1')).statusCode).toBe(429);
  });

  it('counts a visitor’s chat messages once across both nodes', async () => {
    const cookie = visitorCookie(a.app);
    const { socket: onA } = await connectedVisitor(a, cookie);
    const { socket: onB } = await connectedVisitor(b, cookie);
    const sessionId = `session_${Date.now()}_limit`;
    const half = socketLimits.chatSendsPerMinute / 2;
    for (let i = 0; i < half; i += 1) {
      expect((await send(onA, sessionId, `on A ${i}`)).ok).toBe(true);
      expect((await send(onB, sessionId, `on B ${i}`)).ok).toBe(true);
    }
    const refused = await send(onB, sessionId, 'one too many');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatch(/^Too many messages: please wait \d+ seconds/);
  });

  it('shows visitors on one node the staff of the other, coming and going, each change once', async () => {
    const { socket: visitor, told } = await connectedVisitor(b);
    expect(told).toEqual({ online: false });
    const heard = collect<{ online: boolean }>(visitor, 'staff:presence');

    const online = nextEvent(visitor, 'staff:presence');
    const staffOnA = await connectedStaff(a);
    expect(await online).toEqual({ online: true });

    // A second staff member, on B, then the first leaves: someone is still online, so nothing changes.
    const staffOnB = await connectedStaff(b);
    staffOnA.disconnect();
    const offline = nextEvent(visitor, 'staff:presence', 10_000);
    await pause(300);
    staffOnB.disconnect();
    expect(await offline).toEqual({ online: false });
    await pause(300);
    expect(heard).toEqual([{ online: true }, { online: false }]);
  });

  it('drops the staff of a node killed without warning, for the visitors of another', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lotwise-doomed-node-'));
    const doomed = await startAppProcess({
      ...nodeEnv,
      REDIS_URL: redisUrl!,
      SESSION_SECRET: a.config.sessionSecret,
      DATABASE_PATH: join(dir, 'app.db'),
      DATA_DIR: dir,
    });
    try {
      const signIn = await fetch(`${doomed.url}${apiPaths.staffLogin}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: staffEmail, password: staffPassword }),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; ');

      const { socket: visitor } = await connectedVisitor(b);
      const online = nextEvent(visitor, 'staff:presence');
      const staff = tracked(connect(`${doomed.url}/admin`, { transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders: { cookie } }));
      await connected(staff);
      expect(await online).toEqual({ online: true });

      const offline = nextEvent(visitor, 'staff:presence', 15_000);
      doomed.child.kill('SIGKILL');
      expect(await offline).toEqual({ online: false });
    } finally {
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('carries a room push from one node to a socket on the other', async () => {
    const staffOnA = await connectedStaff(a);
    const { socket: visitorOnB } = await connectedVisitor(b);
    const sessionId = `session_${Date.now()}_rooms`;
    const atStaff = nextEvent(staffOnA, 'chat:message');
    expect((await send(visitorOnB, sessionId, 'hello from B')).ok).toBe(true);
    // The visitor's message, stored on B, reaches the staff on A.
    expect(await atStaff).toMatchObject({ sessionId, message: 'hello from B', isFromUser: true });

    // Staff typing on A reaches the visitor's session room, whose socket is on B.
    const typing = nextEvent(visitorOnB, 'chat:typing');
    staffOnA.emit('chat:typing', { sessionId, typing: true });
    expect(await typing).toEqual({ sessionId, typing: true });
  });

  it('keeps a stranger on the other node out of a session once its owner claims it', async () => {
    const sessionId = `session_${Date.now()}_claim`;
    const owner = visitorCookie(a.app);
    const { socket: strangerOnB } = await connectedVisitor(b);
    const { socket: ownerTabOnB } = await connectedVisitor(b, owner);
    // Both wait on an unclaimed id on B (nothing of it is stored there).
    for (const socket of [strangerOnB, ownerTabOnB]) {
      expect(await socket.emitWithAck('chat:join', { sessionId })).toMatchObject({ ok: true });
    }
    const strangerHears = collect<ChatMessage>(strangerOnB, 'chat:message');
    const ownerTabHears = nextEvent(ownerTabOnB, 'chat:message');

    // The owner's first message, on A, claims the id: the owner's tab on B joins its room, the stranger's socket never does.
    const { socket: ownerOnA } = await connectedVisitor(a, owner);
    expect((await send(ownerOnA, sessionId, 'mine now')).ok).toBe(true);
    expect(await ownerTabHears).toMatchObject({ sessionId, message: 'mine now' });

    const strangerTyping = collect<TypingPayload>(strangerOnB, 'chat:typing');
    const ownerTyping = nextEvent(ownerTabOnB, 'chat:typing');
    const staffOnA = await connectedStaff(a);
    staffOnA.emit('chat:typing', { sessionId, typing: true });
    expect(await ownerTyping).toEqual({ sessionId, typing: true });
    await pause(300);
    expect(strangerHears).toEqual([]);
    expect(strangerTyping).toEqual([]);
  });
});

/** A node whose Redis goes away: what a visitor and a staff member still get while it is gone. */
describe.runIf(redisUrl)('when Redis goes away', async () => {
  // Vitest collects a skipped suite too, but runs none of its hooks: its Redis starts only where it runs.
  const redis = redisUrl ? await startRedis() : undefined;
  afterAll(() => redis?.stop());
  const node = await buildTestServer({ ...staffEnv, ...(redis ? { REDIS_URL: redis.url } : {}) }, { listen: true });

  it('still takes form posts, chat messages and sign-ins, and refuses nothing for want of a counter', async () => {
    await redis!.stop();
    const started = performance.now();
    const lead = await node.app.inject({ method: 'POST', url: leadPaths.contact.create, payload: validInput.contact() });
    expect(lead.statusCode).toBe(201);
    const cookie = visitorCookie(node.app);
    const chat = await node.app.inject({
      method: 'POST',
      url: apiPaths.chatMessage,
      headers: { cookie },
      payload: { sessionId: 'session_redis_outage_1', message: 'Anyone there while Redis is down?' },
    });
    expect(chat.statusCode).toBe(201);
    const wrong = await node.app.inject({ method: 'POST', url: apiPaths.staffLogin, payload: { username: staffEmail, password: 'not-the-password' } });
    expect(wrong.statusCode).toBe(401);
    const history = await node.app.inject({ method: 'GET', url: pathTo(apiPaths.chatHistory, { sessionId: 'session_redis_outage_1' }), headers: { cookie } });
    expect(history.json<ChatMessage[]>().map((message) => message.message)).toEqual(['Anyone there while Redis is down?']);
    // None of it waited for Redis to come back (a generous bound: each call alone takes milliseconds).
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('still holds a password guesser back: the node counts in its own memory until Redis is back', async () => {
    await redis!.stop();
    const remoteAddress = '10.40.0.1';
    const login = (password: string) => node.app.inject({ method: 'POST', url: apiPaths.staffLogin, remoteAddress, payload: { username: staffEmail, password } });
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await login('not-the-password')).statusCode).toBe(401);
    const locked = await login(staffPassword);
    expect(locked.statusCode).toBe(429);
    expect(locked.json<{ message: string }>().message).toMatch(/^Too many requests: please wait \d+ seconds and try again$/);
  }, 30_000);
});

/** Two nodes whose Redis stops for a moment and comes back empty (a restart without persistence). */
describe.runIf(redisUrl)('after a short Redis outage', async () => {
  let redis = redisUrl ? await startRedis() : undefined;
  afterAll(() => redis?.stop());
  const nodeEnv = { ...staffEnv, ...(redis ? { REDIS_URL: redis.url } : {}), REDIS_KEY_PREFIX: `outage-${randomBytes(6).toString('hex')}:` };
  const a = await buildTestServer(nodeEnv, { listen: true });
  const b = await buildTestServer(nodeEnv, { listen: true });

  it('delivers a push sent while Redis was away once it is back, and keeps the event loop turning meanwhile', async () => {
    const staffOnA = await connectStaffSocket(a.app, (await signInNewStaff(a.app)).cookie);
    const visitorOnB = visitorClient(b.app, visitorCookie(b.app));
    await connected(visitorOnB);
    const sessionId = `session_${Date.now()}_outage`;
    const before = nextEvent(staffOnA, 'chat:message');
    expect((await send(visitorOnB, sessionId, 'before the outage')).ok).toBe(true);
    expect(await before).toMatchObject({ message: 'before the outage' });

    await redis!.stop();
    // Timers still fire while the adapter's reader has no Redis to read from (it must not retry in a tight loop).
    const asleep = performance.now();
    await pause(500);
    expect(performance.now() - asleep).toBeLessThan(2000);
    const during = nextEvent(staffOnA, 'chat:message', 15_000);
    expect((await send(visitorOnB, sessionId, 'while Redis was away')).ok).toBe(true);
    redis = await startRedis(redis!.port);
    expect(await during).toMatchObject({ message: 'while Redis was away' });
  }, 30_000);
});
