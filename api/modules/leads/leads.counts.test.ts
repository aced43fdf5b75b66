// @scaled: counts by status in SQL per dialect, and the form rate limit in Redis
import { describe, expect, it } from 'vitest';
import type { LeadKind } from '../../contract/leads';
import { staffEnv, signInStaff, validInput } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';
import { nextCursorHeader } from '../../contract/leads';
import { leadPaths } from '../../contract/paths';

const kinds = Object.keys(leadPaths) as LeadKind[];

describe('status filter and counts by status', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  const cookie = (await signInStaff(app)).cookie;
  const staffGet = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  const ids = (response: { json: () => unknown }) => (response.json() as { id: number }[]).map((row) => row.id);

  // Per kind, oldest first: new, contacted, closed, new, closed, new; the last is searchable as "findme".
  const statusPlan = ['new', 'contacted', 'closed', 'new', 'closed', 'new'] as const;
  const createdByKind = {} as Record<LeadKind, { id: number; status: string }[]>;
  for (const kind of kinds) {
    createdByKind[kind] = [];
    for (const [index, status] of statusPlan.entries()) {
      const input = validInput[kind]();
      const tagged = index >= 3 ? { ...input, email: `findme${index}@example.com` } : input;
      const lead = (await app.inject({ method: 'POST', url: leadPaths[kind].create, payload: tagged })).json<{ id: number }>();
      if (status !== 'new') {
        await app.inject({ method: 'PATCH', url: `/api/leads/${kind}/${lead.id}`, headers: { cookie }, payload: { status } });
      }
      createdByKind[kind].push({ id: lead.id, status });
    }
  }
  const newestIdsOf = (kind: LeadKind, keep: (row: { id: number; status: string }, index: number) => boolean) =>
    createdByKind[kind].filter(keep).map((row) => row.id).reverse();

  it.each(kinds)('lists only the %s rows of a status, with q and keyset paging', async (kind) => {
    const list = leadPaths[kind].list;
    expect(ids(await staffGet(`${list}?status=new`))).toEqual(newestIdsOf(kind, (row) => row.status === 'new'));
    expect(ids(await staffGet(`${list}?status=contacted`))).toEqual(newestIdsOf(kind, (row) => row.status === 'contacted'));
    expect(ids(await staffGet(`${list}?status=closed&q=FINDME`))).toEqual(newestIdsOf(kind, (row, index) => row.status === 'closed' && index >= 3));

    const newest = newestIdsOf(kind, (row) => row.status === 'new');
    const first = await staffGet(`${list}?status=new&limit=2`);
    expect(ids(first)).toEqual(newest.slice(0, 2));
    const cursor = String(first.headers[nextCursorHeader]);
    expect(ids(await staffGet(`${list}?status=new&limit=2&before=${encodeURIComponent(cursor)}`))).toEqual(newest.slice(2));
  });

  it('exports only the rows of the status as CSV', async () => {
    const csv = await staffGet('/api/contact-submissions?format=csv&status=closed');
    const lines = csv.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines.slice(1).map((line) => Number(JSON.parse(line.split(',')[0]!)))).toEqual(newestIdsOf('contact', (row) => row.status === 'closed'));
    const searched = await staffGet('/api/contact-submissions?format=csv&status=new&q=findme');
    expect(searched.body.trimEnd().split('\r\n')).toHaveLength(1 + 2);
  });

  it.each(kinds)('answers a bad %s status with 400 naming the field', async (kind) => {
    const response = await staffGet(`${leadPaths[kind].list}?status=won`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Validation failed', errors: { status: 'status must be new, contacted or closed' } });
    expect((await staffGet(`${leadPaths[kind].list}?status=open`)).statusCode).toBe(400);
  });

  it('counts each list by status in SQL, beside the totals', async () => {
    const now = new Date().toISOString();
    await app.db
      .insertInto('chatSessions')
      .values([
        { id: 'session_open_0001', visitorId: 'v1', status: 'open', lastMessageAt: now, createdAt: now },
        { id: 'session_done_0001', visitorId: 'v2', status: 'resolved', lastMessageAt: now, createdAt: now },
        { id: 'session_done_0002', visitorId: 'v3', status: 'resolved', lastMessageAt: now, createdAt: now },
      ])
      .execute();
    const leadCounts = { new: 3, contacted: 1, closed: 2 };
    const response = await staffGet('/api/admin/counts');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      contact: 6,
      support: 6,
      demo: 6,
      getStarted: 6,
      chatSessions: 3,
      unreadChats: 0,
      byStatus: { contact: leadCounts, support: leadCounts, demo: leadCounts, getStarted: leadCounts, chatSessions: { open: 1, resolved: 2 } },
    });
  });

  it('counts a status no row has as 0', async () => {
    const { app: empty } = await buildTestServer(staffEnv);
    const emptyCookie = (await signInStaff(empty)).cookie;
    const response = await empty.inject({ method: 'GET', url: '/api/admin/counts', headers: { cookie: emptyCookie } });
    const none = { new: 0, contacted: 0, closed: 0 };
    expect(response.json().byStatus).toEqual({ contact: none, support: none, demo: none, getStarted: none, chatSessions: { open: 0, resolved: 0 } });
  });
});

describe('form rate limit', async () => {
  const { app } = await buildTestServer();

  it('answers 429 with a clear message after 20 posts a minute from one IP, and counts IPs apart', async () => {
    const post = (remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/demo-request', payload: validInput.demo(), remoteAddress });
    for (let i = 0; i < 20; i += 1) expect((await post('10.0.0.1')).statusCode).toBe(201);
    const refused = await post('10.0.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many requests: please wait \d+ seconds and try again$/);
    expect((await post('10.0.0.2')).statusCode).toBe(201);
  });
});
