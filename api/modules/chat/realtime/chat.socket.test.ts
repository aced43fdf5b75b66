// @scaled: Socket.IO through the Redis adapter
import { io as connect } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatSessionSummary, StaffChatMessage } from '../../../contract/chat';
import { rooms, socketLimits, type TypingPayload } from '../../../contract/socket';
import { buildTestServer } from '../../../../test/support/helper';
import { closeClients, collect, connected, nextEvent, rawHandshake, serverUrl } from '../../../../test/support/sockets';
import { connectStaffSocket, type StaffClient } from '../../../../test/support/staff-socket';
import { pause, visitorClient, visitorCookie, type VisitorClient } from '../../../../test/support/visitor-socket';
import { signInNewStaff } from '../../../../test/support/factories';

let sessionCounter = 0;
const newSessionId = () => `session_${Date.now()}_sock${(sessionCounter += 1)}`;

type SendAck = { ok: true; message: ChatMessage } | { ok: false; error: string };
type JoinAck = { ok: true; messages: ChatMessage[] } | { ok: false; error: string };

const join = (socket: VisitorClient, sessionId: string) => socket.emitWithAck('chat:join', { sessionId }) as Promise<JoinAck>;
const send = (socket: VisitorClient, payload: { sessionId: string; message: string; clientId?: string; pageUrl?: string }) =>
  socket.emitWithAck('chat:send', payload) as Promise<SendAck>;
const reply = (socket: StaffClient, payload: { sessionId: string; message: string }) => socket.emitWithAck('chat:reply', payload) as Promise<SendAck>;

afterEach(() => closeClients());

describe('chat over Socket.IO', async () => {
  const { app } = await buildTestServer({}, { listen: true });

  const connectedStaff = async () => {
    const { cookie } = await signInNewStaff(app);
    return connectStaffSocket(app, cookie);
  };
  const connectedVisitor = async (cookie = visitorCookie(app), localAddress?: string) => {
    const socket = visitorClient(app, cookie, { localAddress });
    await connected(socket);
    return { socket, cookie };
  };

  describe('the staff namespace', () => {
    it('refuses a handshake without a session, with a forged cookie, or with a visitor cookie', async () => {
      for (const cookie of [undefined, 'lw_session=forged.signature', visitorCookie(app)]) {
        await expect(connectStaffSocket(app, cookie)).rejects.toThrow('Not authenticated');
      }
    });

    it('refuses a handshake from another site’s page, in both namespaces, even with a live session', async () => {
      const { cookie } = await signInNewStaff(app);
      const headers = { cookie, origin: 'https://evil.example' };
      const staff = connect(`${serverUrl(app)}/admin`, { transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders: headers });
      await expect(connected(staff)).rejects.toThrow('Connection refused: it did not come from this site');
      const visitor = connect(serverUrl(app), { transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders: { origin: 'https://evil.example' } });
      await expect(connected(visitor)).rejects.toThrow('Connection refused: it did not come from this site');
      staff.disconnect();
      visitor.disconnect();
      const sameSite = connect(serverUrl(app), { transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders: { origin: serverUrl(app) } });
      await connected(sameSite);
      sameSite.disconnect();
    });

    it('refuses a session whose staff sign-in has gone idle', async () => {
      const { cookie, sid } = await signInNewStaff(app);
      const row = await app.db.selectFrom('sessions').select('data').where('sid', '=', sid).executeTakeFirstOrThrow();
      const data = JSON.parse(row.data) as { staffLastActiveAt: number };
      data.staffLastActiveAt = Date.now() - app.staffIdleMs - 1000;
      await app.db.updateTable('sessions').set({ data: JSON.stringify(data) }).where('sid', '=', sid).execute();
      await expect(connectStaffSocket(app, cookie)).rejects.toThrow('Not authenticated');
    });

    it('accepts a live staff session, and logout disconnects its sockets', async () => {
      const { cookie, sid } = await signInNewStaff(app);
      const socket = await connectStaffSocket(app, cookie);
      const gone = nextEvent(socket, 'disconnect');
      app.staffSockets.in(rooms.staffSession(sid)).disconnectSockets(true);
      expect(await gone).toBe('io server disconnect');
    });
  });

  describe('push both ways', () => {
    it('a visitor message reaches staff; a staff reply reaches the visitor; both acked with the stored row', async () => {
      const staff = await connectedStaff();
      const { socket: visitor, cookie } = await connectedVisitor();
      const sessionId = newSessionId();
      expect(await join(visitor, sessionId)).toEqual({ ok: true, messages: [] });

      const atStaff = nextEvent(staff, 'chat:message');
      const sent = await send(visitor, { sessionId, message: 'Hello from the widget', clientId: 'w-1' });
      expect(sent).toMatchObject({ ok: true, message: { sessionId, message: 'Hello from the widget', isFromUser: true, clientId: 'w-1' } });
      // Staff see who wrote it besides: nobody on the staff.
      expect(await atStaff).toEqual(sent.ok && { ...sent.message, authorStaffId: null, authorName: null });

      const atVisitor = nextEvent(visitor, 'chat:message');
      const answered = await reply(staff, { sessionId, message: 'Hi! How can we help?' });
      expect(answered.ok).toBe(true);
      expect(await atVisitor).toMatchObject({ sessionId, message: 'Hi! How can we help?', isFromUser: false });

      // The same rows over REST: one service, one store.
      const rest = await app.inject({ method: 'GET', url: `/api/chat-messages/${sessionId}`, headers: { cookie } });
      expect(rest.json<ChatMessage[]>().map((row) => row.message)).toEqual(['Hello from the widget', 'Hi! How can we help?']);
    });

    it('REST and socket are the same path: a REST send and a REST reply are pushed like socket ones', async () => {
      const staff = await connectedStaff();
      const { socket: visitor, cookie } = await connectedVisitor();
      const sessionId = newSessionId();
      await join(visitor, sessionId);

      const atStaff = nextEvent(staff, 'chat:message');
      const atVisitor = nextEvent(visitor, 'chat:message');
      const posted = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie }, payload: { sessionId, message: 'sent while offline' } });
      expect(posted.statusCode).toBe(201);
      expect(await atStaff).toEqual({ ...posted.json<ChatMessage>(), authorStaffId: null, authorName: null });
      expect(await atVisitor).toEqual(posted.json());

      const { cookie: staffCookie } = await signInNewStaff(app);
      const replyArrives = nextEvent(visitor, 'chat:message');
      const restReply = await app.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie: staffCookie }, payload: { sessionId, message: 'answered by REST' } });
      // The visitor's copy is the reply without its author.
      const { authorStaffId: _authorStaffId, authorName: _authorName, ...visitorCopy } = restReply.json<StaffChatMessage>();
      expect(await replyArrives).toEqual(visitorCopy);
    });

    it('a socket send keeps the page without its query and fragment, as a REST send does', async () => {
      const { socket: visitor } = await connectedVisitor();
      const sessionId = newSessionId();
      expect(await send(visitor, { sessionId, message: 'from the reset page', pageUrl: 'http://localhost:3000/reset-password?token=socketsecret789#x' })).toMatchObject({ ok: true });
      const { cookie: staffCookie } = await signInNewStaff(app);
      const summary = await app.inject({ method: 'GET', url: `/api/chat-sessions/${sessionId}`, headers: { cookie: staffCookie } });
      expect(summary.json<ChatSessionSummary>().pageUrl).toBe('http://localhost:3000/reset-password');
    });

    it('a socket send retried with the same clientId is stored and pushed once', async () => {
      const staff = await connectedStaff();
      const { socket: visitor } = await connectedVisitor();
      const sessionId = newSessionId();
      const seen = collect<ChatMessage>(staff, 'chat:message');
      const first = await send(visitor, { sessionId, message: 'retry me', clientId: 'dup-1' });
      const second = await send(visitor, { sessionId, message: 'retry me', clientId: 'dup-1' });
      expect(first.ok && second.ok && first.message.id === second.message.id).toBe(true);
      await pause(100);
      expect(seen.filter((row) => row.sessionId === sessionId)).toHaveLength(1);
    });

    it('pushes chat-session:updated to staff after a PATCH', async () => {
      const staff = await connectedStaff();
      const { socket: visitor } = await connectedVisitor();
      const sessionId = newSessionId();
      await send(visitor, { sessionId, message: 'please resolve me' });
      const { cookie } = await signInNewStaff(app);
      const updated = nextEvent(staff, 'chat-session:updated');
      await app.inject({ method: 'PATCH', url: `/api/chat-sessions/${sessionId}`, headers: { cookie }, payload: { status: 'resolved' } });
      expect(await updated).toMatchObject({ id: sessionId, status: 'resolved' });
    });
  });

  describe('ownership, as over REST', () => {
    it('a stranger can neither join, write into, nor hear another visitor’s session', async () => {
      const { socket: owner, cookie: ownerCookie } = await connectedVisitor();
      const { socket: stranger } = await connectedVisitor();
      const sessionId = newSessionId();
      await send(owner, { sessionId, message: 'private words' });

      expect(await join(stranger, sessionId)).toEqual({ ok: false, error: 'Chat session not found' });
      expect(await send(stranger, { sessionId, message: 'intrusion' })).toEqual({ ok: false, error: 'Chat session not found' });
      const heard = collect<ChatMessage>(stranger, 'chat:message');
      await send(owner, { sessionId, message: 'more private words' });
      await pause(100);
      expect(heard).toEqual([]);

      const rest = await app.inject({ method: 'GET', url: `/api/chat-messages/${sessionId}`, headers: { cookie: ownerCookie } });
      expect(rest.json<ChatMessage[]>().map((row) => row.message)).toEqual(['private words', 'more private words']);
    });

    it('a socket that joined an unused id before its owner hears nothing of it once the owner starts it', async () => {
      const { socket: squatter } = await connectedVisitor();
      const { socket: owner } = await connectedVisitor();
      const sessionId = newSessionId();
      expect(await join(squatter, sessionId)).toEqual({ ok: true, messages: [] });
      const heard = collect<ChatMessage>(squatter, 'chat:message');
      await send(owner, { sessionId, message: 'first words' });
      await pause(100);
      expect(heard).toEqual([]);
    });

    it('joining an id nobody owns joins no room; the first send joins it, and staff replies then arrive live', async () => {
      const staff = await connectedStaff();
      const { socket: visitor } = await connectedVisitor();
      const sessionId = newSessionId();
      const hasRoom = () => app.visitorSockets.adapter.rooms.has(rooms.chatSession(sessionId));
      expect(await join(visitor, sessionId)).toEqual({ ok: true, messages: [] });
      expect(hasRoom()).toBe(false);

      expect((await send(visitor, { sessionId, message: 'first words' })).ok).toBe(true);
      expect(hasRoom()).toBe(true);
      const heard = nextEvent(visitor, 'chat:message');
      expect((await reply(staff, { sessionId, message: 'we hear you' })).ok).toBe(true);
      expect(await heard).toMatchObject({ sessionId, message: 'we hear you' });
    });

    it('a tab that waits on a new id hears the first message of the visitor’s other tab, and the replies after it', async () => {
      const staff = await connectedStaff();
      const cookie = visitorCookie(app);
      const { socket: tabA } = await connectedVisitor(cookie);
      const { socket: tabB } = await connectedVisitor(cookie);
      const sessionId = newSessionId();
      for (const tab of [tabA, tabB]) expect(await join(tab, sessionId)).toEqual({ ok: true, messages: [] });

      const first = nextEvent(tabB, 'chat:message');
      await send(tabA, { sessionId, message: 'asked in tab A' });
      expect(await first).toMatchObject({ sessionId, message: 'asked in tab A' });
      const replies = [nextEvent(tabA, 'chat:message'), nextEvent(tabB, 'chat:message')];
      await reply(staff, { sessionId, message: 'answered to both' });
      for (const heard of await Promise.all(replies)) expect(heard).toMatchObject({ sessionId, message: 'answered to both' });
    });

    it('the same visitor in two tabs hears both sides in both', async () => {
      const cookie = visitorCookie(app);
      const { socket: tabA } = await connectedVisitor(cookie);
      const { socket: tabB } = await connectedVisitor(cookie);
      const sessionId = newSessionId();
      await send(tabA, { sessionId, message: 'from tab A' });
      const joined = await join(tabB, sessionId);
      expect(joined.ok && joined.messages.map((row) => row.message)).toEqual(['from tab A']);
      const inA = nextEvent(tabA, 'chat:message');
      await send(tabB, { sessionId, message: 'from tab B' });
      expect((await inA).message).toBe('from tab B');
    });

    it('refuses bad payloads with an error ack and stores nothing', async () => {
      const { socket } = await connectedVisitor();
      const count = async () => Number((await app.db.selectFrom('chatMessages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const before = await count();
      for (const payload of [
        { sessionId: 'session_x_0001', message: '   ' },
        { sessionId: '../etc', message: 'hi' },
        { sessionId: 'session_x_0001', message: 'x'.repeat(2001) },
        { sessionId: 'session_x_0001', message: 'hi', isFromUser: false },
        'not an object',
        null,
      ]) {
        const ack = (await socket.emitWithAck('chat:send', payload as never)) as SendAck;
        expect(ack.ok).toBe(false);
      }
      expect(await count()).toBe(before);
      expect(socket.connected).toBe(true);
    });

    it('drops a payload over the size limit by closing that socket, storing nothing', async () => {
      const { socket } = await connectedVisitor();
      const closed = nextEvent(socket, 'disconnect');
      socket.emit('chat:send', { sessionId: 'session_big_0001', message: 'x'.repeat(socketLimits.maxPayloadBytes + 10) }, () => {});
      expect(await closed).toMatch(/transport close|io server disconnect/);
      expect((await app.inject({ method: 'GET', url: '/api/chat-messages/session_big_0001', headers: { cookie: (await signInNewStaff(app)).cookie } })).statusCode).toBe(404);
    });
  });

  describe('presence and typing', () => {
    it('tells visitors whether staff are online, following staff sockets', async () => {
      const { app: quiet } = await buildTestServer({}, { listen: true });
      const visitor = visitorClient(quiet, visitorCookie(quiet));
      const first = nextEvent(visitor, 'staff:presence');
      await connected(visitor);
      expect(await first).toEqual({ online: false });

      const online = nextEvent(visitor, 'staff:presence');
      const staff = await connectStaffSocket(quiet, (await signInNewStaff(quiet)).cookie);
      expect(await online).toEqual({ online: true });

      const offline = nextEvent(visitor, 'staff:presence');
      staff.disconnect();
      expect(await offline).toEqual({ online: false });
    });

    it('relays typing both ways, only for the owner’s session', async () => {
      const staff = await connectedStaff();
      const { socket: visitor } = await connectedVisitor();
      const { socket: stranger } = await connectedVisitor();
      const sessionId = newSessionId();
      await send(visitor, { sessionId, message: 'typing soon' });

      const atStaff = nextEvent(staff, 'chat:typing');
      visitor.emit('chat:typing', { sessionId, typing: true });
      expect(await atStaff).toEqual({ sessionId, typing: true });

      const atVisitor = nextEvent(visitor, 'chat:typing');
      const strangerHears = collect<TypingPayload>(stranger, 'chat:typing');
      staff.emit('chat:typing', { sessionId, typing: true });
      expect(await atVisitor).toEqual({ sessionId, typing: true });

      const staffHears = collect<TypingPayload>(staff, 'chat:typing');
      stranger.emit('chat:typing', { sessionId, typing: true });
      await pause(150);
      expect(staffHears).toEqual([]);
      expect(strangerHears).toEqual([]);
    });
  });

  describe('limits', () => {
    it('limits sends per visitor across socket and REST together', async () => {
      const cookie = visitorCookie(app);
      const { socket } = await connectedVisitor(cookie);
      const sessionId = newSessionId();
      const half = socketLimits.chatSendsPerMinute / 2;
      for (let i = 0; i < half; i += 1) expect((await send(socket, { sessionId, message: `socket ${i}` })).ok).toBe(true);
      for (let i = 0; i < half; i += 1) {
        const posted = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie }, payload: { sessionId, message: `rest ${i}` } });
        expect(posted.statusCode).toBe(201);
      }
      const refused = await send(socket, { sessionId, message: 'over the limit' });
      expect(refused.ok === false && refused.error).toMatch(/^Too many messages/);
      const restRefused = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie }, payload: { sessionId, message: 'over again' } });
      expect(restRefused.statusCode).toBe(429);
    });

    it('limits events per socket: a flood of joins is refused, not served', async () => {
      const { socket } = await connectedVisitor();
      const acks = await Promise.all(Array.from({ length: 60 }, () => join(socket, newSessionId())));
      expect(acks.filter((ack) => ack.ok).length).toBeLessThan(60);
      expect(acks.some((ack) => !ack.ok && ack.error === 'Too many events: please slow down')).toBe(true);
    });

    it('an address of RATE_LIMIT_ALLOWLIST skips the event budget, as it skips every other limit', async () => {
      const { app: allowing } = await buildTestServer({ RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { listen: true });
      const socket = visitorClient(allowing, visitorCookie(allowing));
      await connected(socket);
      const acks = await Promise.all(Array.from({ length: 60 }, () => join(socket, newSessionId())));
      expect(acks.every((ack) => ack.ok)).toBe(true);
    });
  });

  describe('identity in the handshake', () => {
    it('issues a signed visitor cookie on the Socket.IO handshake when the browser has none', async () => {
      const handshake = await rawHandshake(serverUrl(app));
      expect(handshake.status).toBe(101);
      const setCookie = handshake.headers['set-cookie'];
      const cookie = ([] as string[]).concat(setCookie ?? []).find((value) => value.startsWith('lw_visitor='));
      expect(cookie).toMatch(/HttpOnly/i);
      expect(app.visitorIdFromCookieHeader(cookie!.split(';')[0])).toBeTruthy();
    });

    it('refuses a long-polling handshake: one WebSocket per connection, so several nodes need no sticky sessions', async () => {
      const polling = await rawHandshake(serverUrl(app), { transport: 'polling' });
      expect(polling.status).toBe(400);
      expect(polling.headers['set-cookie']).toBeUndefined();
    });

    it('a visitor without a cookie can still chat over the socket', async () => {
      const socket = visitorClient(app);
      await connected(socket);
      const sent = await send(socket, { sessionId: newSessionId(), message: 'no cookie yet' });
      expect(sent.ok).toBe(true);
    });
  });

  describe('a burst from many visitors', () => {
    it('delivers every message exactly once to staff and to the visitor’s other tab, and to no one else', async () => {
      const staff = await connectedStaff();
      const visitorCount = 40;
      const perVisitor = 5;
      const visitors = await Promise.all(
        Array.from({ length: visitorCount }, async (_, index) => {
          // Many visitors come from many addresses: eight of them, well within each address's limits.
          const from = `127.0.1.${(index % 8) + 1}`;
          const { socket, cookie } = await connectedVisitor(visitorCookie(app), from);
          const { socket: otherTab } = await connectedVisitor(cookie, from);
          const sessionId = `session_burst_${index}_${Date.now()}`;
          await join(socket, sessionId);
          await join(otherTab, sessionId);
          return { socket, sessionId, ownEcho: collect<ChatMessage>(socket, 'chat:message'), inOtherTab: collect<ChatMessage>(otherTab, 'chat:message') };
        }),
      );
      const atStaff = collect<ChatMessage>(staff, 'chat:message');
      const total = visitorCount * perVisitor;
      const allArrived = new Promise<void>((resolve) => {
        const check = () => (atStaff.length >= total ? resolve() : setTimeout(check, 20));
        check();
      });
      const acks = await Promise.all(
        visitors.flatMap(({ socket, sessionId }) =>
          Array.from({ length: perVisitor }, (_, n) => send(socket, { sessionId, message: `burst ${n}`, clientId: `${sessionId}-${n}` })),
        ),
      );
      expect(acks.every((ack) => ack.ok)).toBe(true);
      await allArrived;
      // The other tabs' copies travel apart from staff's (a push each, after it): under load they may
      // come a while later. Wait for them all (a lost one fails the wait), then a moment for any extra.
      await expect.poll(() => visitors.every(({ inOtherTab }) => inOtherTab.length >= perVisitor), { timeout: 10_000 }).toBe(true);
      await pause(100);
      expect(atStaff).toHaveLength(total);
      expect(new Set(atStaff.map((row) => row.id)).size).toBe(total);
      for (const { sessionId, ownEcho, inOtherTab } of visitors) {
        expect(ownEcho).toEqual([]); // the sending socket has its acks
        expect(inOtherTab.every((row) => row.sessionId === sessionId)).toBe(true);
        expect(inOtherTab.map((row) => row.message).sort()).toEqual(Array.from({ length: perVisitor }, (_, n) => `burst ${n}`));
      }
    });
  });

});
