// @scaled: assignment statements lock rows (FOR UPDATE) on PostgreSQL
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatSessionSummary } from '../../../contract/chat';
import type { AdminCounts, Lead } from '../../../contract/leads';
import { apiPaths, leadPaths, pathTo } from '../../../contract/paths';
import { contactSubmission, signInNewStaff, signInStaff, staffEnv, type StaffSignIn } from '../../../../test/support/factories';
import { buildTestServer } from '../../../../test/support/helper';
import { closeClients, collect, nextEvent } from '../../../../test/support/sockets';
import { connectStaffSocket } from '../../../../test/support/staff-socket';
import { visitorCookie } from '../../../../test/support/visitor-socket';

afterEach(() => closeClients());

let sessionCounter = 0;
const newSessionId = () => `session_${Date.now()}_assign${(sessionCounter += 1)}`;

/** Assignment by hand (DESIGN.md 11): chat sessions and leads, the lists' filters and counts, pushes and the audit log. */
describe('assignment', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { listen: true });
  const admin = await signInStaff(app);
  const dana = await signInNewStaff(app);
  const lee = await signInNewStaff(app);
  const idOf = async (staff: StaffSignIn): Promise<number> =>
    (await app.inject({ method: 'GET', url: apiPaths.assignees, headers: { cookie: staff.cookie } })).json<{ me: number }>().me;
  const [adminId, danaId, leeId] = [await idOf(admin), await idOf(dana), await idOf(lee)];

  const startChat = async (message = 'Hello, is the lot open?') => {
    const sessionId = newSessionId();
    const sent = await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie: visitorCookie(app) }, payload: { sessionId, message } });
    expect(sent.statusCode).toBe(201);
    return sessionId;
  };
  const assignChat = (staff: StaffSignIn, sessionId: string, assigneeId: unknown) =>
    app.inject({ method: 'PUT', url: pathTo(apiPaths.chatSessionAssignee, { sessionId }), headers: { cookie: staff.cookie }, payload: { assigneeId } });
  const get = <T>(staff: StaffSignIn, url: string) => app.inject({ method: 'GET', url, headers: { cookie: staff.cookie } }).then((answer) => answer.json<T>());
  const auditOf = (subjectId: string | number) =>
    app.db.selectFrom('auditLog').select(['actorId', 'action', 'subjectKind', 'detail']).where('subjectId', '=', String(subjectId)).orderBy('id').execute();

  it('lists every staff member for the picker, by display name, and says who asks', async () => {
    const answer = await get<{ me: number; staff: { id: number; name: string; role: string }[] }>(dana, apiPaths.assignees);
    expect(answer.me).toBe(danaId);
    expect(answer.staff.map((member) => member.id)).toEqual(expect.arrayContaining([adminId, danaId, leeId]));
    expect(answer.staff.find((member) => member.id === adminId)).toMatchObject({ name: 'staff', role: 'admin' });
    expect(answer.staff.find((member) => member.id === danaId)?.role).toBe('agent');
  });

  it('assigns a conversation to me, reassigns and unassigns it: each change pushed to another staff screen and audited', async () => {
    const sessionId = await startChat();
    const watcher = await connectStaffSocket(app, lee.cookie);
    const pushes = collect<ChatSessionSummary>(watcher, 'chat-session:updated');

    const mine = await assignChat(dana, sessionId, danaId);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ id: sessionId, assigneeId: danaId, assigneeName: expect.stringMatching(/^staff\d+$/) });
    await expect.poll(() => pushes.at(-1)?.assigneeId).toBe(danaId);

    expect((await assignChat(dana, sessionId, leeId)).json().assigneeId).toBe(leeId);
    await expect.poll(() => pushes.at(-1)?.assigneeId).toBe(leeId);

    const none = await assignChat(lee, sessionId, null);
    expect(none.json()).toMatchObject({ assigneeId: null, assigneeName: null });
    await expect.poll(() => pushes.at(-1)?.assigneeId).toBe(null);
    expect(pushes.every((push) => push.id === sessionId)).toBe(true);
    expect(pushes.map((push) => push.version)).toEqual([...pushes.map((push) => push.version)].sort((a, b) => a - b));

    expect(await auditOf(sessionId)).toEqual([
      { actorId: danaId, action: 'chat.assigned', subjectKind: 'chat', detail: `assignee: ${danaId}` },
      { actorId: danaId, action: 'chat.assigned', subjectKind: 'chat', detail: `assignee: ${leeId}` },
      { actorId: leeId, action: 'chat.assigned', subjectKind: 'chat', detail: 'unassigned' },
    ]);
    // The row as any list reads it carries the assignee too.
    await assignChat(dana, sessionId, danaId);
    expect(await get<ChatSessionSummary>(lee, pathTo(apiPaths.chatSession, { sessionId }))).toMatchObject({ assigneeId: danaId, assigneeName: expect.any(String) });
  });

  it('changes nothing, pushes nothing and records nothing when the conversation already has that assignee', async () => {
    const sessionId = await startChat();
    await assignChat(dana, sessionId, danaId);
    const watcher = await connectStaffSocket(app, lee.cookie);
    const pushes = collect<ChatSessionSummary>(watcher, 'chat-session:updated');
    expect((await assignChat(dana, sessionId, danaId)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pushes).toEqual([]);
    expect(await auditOf(sessionId)).toHaveLength(1);
  });

  it('refuses an unknown staff id or a bad body with a 400, an unknown conversation with a 404, and anyone signed out with a 401, changing nothing', async () => {
    const sessionId = await startChat();
    const unknown = await assignChat(dana, sessionId, 999_999);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('No such staff member');
    for (const body of [{ assigneeId: 'dana' }, { assigneeId: -1 }, {}, { assigneeId: danaId, extra: 1 }]) {
      const answer = await app.inject({ method: 'PUT', url: pathTo(apiPaths.chatSessionAssignee, { sessionId }), headers: { cookie: dana.cookie }, payload: body });
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await assignChat(dana, 'session_nobody_has_this', danaId)).statusCode).toBe(404);
    const signedOut = await app.inject({ method: 'PUT', url: pathTo(apiPaths.chatSessionAssignee, { sessionId }), payload: { assigneeId: danaId } });
    expect(signedOut.statusCode).toBe(401);
    expect((await get<ChatSessionSummary>(dana, pathTo(apiPaths.chatSession, { sessionId }))).assigneeId).toBeNull();
    expect(await auditOf(sessionId)).toEqual([]);
  });

  it('gives a lead to a staff member and back to nobody: pushed as lead:updated with the name, audited; a 400 and a 404 change nothing', async () => {
    const created = await app.inject({ method: 'POST', url: leadPaths.contact.create, payload: contactSubmission({ email: 'assign@lead.example' }) });
    const { id } = created.json<Lead>();
    const watcher = await connectStaffSocket(app, lee.cookie);
    const pushed = nextEvent(watcher, 'lead:updated');
    const assign = (assigneeId: unknown, leadId = id) =>
      app.inject({ method: 'PUT', url: pathTo(apiPaths.leadAssignee, { kind: 'contact', id: leadId }), headers: { cookie: dana.cookie }, payload: { assigneeId } });

    const given = await assign(danaId);
    expect(given.statusCode).toBe(200);
    expect(given.json()).toMatchObject({ id, assigneeId: danaId, assigneeName: expect.stringMatching(/^staff\d+$/), email: 'assign@lead.example' });
    expect(await pushed).toMatchObject({ kind: 'contact', item: { id, assigneeId: danaId, assigneeName: given.json().assigneeName } });
    // A status change afterwards keeps the name in its push.
    const statusPush = nextEvent(watcher, 'lead:updated');
    await app.inject({ method: 'PATCH', url: pathTo(apiPaths.lead, { kind: 'contact', id }), headers: { cookie: dana.cookie }, payload: { status: 'contacted' } });
    expect((await statusPush).item).toMatchObject({ status: 'contacted', assigneeId: danaId, assigneeName: given.json().assigneeName });

    expect((await assign(999_999)).statusCode).toBe(400);
    expect((await assign(danaId, 999_999)).statusCode).toBe(404);
    expect((await assign(null)).json()).toMatchObject({ assigneeId: null, assigneeName: null });
    expect(await auditOf(id)).toEqual([
      { actorId: danaId, action: 'lead.assigned', subjectKind: 'lead:contact', detail: `assignee: ${danaId}` },
      { actorId: danaId, action: 'lead.assigned', subjectKind: 'lead:contact', detail: 'unassigned' },
    ]);
  });
});

describe('Mine / Unassigned / All', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  const dana = await signInNewStaff(app);
  const lee = await signInNewStaff(app);
  const idOf = async (staff: StaffSignIn): Promise<number> =>
    (await app.inject({ method: 'GET', url: apiPaths.assignees, headers: { cookie: staff.cookie } })).json<{ me: number }>().me;
  const [danaId, leeId] = [await idOf(dana), await idOf(lee)];
  const get = (staff: StaffSignIn, url: string) => app.inject({ method: 'GET', url, headers: { cookie: staff.cookie } });

  // Dana has one conversation and one contact lead, Lee one of each, and one of each is nobody's.
  const chats: Record<'dana' | 'lee' | 'nobody', string> = { dana: newSessionId(), lee: newSessionId(), nobody: newSessionId() };
  const leads: Record<'dana' | 'lee' | 'nobody', number> = { dana: 0, lee: 0, nobody: 0 };
  for (const [who, sessionId] of Object.entries(chats) as ['dana' | 'lee' | 'nobody', string][]) {
    await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie: visitorCookie(app) }, payload: { sessionId, message: `Hi from ${who}'s visitor` } });
    const lead = await app.inject({ method: 'POST', url: leadPaths.contact.create, payload: contactSubmission({ name: `Lead of ${who}` }) });
    leads[who] = lead.json<Lead>().id;
    const assigneeId = who === 'dana' ? danaId : who === 'lee' ? leeId : undefined;
    if (assigneeId === undefined) continue;
    await app.inject({ method: 'PUT', url: pathTo(apiPaths.chatSessionAssignee, { sessionId }), headers: { cookie: dana.cookie }, payload: { assigneeId } });
    await app.inject({ method: 'PUT', url: pathTo(apiPaths.leadAssignee, { kind: 'contact', id: leads[who] }), headers: { cookie: dana.cookie }, payload: { assigneeId } });
  }
  // Dana read hers: her only unread conversation is gone from the badge of Mine, not from Lee's.
  await app.inject({ method: 'PATCH', url: pathTo(apiPaths.chatSession, { sessionId: chats.dana }), headers: { cookie: dana.cookie }, payload: { read: true } });

  it('shows each staff member their own conversations under Mine, nobody\'s under Unassigned, every one under All', async () => {
    const ids = async (staff: StaffSignIn, assignee?: string) =>
      (await get(staff, `${apiPaths.chatSessions}${assignee ? `?assignee=${assignee}` : ''}`)).json<ChatSessionSummary[]>().map((row) => row.id);
    expect(await ids(dana, 'mine')).toEqual([chats.dana]);
    expect(await ids(lee, 'mine')).toEqual([chats.lee]);
    expect(await ids(dana, 'unassigned')).toEqual([chats.nobody]);
    expect((await ids(dana, 'all')).sort()).toEqual(Object.values(chats).sort());
    expect((await ids(dana)).sort()).toEqual(Object.values(chats).sort());
    // With a status and a search too.
    expect(await ids(lee, 'mine&status=open&q=lee')).toEqual([chats.lee]);
    expect(await ids(lee, 'mine&status=resolved')).toEqual([]);
  });

  it('filters each lead list the same way', async () => {
    const names = async (staff: StaffSignIn, assignee: string) =>
      (await get(staff, `${leadPaths.contact.list}?assignee=${assignee}`)).json<(Lead & { name: string })[]>().map((row) => row.name);
    expect(await names(dana, 'mine')).toEqual(['Lead of dana']);
    expect(await names(lee, 'mine')).toEqual(['Lead of lee']);
    expect(await names(lee, 'unassigned')).toEqual(['Lead of nobody']);
    expect(await names(lee, 'all')).toHaveLength(3);
    const rows = (await get(lee, `${leadPaths.contact.list}?assignee=all`)).json<Lead[]>();
    expect(rows.find((row) => row.id === leads.dana)?.assigneeName).toMatch(/^staff\d+$/);
    expect(rows.find((row) => row.id === leads.nobody)?.assigneeName).toBeNull();
    // The CSV export keeps its columns.
    const csv = await get(lee, `${leadPaths.contact.list}?format=csv&assignee=mine`);
    expect(csv.body.replace(/^\uFEFF/, '').split('\r\n')[0]).not.toContain('assignee');
    expect(csv.body).toContain('Lead of lee');
    expect(csv.body).not.toContain('Lead of dana');
  });

  it('counts what each filter shows, the unread badge included', async () => {
    const counts = async (staff: StaffSignIn, assignee: string) => (await get(staff, `${apiPaths.adminCounts}?assignee=${assignee}`)).json<AdminCounts>();
    expect(await counts(dana, 'mine')).toMatchObject({ contact: 1, chatSessions: 1, unreadChats: 0, byStatus: { contact: { new: 1 }, chatSessions: { open: 1, resolved: 0 } } });
    expect(await counts(lee, 'mine')).toMatchObject({ contact: 1, chatSessions: 1, unreadChats: 1 });
    expect(await counts(lee, 'unassigned')).toMatchObject({ contact: 1, support: 0, chatSessions: 1, unreadChats: 1 });
    expect(await counts(lee, 'all')).toMatchObject({ contact: 3, chatSessions: 3, unreadChats: 2 });
    expect((await get(lee, apiPaths.adminCounts)).json<AdminCounts>()).toMatchObject({ contact: 3, chatSessions: 3, unreadChats: 2 });
  });

  it('refuses an unknown filter with a 400 naming it', async () => {
    for (const url of [`${apiPaths.chatSessions}?assignee=theirs`, `${leadPaths.demo.list}?assignee=`, `${apiPaths.adminCounts}?assignee=MINE`]) {
      const answer = await get(dana, url);
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json(), url).toEqual({ message: 'Validation failed', errors: { assignee: 'assignee must be mine, unassigned or all' } });
    }
  });
});
