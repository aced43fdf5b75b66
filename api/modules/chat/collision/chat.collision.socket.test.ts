// @scaled: who views and types, shared through Redis
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../contract/chat';
import type { ConversationViewer, ConversationViewers, StaffTypingReply } from '../../../contract/team-inbox-notes';
import { freshPostgresUrl, onPostgres } from '../../../../test/support/database';
import { signInNewStaff } from '../../../../test/support/factories';
import { buildTestServer, type TestServer } from '../../../../test/support/helper';
import { closeClients, nextEvent } from '../../../../test/support/sockets';
import { connectStaffSocket, type StaffClient } from '../../../../test/support/staff-socket';
import { pause, visitorClient, visitorCookie } from '../../../../test/support/visitor-socket';

let counter = 0;
const newSessionId = () => `session_${Date.now()}_coll${(counter += 1)}`;

type ViewingAck = { ok: true; viewers: ConversationViewer[] } | { ok: false; error: string };
type ViewersAck = { ok: true; staffId: number; sessions: ConversationViewers[] } | { ok: false; error: string };
type SendAck = { ok: true; message: ChatMessage } | { ok: false; error: string };

afterEach(() => closeClients());

/** The next `chat:viewers` of one conversation that satisfies `test`. */
function viewersWhere(socket: StaffClient, sessionId: string, test: (names: string[]) => boolean, ms = 5000): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('chat:viewers', listener);
      reject(new Error(`no matching chat:viewers within ${ms} ms`));
    }, ms);
    const listener = (payload: ConversationViewers) => {
      const names = payload.viewers.map((viewer) => viewer.name).sort();
      if (payload.sessionId !== sessionId || !test(names)) return;
      clearTimeout(timer);
      socket.off('chat:viewers', listener);
      resolve(names);
    };
    socket.on('chat:viewers', listener);
  });
}

/**
 * On PostgreSQL + Redis: two nodes of one deployment (one database, one Redis key prefix), each staff
 * member on a node of their own. On SQLite: one node, both staff on it.
 */
describe('collision: who views a conversation, who types a reply', async () => {
  const shared: Record<string, string> = onPostgres ? { DATABASE_URL: await freshPostgresUrl(), REDIS_KEY_PREFIX: `collision-${randomBytes(6).toString('hex')}:` } : {};
  const env = { ...shared, RATE_LIMIT_ALLOWLIST: '127.0.0.1' };
  const a: TestServer = await buildTestServer(env, { listen: true });
  const b: TestServer = onPostgres ? await buildTestServer(env, { listen: true }) : a;

  const staffOn = async (node: TestServer) => {
    const signIn = await signInNewStaff(node.app);
    const socket = await connectStaffSocket(node.app, signIn.cookie);
    const name = /^(staff\d+)@/.exec(await nameOf(node, signIn.cookie))![1]!;
    return { socket, name, cookie: signIn.cookie };
  };
  const nameOf = async (node: TestServer, cookie: string) =>
    (await node.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).json<{ admin: { email: string } }>().admin.email;
  const view = (socket: StaffClient, sessionId: string | null) => socket.emitWithAck('chat:viewing', { sessionId }) as Promise<ViewingAck>;
  const conversation = async () => {
    const sessionId = newSessionId();
    const cookie = visitorCookie(a.app);
    const visitor = visitorClient(a.app, cookie);
    const heard: string[] = [];
    visitor.onAny((event: string, payload: unknown) => heard.push(`${event} ${JSON.stringify(payload)}`));
    const ack = (await visitor.emitWithAck('chat:send', { sessionId, message: 'Do you do financing pages?' })) as SendAck;
    expect(ack.ok).toBe(true);
    return { sessionId, visitor, heard };
  };

  it('one staff member opening a conversation is seen live by another (on another node), with the list of all; leaving is seen too', async () => {
    const dana = await staffOn(a);
    const lee = await staffOn(b);
    const { sessionId, heard } = await conversation();

    const leeSeesDana = viewersWhere(lee.socket, sessionId, (names) => names.includes(dana.name));
    const opened = await view(dana.socket, sessionId);
    expect(opened).toEqual({ ok: true, viewers: [expect.objectContaining({ name: dana.name })] });
    expect(await leeSeesDana).toEqual([dana.name]);

    // Lee opens it too: his answer names both; a dashboard loading now asks for every conversation's viewers.
    const bothSeen = viewersWhere(dana.socket, sessionId, (names) => names.length === 2);
    const leeOpened = await view(lee.socket, sessionId);
    expect(leeOpened.ok && leeOpened.viewers.map((viewer) => viewer.name).sort()).toEqual([dana.name, lee.name].sort());
    expect(await bothSeen).toEqual([dana.name, lee.name].sort());
    const third = await staffOn(b);
    const all = (await third.socket.emitWithAck('chat:viewers')) as ViewersAck;
    expect(all.ok).toBe(true);
    if (!all.ok) return;
    expect(all.staffId).toBeGreaterThan(0);
    expect(all.sessions.find((each) => each.sessionId === sessionId)?.viewers.map((viewer) => viewer.name).sort()).toEqual([dana.name, lee.name].sort());

    // Dana goes back to the list: Lee sees him alone.
    const leeAlone = viewersWhere(lee.socket, sessionId, (names) => names.length === 1);
    await view(dana.socket, null);
    expect(await leeAlone).toEqual([lee.name]);
    await pause(200);
    expect(heard.filter((line) => /viewers|viewing|typing-reply/.test(line) || line.includes(dana.name))).toEqual([]);
  });

  it('a viewer whose socket drops (a closed tab) disappears for the others', async () => {
    const dana = await staffOn(a);
    const lee = await staffOn(b);
    const { sessionId } = await conversation();
    const leeSeesDana = viewersWhere(lee.socket, sessionId, (names) => names.includes(dana.name));
    await view(dana.socket, sessionId);
    await leeSeesDana;
    const gone = viewersWhere(lee.socket, sessionId, (names) => !names.includes(dana.name));
    dana.socket.disconnect();
    expect(await gone).toEqual([]);
    const all = (await lee.socket.emitWithAck('chat:viewers')) as ViewersAck;
    expect(all.ok && all.sessions.some((each) => each.sessionId === sessionId)).toBe(false);
  });

  it('typing a reply is relayed to the other staff (another node), with who types; never to the visitor nor back to the typist', async () => {
    const dana = await staffOn(a);
    const lee = await staffOn(b);
    const { sessionId, heard } = await conversation();
    const danaHeard: StaffTypingReply[] = [];
    dana.socket.on('chat:typing-reply', (payload) => danaHeard.push(payload));
    const relayed = nextEvent(lee.socket, 'chat:typing-reply');
    dana.socket.emit('chat:typing-reply', { sessionId, typing: true });
    expect(await relayed).toEqual({ sessionId, typing: true, staffId: expect.any(Number) as number, name: dana.name });
    const stopped = nextEvent(lee.socket, 'chat:typing-reply');
    dana.socket.emit('chat:typing-reply', { sessionId, typing: false });
    expect(await stopped).toMatchObject({ sessionId, typing: false, name: dana.name });
    await pause(300);
    expect(danaHeard).toEqual([]);
    expect(heard.filter((line) => line.startsWith('chat:typing') || line.includes(dana.name))).toEqual([]);
  });

  it('refuses a bad payload in the ack, and a visitor socket cannot announce or ask', async () => {
    const dana = await staffOn(a);
    const refused = (await dana.socket.emitWithAck('chat:viewing', { sessionId: 'bad id!' })) as ViewingAck;
    expect(refused).toEqual({ ok: false, error: 'sessionId must be 8-100 letters, digits, _ or -' });
    const lee = await staffOn(b);
    const { sessionId, visitor } = await conversation();
    const leeHeard: unknown[] = [];
    lee.socket.on('chat:viewers', (payload) => leeHeard.push(payload));
    lee.socket.on('chat:typing-reply', (payload) => leeHeard.push(payload));
    // The visitor namespace has no such events: nothing reaches staff.
    (visitor as unknown as { emit(event: string, payload: unknown): void }).emit('chat:viewing', { sessionId });
    (visitor as unknown as { emit(event: string, payload: unknown): void }).emit('chat:typing-reply', { sessionId, typing: true });
    await pause(300);
    expect(leeHeard).toEqual([]);
  });
});
