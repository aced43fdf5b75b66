import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../contract/chat';
import { rooms } from '../../../contract/socket';
import { buildTestServer } from '../../../../test/support/helper';
import { closeClients, collect, connected, nextEvent } from '../../../../test/support/sockets';
import { connectStaffSocket, type StaffClient } from '../../../../test/support/staff-socket';
import { maxChatRoomsPerSocket } from './chat.rooms';
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

/** A full garbage collection: Vitest's workers run without --expose-gc, so the flag is set now and `gc` taken from a new context. */
function garbageCollector(): () => unknown {
  if (globalThis.gc) return globalThis.gc;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => unknown;
}

describe('how many rooms a visitor socket is in', async () => {
  // From an allowlisted address, so neither the socket's event budget nor the address limits refuse anything here.
  const { app: allowlisted } = await buildTestServer({ RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { listen: true });

  it(`at most ${maxChatRoomsPerSocket} sessions’ rooms: one more leaves the least recently used, whose pushes come back when it is joined again`, async () => {
    const staff = await connectStaffSocket(allowlisted, (await signInNewStaff(allowlisted)).cookie);
    const cookie = visitorCookie(allowlisted);
    const tabA = visitorClient(allowlisted, cookie);
    const tabB = visitorClient(allowlisted, cookie);
    await Promise.all([connected(tabA), connected(tabB)]);
    const serverSide = (tab: VisitorClient) => allowlisted.visitorSockets.sockets.get(tab.id!)!;
    const sessionRooms = (tab: VisitorClient) => [...serverSide(tab).rooms].filter((room) => room.startsWith(rooms.chatSession(''))).sort();
    const roomsOf = (...sessionIds: string[]) => sessionIds.map(rooms.chatSession).sort();

    const sessions = Array.from({ length: maxChatRoomsPerSocket + 1 }, () => newSessionId());
    for (const sessionId of sessions) expect((await send(tabA, { sessionId, message: `about ${sessionId}` })).ok).toBe(true);
    // Tab B joined none of them: each session's first message put both tabs in its room, and the oldest out again.
    for (const tab of [tabA, tabB]) {
      await vi.waitFor(() => expect(sessionRooms(tab)).toEqual(roomsOf(...sessions.slice(1))));
      expect(serverSide(tab).rooms.has(rooms.visitor(serverSide(tab).data.visitorId))).toBe(true);
    }
    const heard = collect<ChatMessage>(tabA, 'chat:message');
    await reply(staff, { sessionId: sessions[0]!, message: 'to the session it left' });
    await reply(staff, { sessionId: sessions[1]!, message: 'to a session it is in' });
    await pause(150);
    expect(heard.map((message) => message.message)).toEqual(['to a session it is in']);

    // Joined again, the oldest session is back (and the next oldest leaves); a send marks its session used.
    const [first, second, third, fourth] = sessions as [string, string, string, string];
    expect(await join(tabA, first)).toMatchObject({ ok: true, messages: [{ message: `about ${first}` }, { message: 'to the session it left' }] });
    expect(sessionRooms(tabA)).toEqual(roomsOf(...sessions.slice(2), first));
    expect((await send(tabA, { sessionId: third, message: 'still on it' })).ok).toBe(true);
    expect(await join(tabA, second)).toMatchObject({ ok: true });
    expect(sessionRooms(tabA)).toEqual(roomsOf(...sessions.slice(2).filter((id) => id !== fourth), first, second));
    const back = nextEvent(tabA, 'chat:message');
    await reply(staff, { sessionId: first, message: 'heard again' });
    expect(await back).toMatchObject({ sessionId: first, message: 'heard again' });
  });

  it('50,000 joins of fresh ids and of its own sessions leave the server’s room count and heap flat', async () => {
    const collectGarbage = garbageCollector();
    const heapUsed = () => {
      collectGarbage();
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    const socket = visitorClient(allowlisted, visitorCookie(allowlisted));
    await connected(socket);
    const own = [newSessionId(), newSessionId(), newSessionId()];
    for (const sessionId of own) expect((await send(socket, { sessionId, message: `this is ${sessionId}` })).ok).toBe(true);
    const joins = 50_000;
    const batch = 1000;
    /** One batch, awaited: fresh ids, and every hundredth one of the socket's own sessions, as a reopened tab would join. */
    const joinBatch = async (ids: string) => {
      const acks = await Promise.all(
        Array.from({ length: batch }, (_, n) => join(socket, n % 100 === 0 ? own[(n / 100) % own.length]! : `${ids}_${n}`)),
      );
      return acks.filter((ack) => ack.ok).length;
    };
    // A first batch warms up what every join uses (compiled code, pooled connections, buffers): the heap then measures the flood alone.
    await joinBatch(`warmup_${Date.now()}`);
    const roomCount = () => allowlisted.visitorSockets.adapter.rooms.size;
    const roomsBefore = roomCount();
    const heapBefore = heapUsed();

    let served = 0;
    for (let start = 0; start < joins; start += batch) served += await joinBatch(`flood_${Date.now()}_${start}`);
    expect(served).toBe(joins);

    const grownBy = { rooms: roomCount() - roomsBefore, heapMb: (heapUsed() - heapBefore) / 1024 / 1024 };
    expect.soft(grownBy.rooms).toBeLessThanOrEqual(2);
    expect.soft(grownBy.heapMb).toBeLessThan(5);

    // Its own conversations are still pushed to it.
    const staff = await connectStaffSocket(allowlisted, (await signInNewStaff(allowlisted)).cookie);
    const heard = nextEvent(socket, 'chat:message');
    expect((await reply(staff, { sessionId: own[0]!, message: 'still here for you' })).ok).toBe(true);
    expect(await heard).toMatchObject({ sessionId: own[0], message: 'still here for you' });
  }, 60_000);
});
