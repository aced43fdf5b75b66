// @scaled: budget state carried on sockets through the Redis adapter
import { afterEach, describe, expect, it } from 'vitest';
import type { AnonymousBudgetStatus, Readiness } from '../contract/operations';
import { operatorPaths } from '../contract/operations';
import { manualClock } from '../../test/support/clock';
import { signInNewStaff } from '../../test/support/factories';
import { buildTestServer } from '../../test/support/helper';
import { readOutbox } from '../../test/support/outbox';
import { closeClients, collect } from '../../test/support/sockets';
import { connectStaffSocket } from '../../test/support/staff-socket';
import { visitorCookie } from '../../test/support/visitor-socket';

afterEach(() => closeClients());

let counter = 0;
const newSessionId = () => `session_${Date.now()}_budget${(counter += 1)}`;

describe("a node's daily budget of anonymous traffic", async () => {
  // Late in a UTC day: two hours on, the next day starts. Staff idle expiry reads the same clock: the
  // dashboard watching may sit idle through those two hours.
  const clock = manualClock(Date.parse('2026-12-23T23:00:00.000Z'));
  const { app } = await buildTestServer(
    { ANONYMOUS_DAILY_CONVERSATIONS: '2', ANONYMOUS_DAILY_MESSAGES: '4', RATE_LIMIT_ALLOWLIST: '127.0.0.1', STAFF_IDLE_MINUTES: '180' },
    { listen: true, clock },
  );
  const staff = await signInNewStaff(app);

  const say = async (sessionId: string, cookie: string) => {
    const sent = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie }, payload: { sessionId, message: 'Hello?' } });
    // Over the budget or not, a visitor's message is taken.
    expect(sent.statusCode).toBe(201);
  };
  const readiness = async () => {
    const answer = await app.inject({ method: 'GET', url: operatorPaths.readyz });
    expect(answer.statusCode).toBe(200);
    return answer.json<Readiness>();
  };
  const overGauge = async () => /^lotwise_anonymous_budget_over (\d)$/m.exec((await app.inject({ method: 'GET', url: operatorPaths.metrics })).body)?.[1];

  it('keeps taking chats past it, but says it is over: to staff once a day, in /readyz and /metrics; a new day starts afresh', async () => {
    const dashboard = await connectStaffSocket(app, staff.cookie);
    const alerts = collect<AnonymousBudgetStatus>(dashboard, 'alert:anonymous-budget');

    const first = { sessionId: newSessionId(), cookie: visitorCookie(app) };
    await say(first.sessionId, first.cookie);
    await say(newSessionId(), visitorCookie(app));
    // Staff replies are not anonymous traffic.
    const reply = await app.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie: staff.cookie }, payload: { sessionId: first.sessionId, message: 'Hi!' } });
    expect(reply.statusCode).toBe(201);
    expect(app.anonymousBudget.overToday()).toBe(false);
    expect((await readiness()).anonymousTraffic).toEqual({ day: '2026-12-23', conversations: 2, messages: 2, dailyConversations: 2, dailyMessages: 4, overToday: false });
    expect(await overGauge()).toBe('0');

    // A third conversation is one more than the day allows.
    await say(newSessionId(), visitorCookie(app));
    expect(app.anonymousBudget.overToday()).toBe(true);
    const ready = await readiness();
    expect(ready.ready).toBe(true);
    expect(ready.anonymousTraffic).toMatchObject({ conversations: 3, messages: 3, overToday: true });
    expect(await overGauge()).toBe('1');
    await expect.poll(() => alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ day: '2026-12-23', conversations: 3, overToday: true });

    // More of it: still taken, still over, no second alert today.
    await say(first.sessionId, first.cookie);
    await say(first.sessionId, first.cookie);
    expect((await readiness()).anonymousTraffic).toMatchObject({ conversations: 3, messages: 5, overToday: true });

    // Midnight UTC: a new day's budget.
    clock.advance(2 * 60 * 60 * 1000);
    expect(app.anonymousBudget.overToday()).toBe(false);
    expect((await readiness()).anonymousTraffic).toMatchObject({ day: '2026-12-24', conversations: 0, messages: 0, overToday: false });
    expect(await overGauge()).toBe('0');
    // Past the messages' limit this time (5 > 4), in one conversation: alerted again, once.
    const next = newSessionId();
    for (let i = 0; i < 5; i += 1) await say(next, first.cookie);
    expect(app.anonymousBudget.overToday()).toBe(true);
    await expect.poll(() => alerts).toHaveLength(2);
    expect(alerts[1]).toMatchObject({ day: '2026-12-24', conversations: 1, messages: 5 });
    await say(next, first.cookie);
    // A round trip on the dashboard's socket: any further alert would have come before its answer.
    await dashboard.timeout(5000).emitWithAck('chat:viewers');
    expect(alerts).toHaveLength(2);
  });
});

describe('past the budget, mail caused by anonymous chats is withheld; other mail goes', async () => {
  const clock = manualClock(Date.parse('2026-12-23T12:00:00.000Z'));
  const { app, dir } = await buildTestServer({ ANONYMOUS_DAILY_CONVERSATIONS: '1', RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { clock });
  let jobId = 900_000;
  const send = (fromAnonymousChat: boolean, to: string) =>
    app.mail.send(
      { purpose: 'staff-notice', to, fromAnonymousChat, compose: () => ({ subject: `Notice to ${to}`, text: 'A chat is waiting.' }) },
      { jobId: (jobId += 1), attempt: 1, dueAt: clock.now(), log: app.log, signal: new AbortController().signal },
    );
  const outbox = () => readOutbox(dir);

  it('withholds it past the budget, never before, and never other mail', async () => {
    expect(await send(true, 'before@lotwise.example')).toEqual({ sent: true });
    for (let i = 0; i < 2; i += 1) {
      const sent = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie: visitorCookie(app) }, payload: { sessionId: newSessionId(), message: 'Hi' } });
      expect(sent.statusCode).toBe(201);
    }
    expect(app.anonymousBudget.overToday()).toBe(true);
    expect(await send(true, 'after@lotwise.example')).toEqual({ sent: false, reason: 'anonymous-budget' });
    expect(await send(false, 'lead@lotwise.example')).toEqual({ sent: true });
    expect((await outbox()).map((mail) => mail.headers.to).sort()).toEqual(['before@lotwise.example', 'lead@lotwise.example']);
  });
});
