// @scaled: rate limits and socket counts in Redis
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../contract/chat';
import { socketLimits } from '../../../contract/socket';
import { perAddressLimits } from '../../../plugins/rate-limits';
import { tooManySocketsMessage } from '../../../plugins/socket-io';
import { visitorCookieName } from '../../../plugins/session';
import { buildTestServer, cookiesFrom } from '../../../../test/support/helper';
import { closeClients, connected, rawHandshake, serverUrl } from '../../../../test/support/sockets';
import { pause, visitorClient, visitorCookie, type VisitorClient } from '../../../../test/support/visitor-socket';

let sessionCounter = 0;
const newSessionId = () => `session_${Date.now()}_addr${(sessionCounter += 1)}`;

type SendAck = { ok: true; message: ChatMessage } | { ok: false; error: string };
const send = (socket: VisitorClient, payload: { sessionId: string; message: string }) => socket.emitWithAck('chat:send', payload) as Promise<SendAck>;

const tooManyMessages = /^Too many messages: please wait \d+ seconds and try again$/;
const tooManyRequests = /^Too many requests: please wait \d+ seconds and try again$/;

afterEach(() => closeClients());

/**
 * Limits by client address: a client that drops its cookies gets a new visitor identity each time,
 * so only its address holds it back. Each test floods from its own address; 127.0.0.0/8 is all
 * loopback on Linux, so sockets connect from the address a test names.
 */
describe('chat limits by client address', async () => {
  const { app } = await buildTestServer({}, { listen: true });

  const post = (remoteAddress: string, body: { sessionId: string; message: string }, cookie?: string) =>
    app.inject({ method: 'POST', url: '/api/chat-message', remoteAddress, headers: cookie ? { cookie } : {}, payload: body });
  const countRows = async (table: 'chatMessages' | 'chatSessions') =>
    Number((await app.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('cuts a flood of cookieless REST sends from one address (429), while its running chats and another address go on', async () => {
    const flooder = '198.51.100.1';
    const sessionsBefore = await countRows('chatSessions');
    const answers = [];
    for (let i = 0; i < 150; i += 1) answers.push(await post(flooder, { sessionId: newSessionId(), message: `flood ${i}` }));

    const allowed = perAddressLimits.newChatSessions.max;
    expect(answers.slice(0, allowed).every((answer) => answer.statusCode === 201)).toBe(true);
    expect(answers.slice(allowed).map((answer) => answer.statusCode)).toEqual(Array(150 - allowed).fill(429));
    expect(answers[allowed]!.json<{ message: string }>().message).toMatch(tooManyMessages);
    expect(await countRows('chatSessions')).toBe(sessionsBefore + allowed);

    // Someone at that address who had a chat going keeps it: refused new chats used up no messages.
    const first = answers[0]!;
    const goingOn = await post(flooder, { sessionId: first.json<ChatMessage>().sessionId, message: 'still here' }, cookiesFrom(first));
    expect(goingOn.statusCode).toBe(201);

    const neighbour = await post('198.51.100.2', { sessionId: newSessionId(), message: 'hello from next door' });
    expect(neighbour.statusCode).toBe(201);
  });

  it('cuts messages per address across many visitor identities, over sockets and REST together', async () => {
    const office = '127.0.0.7';
    const before = await countRows('chatMessages');
    const { max } = perAddressLimits.chatMessages;
    // Each visitor stays within their own limit (30 a minute) and their socket's event budget (20 at once).
    const perVisitor = 20;
    const socketVisitors = Math.floor(max / perVisitor) - 1;
    for (let v = 0; v < socketVisitors; v += 1) {
      const socket = visitorClient(app, visitorCookie(app), { localAddress: office });
      await connected(socket);
      const sessionId = newSessionId();
      for (let i = 0; i < perVisitor; i += 1) expect((await send(socket, { sessionId, message: `socket ${v}.${i}` })).ok).toBe(true);
    }
    const restCookie = visitorCookie(app);
    const restSession = newSessionId();
    for (let i = socketVisitors * perVisitor; i < max; i += 1) {
      expect((await post(office, { sessionId: restSession, message: `rest ${i}` }, restCookie)).statusCode).toBe(201);
    }
    expect(await countRows('chatMessages')).toBe(before + max);

    // A fresh identity from the same address is refused on either path, and nothing is stored.
    const fresh = visitorClient(app, visitorCookie(app), { localAddress: office });
    await connected(fresh);
    const refused = await send(fresh, { sessionId: newSessionId(), message: 'one too many' });
    expect(refused.ok === false && refused.error).toMatch(tooManyMessages);
    const restRefused = await post(office, { sessionId: newSessionId(), message: 'and another' }, visitorCookie(app));
    expect(restRefused.statusCode).toBe(429);
    expect(restRefused.json<{ message: string }>().message).toMatch(tooManyMessages);
    expect(await countRows('chatMessages')).toBe(before + max);

    const elsewhere = visitorClient(app, visitorCookie(app), { localAddress: '127.0.0.8' });
    await connected(elsewhere);
    expect((await send(elsewhere, { sessionId: newSessionId(), message: 'from another office' })).ok).toBe(true);
  });

  // The clock is moved past the message window, which only the in-memory counters follow (Redis keeps its own time).
  it.skipIf(app.redis)('counts no session for a new chat refused for its address’s messages: once the minute is over, the address starts chats again', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const office = '198.51.100.30';
      const perVisitor = socketLimits.chatSendsPerMinute;
      const visitors = perAddressLimits.chatMessages.max / perVisitor;
      for (let v = 0; v < visitors; v += 1) {
        const cookie = visitorCookie(app);
        const sessionId = newSessionId();
        for (let i = 0; i < perVisitor; i += 1) expect((await post(office, { sessionId, message: `busy ${v}.${i}` }, cookie)).statusCode).toBe(201);
      }
      // As many new chats as the address may start in 10 minutes, each refused: the minute's messages are used up.
      for (let i = 0; i < perAddressLimits.newChatSessions.max; i += 1) {
        const refused = await post(office, { sessionId: newSessionId(), message: `new chat ${i}` }, visitorCookie(app));
        expect(refused.statusCode).toBe(429);
      }

      vi.setSystemTime(Date.now() + perAddressLimits.chatMessages.timeWindowMs + 1000);
      const started = await post(office, { sessionId: newSessionId(), message: 'a new chat, a minute later' }, visitorCookie(app));
      expect(started.statusCode).toBe(201);
    } finally {
      vi.useRealTimers();
    }
  });

  it('limits new visitor identities per address, counting REST and socket handshakes together; a cookie already held still works', async () => {
    const address = '127.0.0.5';
    const unusedSession = (n: number) => `/api/chat-messages/session_unused_identity_${n}`;
    const { max } = perAddressLimits.newVisitors;
    for (let i = 0; i < max - 1; i += 1) {
      const answer = await app.inject({ method: 'GET', url: unusedSession(i), remoteAddress: address });
      expect(answer.statusCode).toBe(404);
      expect(answer.cookies.some((cookie) => cookie.name === visitorCookieName)).toBe(true);
    }
    // The last one the address may have, issued in a socket handshake: that visitor chats.
    const last = visitorClient(app, undefined, { localAddress: address });
    await connected(last);
    expect((await send(last, { sessionId: newSessionId(), message: 'the last new visitor' })).ok).toBe(true);

    const overRest = await app.inject({ method: 'GET', url: unusedSession(max), remoteAddress: address });
    expect(overRest.statusCode).toBe(429);
    expect(overRest.json<{ message: string }>().message).toMatch(tooManyRequests);
    expect(overRest.cookies).toEqual([]);
    const overSocket = visitorClient(app, undefined, { localAddress: address });
    await expect(connected(overSocket)).rejects.toThrow(tooManyRequests);

    // A visitor who already has an identity is not a new one: both paths still serve them.
    const known = visitorCookie(app);
    expect((await app.inject({ method: 'GET', url: unusedSession(max + 1), remoteAddress: address, headers: { cookie: known } })).statusCode).toBe(404);
    await connected(visitorClient(app, known, { localAddress: address }));
    await connected(visitorClient(app, undefined, { localAddress: '127.0.0.6' }));
  });

  describe('open sockets per address', () => {
    const cap = perAddressLimits.openSockets;
    const connectAll = (count: number, localAddress: string, cookie: string) =>
      Promise.allSettled(
        Array.from({ length: count }, async () => {
          const socket = visitorClient(app, cookie, { localAddress });
          await connected(socket);
          return socket;
        }),
      );
    it('refuses connections past the cap, even all at once, and frees a place when a socket closes; another address is not affected', async () => {
      const tabs = visitorCookie(app);
      const flood = await connectAll(cap + 10, '127.0.0.9', tabs);
      const open = flood.filter((result) => result.status === 'fulfilled').map((result) => result.value);
      expect(open).toHaveLength(cap);
      expect(flood.filter((result) => result.status === 'rejected')).toHaveLength(10);

      // The refusal, as the answer to a WebSocket handshake (engine.io refuses an upgrade with a 400).
      const refused = await rawHandshake(serverUrl(app), { localAddress: '127.0.0.9' });
      expect(refused).toMatchObject({ status: 400, body: tooManySocketsMessage });

      await connected(visitorClient(app, tabs, { localAddress: '127.0.0.10' }));

      open[0]!.disconnect();
      let again: VisitorClient | undefined;
      for (let attempt = 0; attempt < 50 && !again; attempt += 1) {
        const socket = visitorClient(app, tabs, { localAddress: '127.0.0.9' });
        again = await connected(socket).then(
          () => socket,
          async () => {
            await pause(20);
            return undefined;
          },
        );
      }
      expect(again?.connected).toBe(true);
      await expect(connected(visitorClient(app, tabs, { localAddress: '127.0.0.9' }))).rejects.toThrow();
    });
  });
});
