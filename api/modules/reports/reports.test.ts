// @scaled: aggregates and day buckets, counts typed per dialect
import { describe, expect, it } from 'vitest';
import type { LeadKind } from '../../contract/leads';
import { leadPaths } from '../../contract/paths';
import { addDays, type TeamReport } from '../../contract/reports';
import { leadTables } from '../../../db/schema';
import { contactSubmission, demoRequest, getStartedRequest, signInNewStaff, type StaffSignIn, supportTicket } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';
import { visitorCookie } from '../../../test/support/visitor-socket';

let counter = 0;
const next = () => (counter += 1);

type Line = { at: string } & ({ by: 'visitor' } | { by: 'staff'; staffId: number | null });

describe('reports', async () => {
  const { app } = await buildTestServer();
  const anna = await signInNewStaff(app);
  const ben = await signInNewStaff(app);
  const staffIdOf = async (staff: StaffSignIn) =>
    (await app.db.selectFrom('sessions').select('adminId').where('sid', '=', staff.sid).executeTakeFirstOrThrow()).adminId!;
  const annaId = await staffIdOf(anna);
  const benId = await staffIdOf(ben);
  await app.db.updateTable('admins').set({ displayName: 'Anna' }).where('id', '=', annaId).execute();
  await app.db.updateTable('admins').set({ displayName: 'Ben' }).where('id', '=', benId).execute();

  const report = (query: string, cookie: string | null = anna.cookie) =>
    app.inject({ method: 'GET', url: `/api/reports${query}`, headers: cookie ? { cookie } : {} });
  const reportOf = async (query: string) => {
    const answer = await report(query);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<TeamReport>();
  };

  /** A conversation as stored, with its messages in order (seq 1, 2, ...). */
  const conversation = async (
    startedAt: string,
    lines: Line[],
    end: { status?: 'open' | 'resolved'; resolvedAt?: string; resolvedBy?: number; rating?: 'good' | 'bad' } = {},
  ) => {
    const id = `session_report_${next()}`;
    await app.db
      .insertInto('chatSessions')
      .values({
        id,
        visitorId: `visitor_${id}`,
        status: end.status ?? 'open',
        pageUrl: null,
        referrer: null,
        userAgent: null,
        senderEmail: null,
        timeZone: null,
        lastSeq: lines.length,
        lastMessageAt: lines.at(-1)?.at ?? startedAt,
        createdAt: startedAt,
        rating: end.rating ?? null,
        resolvedAt: end.resolvedAt ?? null,
        resolvedByStaffId: end.resolvedBy ?? null,
      })
      .execute();
    for (const [index, line] of lines.entries()) {
      await app.db
        .insertInto('chatMessages')
        .values({
          sessionId: id,
          message: `line ${index + 1}`,
          senderEmail: null,
          senderName: null,
          isFromUser: line.by === 'visitor' ? 1 : 0,
          kind: line.by,
          authorStaffId: line.by === 'staff' ? line.staffId : null,
          seq: index + 1,
          clientId: null,
          createdAt: line.at,
        })
        .execute();
    }
    return id;
  };
  const visitor = (at: string): Line => ({ by: 'visitor', at });
  const staff = (staffId: number | null, at: string): Line => ({ by: 'staff', staffId, at });

  const inputs: Record<LeadKind, () => object> = { contact: contactSubmission, support: supportTicket, demo: demoRequest, 'get-started': getStartedRequest };
  /** A lead sent through its real form, then dated `at`. */
  const lead = async (kind: LeadKind, at: string) => {
    const sent = await app.inject({ method: 'POST', url: leadPaths[kind].create, payload: inputs[kind](), remoteAddress: `10.41.0.${next()}` });
    expect(sent.statusCode).toBe(201);
    await app.db.updateTable(leadTables[kind] as 'contactSubmissions').set({ createdAt: at }).where('id', '=', sent.json<{ id: number }>().id).execute();
  };

  it('is for any staff member, agents too, and refuses a range it cannot read', async () => {
    expect((await report('', null)).statusCode).toBe(401);
    expect((await app.db.selectFrom('admins').select('role').where('id', '=', annaId).executeTakeFirstOrThrow()).role).toBe('agent');
    expect((await report('')).statusCode).toBe(200);
    for (const query of ['?from=2026-02-30&to=2026-03-01', '?from=2026-3-1', '?from=2026-04-08&to=2026-04-01', '?from=2025-01-01&to=2026-01-02', '?from=2020-01-01']) {
      const refused = await report(query);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json<{ message: string }>().message).toBeTruthy();
    }
    // 366 days is the most, both ends counted.
    expect((await report('?from=2025-01-01&to=2026-01-01')).statusCode).toBe(200);
  });

  it('answers zeros for a range with nothing in it, every day and week listed', async () => {
    expect(await reportOf('?from=2025-01-01&to=2025-01-03')).toEqual({
      from: '2025-01-01',
      to: '2025-01-03',
      conversationsPerDay: [
        { day: '2025-01-01', conversations: 0 },
        { day: '2025-01-02', conversations: 0 },
        { day: '2025-01-03', conversations: 0 },
      ],
      agents: [],
      team: {
        firstResponse: { count: 0, medianSeconds: null, p90Seconds: null },
        resolution: { count: 0, medianSeconds: null, p90Seconds: null },
      },
      ratings: { good: 0, bad: 0 },
      leadsPerWeek: [{ weekStart: '2024-12-30', contact: 0, support: 0, demo: 0, getStarted: 0 }],
    });
  });

  it('covers the last 30 days, today included, when no range is given', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const shown = await reportOf('');
    expect([shown.from, shown.to]).toEqual([addDays(today, -29), today]);
    expect(shown.conversationsPerDay).toHaveLength(30);
    expect((await reportOf(`?to=${today}`)).from).toBe(addDays(today, -29));
  });

  it('counts, ranks and shares what happened in the range, by UTC day, by agent and by week', async () => {
    // Anna answers in 60 s, Anna resolves at 30 min; rated good.
    await conversation('2026-04-01T10:00:00.000Z', [visitor('2026-04-01T10:00:00.000Z'), staff(annaId, '2026-04-01T10:01:00.000Z')], {
      status: 'resolved',
      resolvedAt: '2026-04-01T10:30:00.000Z',
      resolvedBy: annaId,
      rating: 'good',
    });
    // From the visitor's first message, not their second: Anna in 120 s; Ben's later reply is no first response. Ben resolves at 1 h; rated bad.
    await conversation(
      '2026-04-01T12:00:00.000Z',
      [visitor('2026-04-01T12:00:00.000Z'), visitor('2026-04-01T12:00:30.000Z'), staff(annaId, '2026-04-01T12:02:00.000Z'), staff(benId, '2026-04-01T12:03:00.000Z')],
      { status: 'resolved', resolvedAt: '2026-04-01T13:00:00.000Z', resolvedBy: benId, rating: 'bad' },
    );
    // Ben's greeting before the visitor wrote is no response: his reply 300 s after it is. Anna resolves at 2 h.
    await conversation(
      '2026-04-03T09:00:00.000Z',
      [staff(benId, '2026-04-03T09:00:00.000Z'), visitor('2026-04-03T09:00:10.000Z'), staff(benId, '2026-04-03T09:05:10.000Z')],
      { status: 'resolved', resolvedAt: '2026-04-03T11:00:00.000Z', resolvedBy: annaId, rating: 'good' },
    );
    // Never answered.
    await conversation('2026-04-05T15:00:00.000Z', [visitor('2026-04-05T15:00:00.000Z')]);
    // Anna in 600 s; resolved once, then reopened: no resolution counted.
    await conversation('2026-04-06T08:00:00.000Z', [visitor('2026-04-06T08:00:00.000Z'), staff(annaId, '2026-04-06T08:10:00.000Z')], {
      status: 'open',
      resolvedAt: '2026-04-06T09:00:00.000Z',
      resolvedBy: annaId,
    });
    // A reply whose author's account is gone: 30 s, for former staff.
    await conversation('2026-04-07T23:59:00.000Z', [visitor('2026-04-07T23:59:00.000Z'), staff(null, '2026-04-07T23:59:30.000Z')]);
    // Outside the range on either side.
    await conversation('2026-03-31T23:59:59.999Z', [visitor('2026-03-31T23:59:59.999Z'), staff(benId, '2026-04-01T00:00:05.000Z')], { rating: 'bad' });
    await conversation('2026-04-08T00:00:00.000Z', [visitor('2026-04-08T00:00:00.000Z'), staff(benId, '2026-04-08T00:00:05.000Z')], { rating: 'good' });

    await lead('contact', '2026-04-01T00:00:00.000Z');
    await lead('support', '2026-04-02T10:00:00.000Z');
    await lead('contact', '2026-04-05T23:59:59.999Z');
    await lead('demo', '2026-04-06T12:00:00.000Z');
    await lead('get-started', '2026-04-07T01:00:00.000Z');
    await lead('support', '2026-03-31T23:00:00.000Z');
    await lead('support', '2026-04-08T00:00:00.000Z');

    const shown = await reportOf('?from=2026-04-01&to=2026-04-07');
    expect(shown.conversationsPerDay).toEqual([
      { day: '2026-04-01', conversations: 2 },
      { day: '2026-04-02', conversations: 0 },
      { day: '2026-04-03', conversations: 1 },
      { day: '2026-04-04', conversations: 0 },
      { day: '2026-04-05', conversations: 1 },
      { day: '2026-04-06', conversations: 1 },
      { day: '2026-04-07', conversations: 1 },
    ]);
    expect(shown.agents).toEqual([
      // First responses 60, 120, 600: median 120, p90 120 + 0.8 x 480. Resolutions 1800, 7200: median 4500, p90 1800 + 0.9 x 5400.
      { staffId: annaId, name: 'Anna', firstResponse: { count: 3, medianSeconds: 120, p90Seconds: 504 }, resolution: { count: 2, medianSeconds: 4500, p90Seconds: 6660 } },
      { staffId: benId, name: 'Ben', firstResponse: { count: 1, medianSeconds: 300, p90Seconds: 300 }, resolution: { count: 1, medianSeconds: 3600, p90Seconds: 3600 } },
      { staffId: null, name: 'Former staff', firstResponse: { count: 1, medianSeconds: 30, p90Seconds: 30 }, resolution: { count: 0, medianSeconds: null, p90Seconds: null } },
    ]);
    // Team: 30, 60, 120, 300, 600 (p90 300 + 0.6 x 300); 1800, 3600, 7200 (p90 3600 + 0.8 x 3600).
    expect(shown.team).toEqual({
      firstResponse: { count: 5, medianSeconds: 120, p90Seconds: 480 },
      resolution: { count: 3, medianSeconds: 3600, p90Seconds: 6480 },
    });
    expect(shown.ratings).toEqual({ good: 2, bad: 1 });
    expect(shown.leadsPerWeek).toEqual([
      { weekStart: '2026-03-30', contact: 2, support: 1, demo: 0, getStarted: 0 },
      { weekStart: '2026-04-06', contact: 0, support: 0, demo: 1, getStarted: 1 },
    ]);

    // One day of it: Anna's two conversations and the contact lead.
    const day = await reportOf('?from=2026-04-01&to=2026-04-01');
    expect(day.agents.map((agent) => [agent.name, agent.firstResponse.count, agent.resolution.count])).toEqual([
      ['Anna', 2, 1],
      ['Ben', 0, 1],
    ]);
    expect(day.ratings).toEqual({ good: 1, bad: 1 });
    expect(day.leadsPerWeek).toEqual([{ weekStart: '2026-03-30', contact: 1, support: 0, demo: 0, getStarted: 0 }]);
  });

  it('records when and by whom a conversation was resolved, keeps it through a second resolve, and takes it anew after a reopen', async () => {
    const sessionId = `session_resolve_${next()}`;
    expect(
      (await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie: visitorCookie(app) }, payload: { sessionId, message: 'Hello' } })).statusCode,
    ).toBe(201);
    const patch = (staffMember: StaffSignIn, status: 'open' | 'resolved') =>
      app.inject({ method: 'PATCH', url: `/api/chat-sessions/${sessionId}`, headers: { cookie: staffMember.cookie, origin: 'http://localhost:3000' }, payload: { status } });
    const stored = () => app.db.selectFrom('chatSessions').select(['resolvedAt', 'resolvedByStaffId']).where('id', '=', sessionId).executeTakeFirstOrThrow();

    expect(await stored()).toEqual({ resolvedAt: null, resolvedByStaffId: null });
    const before = new Date().toISOString();
    expect((await patch(anna, 'resolved')).statusCode).toBe(200);
    const first = await stored();
    expect(first.resolvedByStaffId).toBe(annaId);
    expect(first.resolvedAt! >= before && first.resolvedAt! <= new Date().toISOString()).toBe(true);

    expect((await patch(ben, 'resolved')).statusCode).toBe(200);
    expect(await stored()).toEqual(first);

    expect((await patch(ben, 'open')).statusCode).toBe(200);
    expect(await stored()).toEqual(first);
    expect((await patch(ben, 'resolved')).statusCode).toBe(200);
    const again = await stored();
    expect(again.resolvedByStaffId).toBe(benId);
    expect(again.resolvedAt! >= first.resolvedAt!).toBe(true);
  });
});
