// @scaled: typing relayed to dashboards through the Redis adapter
import { afterEach, describe, expect, it } from 'vitest';
import type { TypingPayload } from '../../../contract/socket';
import { manualClock } from '../../../../test/support/clock';
import { signInNewStaff } from '../../../../test/support/factories';
import { buildTestServer } from '../../../../test/support/helper';
import { closeClients, collect, connected } from '../../../../test/support/sockets';
import { connectStaffSocket } from '../../../../test/support/staff-socket';
import { visitorClient, visitorCookie, type VisitorClient } from '../../../../test/support/visitor-socket';
import { typingRelayIntervalMs } from './chat.typing';

afterEach(() => closeClients());

let counter = 0;
const newSessionId = () => `session_${Date.now()}_typing${(counter += 1)}`;

describe("a visitor's typing, relayed to the dashboards", async () => {
  // Time moves only when the test says: nothing is relayed late by a timer the test did not run.
  const clock = manualClock();
  // Loopback allowlisted: the per-socket event budget would otherwise be what bounds this flood.
  const { app } = await buildTestServer({ RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { listen: true, clock });

  /** Each socket's events are handled in order: an acked join after its typing answers once they were read. */
  const settled = (sockets: VisitorClient[], sessionId: string) => Promise.all(sockets.map((socket) => socket.timeout(5000).emitWithAck('chat:join', { sessionId })));

  it(`reaches staff at most once per ${typingRelayIntervalMs} ms per conversation, however many sockets send it, and ends with the last state`, async () => {
    const staff = await connectStaffSocket(app, (await signInNewStaff(app)).cookie);
    const heard = collect<TypingPayload>(staff, 'chat:typing');
    const cookie = visitorCookie(app);
    const tabs = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const socket = visitorClient(app, cookie);
        await connected(socket);
        return socket;
      }),
    );
    const sessionId = newSessionId();
    expect(((await tabs[0]!.emitWithAck('chat:send', { sessionId, message: 'Hi' })) as { ok: boolean }).ok).toBe(true);

    // Twenty "typing" from four tabs at once: one reaches the dashboards.
    for (let round = 0; round < 5; round += 1) for (const tab of tabs) tab.emit('chat:typing', { sessionId, typing: true });
    await settled(tabs, sessionId);
    await expect.poll(() => heard.length).toBe(1);
    expect(heard).toEqual([{ sessionId, typing: true }]);

    // The visitor stops within the interval: held, and relayed when it ends (the last state wins).
    tabs[1]!.emit('chat:typing', { sessionId, typing: false });
    await settled([tabs[1]!], sessionId);
    expect(heard).toHaveLength(1);
    // The server takes the typing once it has read who owns the conversation, a read that may end after
    // the join's (PostgreSQL, a pool): each look moves the clock an interval on, so the hold, once made, ends.
    await expect
      .poll(() => {
        clock.advance(typingRelayIntervalMs);
        return heard.at(-1);
      })
      .toEqual({ sessionId, typing: false });
    expect(heard).toEqual([
      { sessionId, typing: true },
      { sessionId, typing: false },
    ]);

    // Another conversation is paced on its own.
    const other = newSessionId();
    expect(((await tabs[2]!.emitWithAck('chat:send', { sessionId: other, message: 'And another thing' })) as { ok: boolean }).ok).toBe(true);
    tabs[2]!.emit('chat:typing', { sessionId: other, typing: true });
    await expect.poll(() => heard.at(-1)).toEqual({ sessionId: other, typing: true });
  });
});
