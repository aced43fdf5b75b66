// @scaled: seen receipts read back through RETURNING, statements per dialect
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatSessionSummary } from '../../../contract/chat';
import { apiPaths, pathTo } from '../../../contract/paths';
import { signInNewStaff, type StaffSignIn } from '../../../../test/support/factories';
import { buildTestServer } from '../../../../test/support/helper';
import { closeClients, collect, connected } from '../../../../test/support/sockets';
import { connectStaffSocket } from '../../../../test/support/staff-socket';
import { pause, visitorClient, visitorCookie } from '../../../../test/support/visitor-socket';

let counter = 0;
const newSessionId = () => `session_${Date.now()}_seen${(counter += 1)}`;

afterEach(() => closeClients());

/** A conversation of a visitor message and `replies` staff replies: its id, the visitor's cookie, its last seq. */
async function conversation(app: FastifyInstance, staff: StaffSignIn, replies = 2) {
  const sessionId = newSessionId();
  const cookie = visitorCookie(app);
  const sent = await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie }, payload: { sessionId, message: 'Do you do CarGurus?' } });
  expect(sent.statusCode).toBe(201);
  let lastSeq = 1;
  for (let index = 0; index < replies; index += 1) {
    const reply = await app.inject({ method: 'POST', url: apiPaths.staffReply, headers: { cookie: staff.cookie }, payload: { sessionId, message: `Yes (${index})` } });
    expect(reply.statusCode).toBe(201);
    lastSeq = reply.json<ChatMessage>().seq;
  }
  return { sessionId, cookie, lastSeq };
}

const seenOf = async (app: FastifyInstance, staff: StaffSignIn, sessionId: string) => {
  const response = await app.inject({ method: 'GET', url: pathTo(apiPaths.chatSession, { sessionId }), headers: { cookie: staff.cookie } });
  return response.json<ChatSessionSummary>().visitorSeenSeq;
};

const postSeen = (app: FastifyInstance, cookie: string | undefined, sessionId: string, payload: unknown) =>
  app.inject({ method: 'POST', url: pathTo(apiPaths.chatSeen, { sessionId }), headers: cookie ? { cookie } : {}, payload: payload as Record<string, unknown> });

describe('seen receipts', async () => {
  const { app } = await buildTestServer({ RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { listen: true });
  const staff = await signInNewStaff(app);

  it('REST: the visitor’s seen seq is kept, only moves forward, and never past the last message', async () => {
    const { sessionId, cookie, lastSeq } = await conversation(app, staff, 2);
    expect(await seenOf(app, staff, sessionId)).toBe(0);

    const first = await postSeen(app, cookie, sessionId, { upTo: 2 });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ visitorSeenSeq: 2 });
    expect(await seenOf(app, staff, sessionId)).toBe(2);

    // Backwards changes nothing.
    expect((await postSeen(app, cookie, sessionId, { upTo: 1 })).json()).toEqual({ visitorSeenSeq: 2 });
    // Past the last message: the last message.
    expect((await postSeen(app, cookie, sessionId, { upTo: 999 })).json()).toEqual({ visitorSeenSeq: lastSeq });
    expect(await seenOf(app, staff, sessionId)).toBe(lastSeq);
  });

  it('REST: bad payloads get a clear 400 and change nothing; another visitor’s session and an unknown one are 404', async () => {
    const { sessionId, cookie } = await conversation(app, staff, 1);
    const bad: [unknown, string][] = [
      [{}, 'upTo must be the seq of a message: a whole number of at least 0'],
      [{ upTo: -1 }, 'upTo must be the seq of a message: a whole number of at least 0'],
      [{ upTo: 1.5 }, 'upTo must be the seq of a message: a whole number of at least 0'],
      [{ upTo: '2' }, 'upTo must be the seq of a message: a whole number of at least 0'],
    ];
    for (const [payload, message] of bad) {
      const response = await postSeen(app, cookie, sessionId, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(response.json())).toContain(message);
    }
    expect((await postSeen(app, cookie, sessionId, { upTo: 1, extra: true })).statusCode).toBe(400);
    const badId = await app.inject({ method: 'POST', url: pathTo(apiPaths.chatSeen, { sessionId: 'x' }), headers: { cookie }, payload: { upTo: 1 } });
    expect(badId.statusCode).toBe(400);

    for (const other of [visitorCookie(app), undefined]) {
      const response = await postSeen(app, other, sessionId, { upTo: 2 });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Chat session not found' });
    }
    expect((await postSeen(app, cookie, newSessionId(), { upTo: 2 })).statusCode).toBe(404);
    expect(await seenOf(app, staff, sessionId)).toBe(0);
  });

  it('socket: chat:seen is acked with the seq kept, and staff hear the session update', async () => {
    const { sessionId, cookie, lastSeq } = await conversation(app, staff, 2);
    const staffSocket = await connectStaffSocket(app, staff.cookie);
    const updates = collect<ChatSessionSummary>(staffSocket, 'chat-session:updated');
    const visitor = visitorClient(app, cookie);
    await connected(visitor);

    expect(await visitor.emitWithAck('chat:seen', { sessionId, upTo: lastSeq })).toEqual({ ok: true, visitorSeenSeq: lastSeq });
    const deadline = Date.now() + 5000;
    while (!updates.some((update) => update.id === sessionId) && Date.now() < deadline) await pause(20);
    expect(updates.filter((update) => update.id === sessionId).map((update) => update.visitorSeenSeq)).toEqual([lastSeq]);

    // Not forward: acked with what is kept, and staff hear nothing more.
    expect(await visitor.emitWithAck('chat:seen', { sessionId, upTo: 1 })).toEqual({ ok: true, visitorSeenSeq: lastSeq });
    await pause(200);
    expect(updates.filter((update) => update.id === sessionId)).toHaveLength(1);
  });

  it('socket: a bad payload and a stranger’s session are refused in the ack', async () => {
    const { sessionId } = await conversation(app, staff, 1);
    const stranger = visitorClient(app, visitorCookie(app));
    await connected(stranger);
    expect(await stranger.emitWithAck('chat:seen', { sessionId, upTo: 'all' as unknown as number })).toEqual({
      ok: false,
      error: 'upTo must be the seq of a message: a whole number of at least 0',
    });
    expect(await stranger.emitWithAck('chat:seen', { sessionId, upTo: 2 })).toEqual({ ok: false, error: 'Chat session not found' });
    expect(await seenOf(app, staff, sessionId)).toBe(0);
  });
});
