// @scaled: cursor reads and numbered messages, statements per dialect
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { ChatMessage, ChatSessionSummary, StaffChatMessage } from '../../../contract/chat';
import type { ChatResyncAnswer, ChatSessionState, VisitorChatSessionSummary } from '../../../contract/chat-resync';
import { apiPaths, pathTo, withQuery } from '../../../contract/paths';
import { freshPostgresUrl, onPostgres } from '../../../../test/support/database';
import { signInNewStaff } from '../../../../test/support/factories';
import { buildTestServer, type TestServer } from '../../../../test/support/helper';
import { closeClients, collect, connected, nextEvent } from '../../../../test/support/sockets';
import { connectStaffSocket } from '../../../../test/support/staff-socket';
import { pause, visitorClient, visitorCookie, type VisitorClient } from '../../../../test/support/visitor-socket';

const redisUrl = inject('redisUrl') as string | undefined;

let counter = 0;
const newSessionId = () => `session_${Date.now()}_resync${(counter += 1)}`;

type SendAck = { ok: true; message: ChatMessage } | { ok: false; error: string };
type ResyncAck = ({ ok: true } & ChatResyncAnswer) | { ok: false; error: string };

const send = (socket: VisitorClient, sessionId: string, message: string) => socket.emitWithAck('chat:send', { sessionId, message }) as Promise<SendAck>;
const resync = (socket: VisitorClient, payload: unknown) => socket.emitWithAck('chat:resync', payload as { sessionId: string; afterSeq: number }) as Promise<ResyncAck>;

afterEach(() => closeClients());

/** Staff on `node`: a reply by REST, and a status change. */
function staffOn(node: TestServer, cookie: string) {
  return {
    reply: async (sessionId: string, message: string) => {
      const answer = await node.app.inject({ method: 'POST', url: apiPaths.staffReply, headers: { cookie }, payload: { sessionId, message } });
      expect(answer.statusCode).toBe(201);
      return answer.json<StaffChatMessage>();
    },
    setStatus: async (sessionId: string, status: 'open' | 'resolved') => {
      const answer = await node.app.inject({ method: 'PATCH', url: pathTo(apiPaths.chatSession, { sessionId }), headers: { cookie }, payload: { status } });
      expect(answer.statusCode).toBe(200);
      return answer.json<ChatSessionSummary>();
    },
  };
}

/**
 * A visitor on `visitorNode` writes, goes away; staff on `staffNode` reply twice and resolve; the
 * visitor comes back on `backNode` with its cursor and gets exactly the two replies and the status.
 */
async function missedWhileAway(visitorNode: TestServer, staffNode: TestServer, backNode: TestServer) {
  const cookie = visitorCookie(visitorNode.app);
  const sessionId = newSessionId();
  const first = visitorClient(visitorNode.app, cookie);
  await connected(first);
  const opening = await send(first, sessionId, 'Do you do inventory feeds?');
  if (!opening.ok) throw new Error(opening.error);
  first.disconnect();

  const staff = staffOn(staffNode, (await signInNewStaff(staffNode.app)).cookie);
  await staff.reply(sessionId, 'Yes, every major one.');
  await staff.reply(sessionId, 'Which provider are you on?');
  await staff.setStatus(sessionId, 'resolved');

  const back = visitorClient(backNode.app, cookie);
  await connected(back);
  const answer = await resync(back, { sessionId, afterSeq: opening.message.seq });
  return { answer, sessionId, cookie, back, opening: opening.message };
}

describe('resync by cursor and past conversations', async () => {
  const node = await buildTestServer({}, { listen: true });
  const { app } = node;

  describe('a visitor reconnecting with its cursor', () => {
    it('gets exactly the two replies it missed, in seq order, and the resolved status', async () => {
      const { answer, sessionId, opening } = await missedWhileAway(node, node, node);
      if (!answer.ok) throw new Error(answer.error);
      expect(answer.messages.map((message) => [message.seq, message.message, message.kind])).toEqual([
        [opening.seq + 1, 'Yes, every major one.', 'staff'],
        [opening.seq + 2, 'Which provider are you on?', 'staff'],
      ]);
      // The visitor's view: no author of a staff message.
      expect(answer.messages[0]).not.toHaveProperty('authorStaffId');
      expect(answer.session).toMatchObject({ sessionId, status: 'resolved', lastSeq: 3, readSeq: 3 });
    });

    it('gets the same by REST with ?afterSeq= (the poll while the socket is down), and nothing twice from the cursor it then holds', async () => {
      const { sessionId, cookie, opening } = await missedWhileAway(node, node, node);
      const poll = (afterSeq: number) =>
        app.inject({ method: 'GET', url: withQuery(pathTo(apiPaths.visitorChatResync, { sessionId }), { afterSeq }), headers: { cookie } });
      const caughtUp = (await poll(opening.seq)).json<ChatResyncAnswer>();
      expect(caughtUp.messages.map((message) => message.message)).toEqual(['Yes, every major one.', 'Which provider are you on?']);
      expect(caughtUp.session?.status).toBe('resolved');
      const again = (await poll(caughtUp.messages.at(-1)!.seq)).json<ChatResyncAnswer>();
      expect(again).toMatchObject({ messages: [], session: { status: 'resolved' } });
      // The history path takes the cursor too.
      const history = await app.inject({ method: 'GET', url: withQuery(pathTo(apiPaths.chatHistory, { sessionId }), { afterSeq: 2 }), headers: { cookie } });
      expect(history.json<ChatMessage[]>().map((message) => message.seq)).toEqual([3]);
    });

    it('is pushed the whole state when staff resolve its conversation while connected', async () => {
      const sessionId = newSessionId();
      const socket = visitorClient(app, visitorCookie(app));
      await connected(socket);
      await send(socket, sessionId, 'Hello');
      const staff = staffOn(node, (await signInNewStaff(app)).cookie);
      const told = nextEvent(socket, 'chat:session');
      await staff.setStatus(sessionId, 'resolved');
      expect(await told).toMatchObject<Partial<ChatSessionState>>({ sessionId, status: 'resolved', lastSeq: 1 });
    });

    it('refuses a bad cursor and a stranger’s session, and a session not started yet answers nothing and no state', async () => {
      const { sessionId } = await missedWhileAway(node, node, node);
      const stranger = visitorClient(app, visitorCookie(app));
      await connected(stranger);
      expect(await resync(stranger, { sessionId, afterSeq: 0 })).toEqual({ ok: false, error: 'Chat session not found' });
      expect(await resync(stranger, { sessionId, afterSeq: -1 })).toEqual({ ok: false, error: 'afterSeq must be a whole number, 0 or more' });
      expect(await resync(stranger, { sessionId, afterSeq: 'x' })).toMatchObject({ ok: false });
      expect(await resync(stranger, { sessionId: 'no', afterSeq: 0 })).toMatchObject({ ok: false, error: expect.stringContaining('sessionId') as string });
      expect(await resync(stranger, { sessionId: newSessionId(), afterSeq: 0 })).toEqual({ ok: true, messages: [], session: null });
      const rest = await app.inject({ method: 'GET', url: withQuery(pathTo(apiPaths.visitorChatResync, { sessionId }), { afterSeq: 'abc' }), headers: { cookie: visitorCookie(app) } });
      expect(rest.statusCode).toBe(400);
      const strangerRest = await app.inject({ method: 'GET', url: pathTo(apiPaths.visitorChatResync, { sessionId }), headers: { cookie: visitorCookie(app) } });
      expect(strangerRest.statusCode).toBe(404);
    });
  });

  describe('writing to a resolved conversation', () => {
    it('reopens it; staff get chat-session:updated with the status open, then the message; the visitor’s socket gets the state', async () => {
      const { sessionId, back } = await missedWhileAway(node, node, node);
      const staffSocket = await connectStaffSocket(app, (await signInNewStaff(app)).cookie);
      const updates = collect<ChatSessionSummary>(staffSocket, 'chat-session:updated');
      const messages = collect<StaffChatMessage>(staffSocket, 'chat:message');
      const state = nextEvent(back, 'chat:session');
      const sent = await send(back, sessionId, 'Actually, one more question');
      expect(sent).toMatchObject({ ok: true, message: { seq: 4 } });
      expect(await state).toMatchObject({ sessionId, status: 'open', lastSeq: 4 });
      await expect.poll(() => messages.length).toBe(1);
      expect(updates).toEqual([expect.objectContaining({ id: sessionId, status: 'open', lastMessage: 'Actually, one more question', unreadCount: 1 })]);
      // An open session's next message takes the one-statement path and says nothing more.
      await send(back, sessionId, 'Thanks');
      await expect.poll(() => messages.length).toBe(2);
      expect(updates).toHaveLength(1);
    });

    it('by REST too', async () => {
      const { sessionId, cookie } = await missedWhileAway(node, node, node);
      const answer = await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie }, payload: { sessionId, message: 'Back again' } });
      expect(answer.statusCode).toBe(201);
      const staff = await signInNewStaff(app);
      const row = await app.inject({ method: 'GET', url: pathTo(apiPaths.chatSession, { sessionId }), headers: { cookie: staff.cookie } });
      expect(row.json()).toMatchObject({ status: 'open', lastMessage: 'Back again' });
    });

    it('another visitor cannot reopen it', async () => {
      const { sessionId } = await missedWhileAway(node, node, node);
      const answer = await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie: visitorCookie(app) }, payload: { sessionId, message: 'Mine now' } });
      expect(answer.statusCode).toBe(404);
      const staff = await signInNewStaff(app);
      const row = await app.inject({ method: 'GET', url: pathTo(apiPaths.chatSession, { sessionId }), headers: { cookie: staff.cookie } });
      expect(row.json()).toMatchObject({ status: 'resolved', messageCount: 3 });
    });
  });

  describe('a visitor’s past conversations', () => {
    const list = async (cookie?: string) => {
      const answer = await app.inject({ method: 'GET', url: apiPaths.visitorChatSessions, headers: cookie ? { cookie } : {} });
      expect(answer.statusCode).toBe(200);
      return answer.json<VisitorChatSessionSummary[]>();
    };

    it('lists the visitor’s own conversations, newest first, and never another visitor’s', async () => {
      const mine = visitorCookie(app);
      const theirs = visitorCookie(app);
      const older = newSessionId();
      const newer = newSessionId();
      const other = newSessionId();
      const post = (cookie: string, sessionId: string, message: string) =>
        app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie }, payload: { sessionId, message } });
      await post(mine, older, 'First question');
      await pause(5);
      await post(theirs, other, 'Someone else’s question');
      await pause(5);
      await post(mine, newer, 'Second question');
      const staff = staffOn(node, (await signInNewStaff(app)).cookie);
      await staff.reply(older, 'Answered');
      await staff.setStatus(older, 'resolved');

      const listed = await list(mine);
      expect(listed.map((session) => session.id)).toEqual([older, newer]);
      expect(listed[0]).toMatchObject({ status: 'resolved', lastMessage: 'Answered', lastMessageFromUser: false, messageCount: 2 });
      expect(listed[1]).toMatchObject({ status: 'open', lastMessage: 'Second question', lastMessageFromUser: true, messageCount: 1 });
      expect((await list(theirs)).map((session) => session.id)).toEqual([other]);
      // No cookie, no identity minted, nothing listed.
      const anonymous = await app.inject({ method: 'GET', url: apiPaths.visitorChatSessions });
      expect(anonymous.json()).toEqual([]);
      expect(anonymous.cookies).toEqual([]);
    });
  });

  describe('a reconnecting dashboard', () => {
    const staffResync = (cookie: string, payload: unknown) => app.inject({ method: 'POST', url: apiPaths.staffChatResync, headers: { cookie }, payload: payload as object });

    it('gets the sessions whose version moved since it read them and the new ones, not those it holds as they are', async () => {
      const staff = await signInNewStaff(app);
      const cookie = visitorCookie(app);
      const [calm, resolved, replied] = [newSessionId(), newSessionId(), newSessionId()];
      for (const sessionId of [calm, resolved, replied]) {
        await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie }, payload: { sessionId, message: `In ${sessionId}` } });
      }
      const read = async (sessionId: string) =>
        (await app.inject({ method: 'GET', url: pathTo(apiPaths.chatSession, { sessionId }), headers: { cookie: staff.cookie } })).json<ChatSessionSummary>();
      const held = await Promise.all([calm, resolved, replied].map(read));
      // Everything the server knows now is held: nothing to send.
      const everything = (await app.inject({ method: 'GET', url: withQuery(apiPaths.chatSessions, { limit: 500 }), headers: { cookie: staff.cookie } })).json<ChatSessionSummary[]>();
      const known = everything.map((row) => ({ id: row.id, version: row.version }));
      expect((await staffResync(staff.cookie, { known })).json()).toEqual({ sessions: [] });

      // Offline: one resolved, one replied to, one new.
      const actions = staffOn(node, staff.cookie);
      await actions.setStatus(resolved, 'resolved');
      await actions.reply(replied, 'On it');
      const added = newSessionId();
      await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie }, payload: { sessionId: added, message: 'New one' } });

      const answer = await staffResync(staff.cookie, { known });
      expect(answer.statusCode).toBe(200);
      const { sessions } = answer.json<{ sessions: ChatSessionSummary[] }>();
      expect(sessions.map((row) => row.id).sort()).toEqual([resolved, replied, added].sort());
      // Resolving counts one change, and asking for a rating (a job of the resolve) may count another.
      const resolvedNow = sessions.find((row) => row.id === resolved);
      expect(resolvedNow).toMatchObject({ status: 'resolved' });
      expect(resolvedNow!.version).toBeGreaterThan(held[1]!.version);
      expect(sessions.find((row) => row.id === replied)).toMatchObject({ lastMessage: 'On it', unreadCount: 0, lastMessageSeq: 2 });
      // Newest activity first.
      expect(sessions.map((row) => row.lastActivity)).toEqual(sessions.map((row) => row.lastActivity).sort().reverse());

      // Its open conversation: the messages after the seq it holds, with their authors.
      const missed = await app.inject({ method: 'GET', url: withQuery(pathTo(apiPaths.chatHistory, { sessionId: replied }), { afterSeq: 1 }), headers: { cookie: staff.cookie } });
      expect(missed.json<StaffChatMessage[]>()).toEqual([expect.objectContaining({ seq: 2, message: 'On it', authorName: expect.any(String) as string })]);
    });

    it('refuses bad input with a 400 and a stranger with a 401', async () => {
      const staff = await signInNewStaff(app);
      for (const payload of [{}, { known: 'all' }, { known: [{ id: 'no', version: 1 }] }, { known: [{ id: newSessionId(), version: -1 }] }, { known: [], extra: 1 }]) {
        expect((await staffResync(staff.cookie, payload)).statusCode).toBe(400);
      }
      const tooMany = Array.from({ length: 501 }, (_, index) => ({ id: `session_many_${index}`, version: 0 }));
      expect((await staffResync(staff.cookie, { known: tooMany })).json()).toMatchObject({ errors: { known: 'known may list at most 500 sessions' } });
      expect((await staffResync(visitorCookie(app), { known: [] })).statusCode).toBe(401);
      const badCursor = await app.inject({ method: 'GET', url: `${pathTo(apiPaths.chatHistory, { sessionId: newSessionId() })}?afterSeq=1.5`, headers: { cookie: staff.cookie } });
      expect(badCursor.statusCode).toBe(400);
    });
  });
});

/**
 * Two nodes of one deployment: one PostgreSQL database and one Redis key prefix. The visitor writes on
 * node A, staff reply and resolve on node B, and the visitor comes back on B (and on A).
 */
describe.runIf(onPostgres && redisUrl)('resync across two nodes (PostgreSQL + Redis)', async () => {
  // Vitest runs a skipped describe's body too: on SQLite nothing is started.
  if (!onPostgres) return;
  const shared = { DATABASE_URL: await freshPostgresUrl(), REDIS_KEY_PREFIX: `resync-${randomBytes(6).toString('hex')}:` };
  const a = await buildTestServer(shared, { listen: true });
  const b = await buildTestServer(shared, { listen: true });

  it('a visitor that left node A gets exactly what staff did on node B, on either node', async () => {
    const { answer, sessionId, cookie, opening } = await missedWhileAway(a, b, b);
    if (!answer.ok) throw new Error(answer.error);
    expect(answer.messages.map((message) => [message.seq, message.message])).toEqual([
      [opening.seq + 1, 'Yes, every major one.'],
      [opening.seq + 2, 'Which provider are you on?'],
    ]);
    expect(answer.session).toMatchObject({ status: 'resolved' });
    const onA = visitorClient(a.app, cookie);
    await connected(onA);
    // The same messages on either node; the state may have moved on since (resolving asks for a rating: a job, one change more).
    const onOtherNode = await resync(onA, { sessionId, afterSeq: opening.seq });
    if (!onOtherNode.ok) throw new Error(onOtherNode.error);
    expect(onOtherNode.messages).toEqual(answer.messages);
    expect(onOtherNode.session).toMatchObject({ sessionId, status: 'resolved', lastSeq: answer.session!.lastSeq });
    expect(onOtherNode.session!.version).toBeGreaterThanOrEqual(answer.session!.version);
  });

  it('reopening on node A reaches staff on node B, and the visitor on B is pushed the state', async () => {
    const { sessionId, cookie, back } = await missedWhileAway(a, b, b);
    const staffSocket = await connectStaffSocket(b.app, (await signInNewStaff(b.app)).cookie);
    const reopened = nextEvent(staffSocket, 'chat-session:updated');
    const state = nextEvent(back, 'chat:session');
    const answer = await a.app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie }, payload: { sessionId, message: 'Reopening' } });
    expect(answer.statusCode).toBe(201);
    expect(await reopened).toMatchObject({ id: sessionId, status: 'open' });
    expect(await state).toMatchObject({ sessionId, status: 'open', lastSeq: 4 });
  });
});
