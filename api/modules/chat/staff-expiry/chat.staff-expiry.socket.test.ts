// @scaled: an ended sign-in closes its sockets on every node, through the Redis adapter
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../contract/chat';
import { buildTestServer } from '../../../../test/support/helper';
import { closeClients, connected, nextEvent } from '../../../../test/support/sockets';
import { connectStaffSocket } from '../../../../test/support/staff-socket';
import { visitorClient, visitorCookie, type VisitorClient } from '../../../../test/support/visitor-socket';
import { signInNewStaff } from '../../../../test/support/factories';
import { manualClock } from '../../../../test/support/clock';

let sessionCounter = 0;
const newSessionId = () => `session_${Date.now()}_sock${(sessionCounter += 1)}`;

type SendAck = { ok: true; message: ChatMessage } | { ok: false; error: string };

const send = (socket: VisitorClient, payload: { sessionId: string; message: string; clientId?: string; pageUrl?: string }) =>
  socket.emitWithAck('chat:send', payload) as Promise<SendAck>;

afterEach(() => closeClients());

describe('staff expiry', () => {
  it('tells a staff socket its session expired, then disconnects it', async () => {
    // 0.02 minutes = 1.2 s idle, on a clock the test moves: the check runs every 0.6 s of it.
    const clock = manualClock();
    const { app: strict } = await buildTestServer({ STAFF_IDLE_MINUTES: '0.02' }, { listen: true, clock });
    const socket = await connectStaffSocket(strict, (await signInNewStaff(strict)).cookie);
    const expired = nextEvent(socket, 'session:expired', 5000);
    const gone = nextEvent(socket, 'disconnect', 6000);
    clock.advance(1800);
    await expired;
    expect(await gone).toBe('io server disconnect');
  });

  it('a staff reply after the session went idle is refused and stores nothing', async () => {
    const clock = manualClock();
    const { app: strict } = await buildTestServer({ STAFF_IDLE_MINUTES: '0.02' }, { listen: true, clock });
    const { cookie } = await signInNewStaff(strict);
    const visitor = visitorClient(strict, visitorCookie(strict));
    await connected(visitor);
    const sessionId = newSessionId();
    await send(visitor, { sessionId, message: 'anyone?' });
    const staff = await connectStaffSocket(strict, cookie);
    clock.advance(1300);
    // The expiry timer may close the socket before the answer (the pending ack then rejects) or
    // before the reply is sent (the client buffers it for a reconnect that never comes: the timeout ends the wait).
    const answer = await (staff.timeout(5000).emitWithAck('chat:reply', { sessionId, message: 'too late' }) as Promise<SendAck>).catch(() => null);
    if (answer) expect(answer).toEqual({ ok: false, error: 'Not authenticated' });
    const rows = await strict.db.selectFrom('chatMessages').select('message').where('sessionId', '=', sessionId).execute();
    expect(rows.map((row) => row.message)).toEqual(['anyone?']);
  });
});
