// @scaled: assignment statements lock rows (FOR UPDATE) on PostgreSQL
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { AssigneesAnswer, AutoAssignmentSettings } from '../../../contract/assignment';
import { apiPaths, pathTo } from '../../../contract/paths';
import { signInNewStaff, signInStaff, staffEnv, type StaffSignIn } from '../../../../test/support/factories';
import { freshPostgresUrl, onPostgres } from '../../../../test/support/database';
import { buildTestServer } from '../../../../test/support/helper';
import { closeClients } from '../../../../test/support/sockets';
import { connectStaffSocket, type StaffClient } from '../../../../test/support/staff-socket';
import { visitorCookie } from '../../../../test/support/visitor-socket';
import { handOutQueue } from './chat.assignment';

afterEach(() => closeClients());

let sessionCounter = 0;
const newSessionId = () => `session_${Date.now()}_auto${(sessionCounter += 1)}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What each test of a server needs: starting conversations, seeing whose they are, the settings. */
function harness(app: FastifyInstance, admin: StaffSignIn) {
  const idOf = async (staff: StaffSignIn) => (await app.inject({ method: 'GET', url: apiPaths.assignees, headers: { cookie: staff.cookie } })).json<AssigneesAnswer>().me;
  const online = async () =>
    (await app.inject({ method: 'GET', url: apiPaths.assignees, headers: { cookie: admin.cookie } })).json<AssigneesAnswer>().staff.filter((member) => member.online).map((member) => member.id);
  return {
    idOf,
    /** Connects their dashboard and waits until presence has them online. */
    async comeOnline(staff: StaffSignIn, node = app): Promise<StaffClient> {
      const socket = await connectStaffSocket(node, staff.cookie);
      const id = await idOf(staff);
      await expect.poll(online).toContain(id);
      return socket;
    },
    async startChat(node = app): Promise<string> {
      const sessionId = newSessionId();
      const sent = await node.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie: visitorCookie(node) }, payload: { sessionId, message: 'Do you have the red truck?' } });
      expect(sent.statusCode).toBe(201);
      return sessionId;
    },
    assigneeOf: async (sessionId: string) =>
      (await app.db.selectFrom('chatSessions').select('assigneeId').where('id', '=', sessionId).executeTakeFirstOrThrow()).assigneeId,
    setAuto: async (settings: AutoAssignmentSettings) => {
      const answer = await app.inject({ method: 'PUT', url: apiPaths.autoAssignmentSettings, headers: { cookie: admin.cookie }, payload: settings });
      expect(answer.statusCode).toBe(200);
    },
    resolve: async (sessionId: string, node = app) => {
      const answer = await node.inject({ method: 'PATCH', url: pathTo(apiPaths.chatSession, { sessionId }), headers: { cookie: admin.cookie }, payload: { status: 'resolved' } });
      expect(answer.statusCode).toBe(200);
    },
    /** Every job of auto-assignment has run. */
    settled: () =>
      expect
        .poll(async () => (await app.db.selectFrom('jobs').select('state').where('kind', '=', 'chat-auto-assignment').execute()).every((job) => job.state === 'done'))
        .toBe(true),
  };
}

describe('auto-assignment settings', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  const admin = await signInStaff(app);
  const agent = await signInNewStaff(app);
  const settingsCall = (staff: StaffSignIn | undefined, method: 'GET' | 'PUT', payload?: object) =>
    app.inject({ method, url: apiPaths.autoAssignmentSettings, headers: staff ? { cookie: staff.cookie } : {}, ...(payload ? { payload } : {}) });

  it('is off with a capacity of 5 until an admin turns it on; the change is audited, a repeat is not', async () => {
    expect((await settingsCall(admin, 'GET')).json()).toEqual({ enabled: false, capacity: 5 });
    const saved = await settingsCall(admin, 'PUT', { enabled: true, capacity: 3 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ enabled: true, capacity: 3 });
    expect((await settingsCall(admin, 'GET')).json()).toEqual({ enabled: true, capacity: 3 });
    await settingsCall(admin, 'PUT', { enabled: true, capacity: 3 });
    const audit = await app.db.selectFrom('auditLog').select(['actorId', 'action', 'subjectKind', 'subjectId', 'detail']).where('action', '=', 'settings.changed').execute();
    expect(audit).toEqual([{ actorId: expect.any(Number), action: 'settings.changed', subjectKind: 'settings', subjectId: 'auto-assignment', detail: 'auto-assignment: on, capacity 3' }]);
  });

  it('is for admins only: 403 to an agent, 401 signed out; bad values are a 400 naming the field, and nothing changes', async () => {
    expect((await settingsCall(agent, 'GET')).statusCode).toBe(403);
    expect((await settingsCall(agent, 'PUT', { enabled: false, capacity: 5 })).json()).toEqual({ message: 'Only admins can do this' });
    expect((await settingsCall(undefined, 'PUT', { enabled: false, capacity: 5 })).statusCode).toBe(401);
    for (const body of [{ enabled: true, capacity: 0 }, { enabled: true, capacity: 51 }, { enabled: true, capacity: 2.5 }, { enabled: 'yes', capacity: 5 }, { enabled: true }]) {
      const answer = await settingsCall(admin, 'PUT', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await settingsCall(admin, 'PUT', { enabled: true, capacity: 0 })).json().errors).toEqual({ capacity: 'capacity must be a whole number from 1 to 50' });
    expect((await settingsCall(admin, 'GET')).json()).toEqual({ enabled: true, capacity: 3 });
  });
});

describe('auto-assignment', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RATE_LIMIT_ALLOWLIST: '127.0.0.1', JOBS_POLL_MS: '50' }, { listen: true });
  const admin = await signInStaff(app);
  const h = harness(app, admin);
  /** Each test starts from an inbox with nothing open, auto-assignment off. */
  const freshInbox = async () => {
    await h.setAuto({ enabled: false, capacity: 5 });
    await app.db.updateTable('chatSessions').set({ status: 'resolved' }).execute();
  };

  it('leaves new conversations unassigned while it is off', async () => {
    await freshInbox();
    await h.comeOnline(await signInNewStaff(app));
    const sessionId = await h.startChat();
    await h.settled();
    expect(await h.assigneeOf(sessionId)).toBeNull();
  });

  it('makes no job for a new conversation while it is off, and one while it is on', async () => {
    const jobsOf = async (sessionId: string) =>
      (await app.db.selectFrom('jobs').select('dedupeKey').where('kind', '=', 'chat-auto-assignment').execute()).filter((job) => job.dedupeKey?.endsWith(sessionId));
    await freshInbox();
    const off = await h.startChat();
    expect(await jobsOf(off)).toEqual([]);
    await h.setAuto({ enabled: true, capacity: 5 });
    const on = await h.startChat();
    expect(await jobsOf(on)).toHaveLength(1);
    await h.setAuto({ enabled: false, capacity: 5 });
    expect(await jobsOf(await h.startChat())).toEqual([]);
  });

  it('gives a new conversation to the online agent with the fewest open, round-robin among equals, never to one offline', async () => {
    await freshInbox();
    const [ana, ben, offline] = [await signInNewStaff(app), await signInNewStaff(app), await signInNewStaff(app)];
    const [anaId, benId] = [await h.idOf(ana), await h.idOf(ben)];
    await h.comeOnline(ana);
    await h.comeOnline(ben);
    // Ana has one already, given by hand.
    const handed = await h.startChat();
    await app.inject({ method: 'PUT', url: pathTo(apiPaths.chatSessionAssignee, { sessionId: handed }), headers: { cookie: admin.cookie }, payload: { assigneeId: anaId } });
    await h.setAuto({ enabled: true, capacity: 5 });

    const given: (number | null)[] = [];
    for (let i = 0; i < 5; i += 1) {
      const sessionId = await h.startChat();
      await expect.poll(() => h.assigneeOf(sessionId)).not.toBeNull();
      given.push(await h.assigneeOf(sessionId));
    }
    // Ben had fewer; then 1-1: Ana was given one longest ago; then they alternate.
    expect(given).toEqual([benId, anaId, benId, anaId, benId]);
    expect(given).not.toContain(await h.idOf(offline));
    const audit = await app.db.selectFrom('auditLog').select(['actorId', 'detail']).where('action', '=', 'chat.assigned').where('detail', 'like', '%(auto)').execute();
    expect(audit.slice(-5)).toEqual(given.map((id) => ({ actorId: null, detail: `assignee: ${id} (auto)` })));
  });

  it('never goes above capacity: the rest wait, oldest first, and are handed out as a conversation is resolved, an agent comes online or capacity rises', async () => {
    await freshInbox();
    const [ana, ben, cal] = [await signInNewStaff(app), await signInNewStaff(app), await signInNewStaff(app)];
    const [anaId, benId, calId] = [await h.idOf(ana), await h.idOf(ben), await h.idOf(cal)];
    await h.comeOnline(ana);
    await h.comeOnline(ben);
    await h.setAuto({ enabled: true, capacity: 1 });
    const first = await h.startChat();
    const second = await h.startChat();
    const waiting: string[] = [];
    for (let i = 0; i < 4; i += 1) waiting.push(await h.startChat());
    await h.settled();
    expect(new Set([await h.assigneeOf(first), await h.assigneeOf(second)])).toEqual(new Set([anaId, benId]));
    for (const sessionId of waiting) expect(await h.assigneeOf(sessionId)).toBeNull();

    // Resolved: its agent has room, and the oldest waiting is theirs.
    const anasFirst = (await h.assigneeOf(first)) === anaId ? first : second;
    await h.resolve(anasFirst);
    await expect.poll(() => h.assigneeOf(waiting[0]!)).toBe(anaId);
    expect(await h.assigneeOf(waiting[1]!)).toBeNull();

    // Cal comes online: the next oldest is his.
    await h.comeOnline(cal);
    await expect.poll(() => h.assigneeOf(waiting[1]!)).toBe(calId);

    // Capacity 2: one more each, oldest first, and nothing is left.
    await h.setAuto({ enabled: true, capacity: 2 });
    await expect.poll(async () => Promise.all([h.assigneeOf(waiting[2]!), h.assigneeOf(waiting[3]!)])).not.toContain(null);
    const open = await app.db.selectFrom('chatSessions').select(['assigneeId']).where('status', '=', 'open').execute();
    const perAgent = new Map<number | null, number>();
    for (const row of open) perAgent.set(row.assigneeId, (perAgent.get(row.assigneeId) ?? 0) + 1);
    expect(Math.max(...perAgent.values())).toBeLessThanOrEqual(2);
    expect(perAgent.get(null)).toBeUndefined();
  });

  it('gives nothing when no agent is online: the conversation waits for the first who comes', async () => {
    await freshInbox();
    await h.setAuto({ enabled: true, capacity: 5 });
    const sessionId = await h.startChat();
    await h.settled();
    expect(await h.assigneeOf(sessionId)).toBeNull();
    const late = await signInNewStaff(app);
    await h.comeOnline(late);
    await expect.poll(() => h.assigneeOf(sessionId)).toBe(await h.idOf(late));
  });
});

const redisUrl = inject('redisUrl') as string | undefined;

/**
 * Two nodes on one PostgreSQL and one Redis: many conversations started at once on both, and both
 * nodes handing out the queue at the same time. None is given twice, nobody goes above capacity.
 */
describe.runIf(onPostgres && redisUrl)('auto-assignment on two nodes', async () => {
  // A skipped block's body still runs to collect its tests: it builds nothing without PostgreSQL.
  if (!onPostgres || !redisUrl) return;
  const shared = { ...staffEnv, DATABASE_URL: await freshPostgresUrl(), REDIS_KEY_PREFIX: `auto-${randomBytes(6).toString('hex')}:`, RATE_LIMIT_ALLOWLIST: '127.0.0.1', JOBS_POLL_MS: '50' };
  const a = (await buildTestServer(shared, { listen: true })).app;
  const b = (await buildTestServer(shared, { listen: true })).app;
  const admin = await signInStaff(a);
  const h = harness(a, admin);
  const capacity = 3;

  it('never gives one conversation twice nor an agent more than their capacity, however many start at once', async () => {
    const agents = [await signInNewStaff(a), await signInNewStaff(a), await signInNewStaff(a)];
    const agentIds = await Promise.all(agents.map(h.idOf));
    // Online on either node: presence is shared.
    await h.comeOnline(agents[0]!, a);
    await h.comeOnline(agents[1]!, b);
    await h.comeOnline(agents[2]!, a);
    await h.setAuto({ enabled: true, capacity });

    const started = await Promise.all(Array.from({ length: 30 }, (_, i) => h.startChat(i % 2 === 0 ? a : b)));
    // Both nodes hand out the queue at once, over and over, on top of the jobs.
    await Promise.all(Array.from({ length: 8 }, (_, i) => handOutQueue(i % 2 === 0 ? a : b, (i % 2 === 0 ? a : b).staffPresence)));
    await h.settled();
    await pause(200);

    const check = async () => {
      const rows = await a.db.selectFrom('chatSessions').select(['id', 'assigneeId']).where('id', 'in', started).where('status', '=', 'open').execute();
      const perAgent = new Map<number, number>();
      for (const row of rows) if (row.assigneeId !== null) perAgent.set(row.assigneeId, (perAgent.get(row.assigneeId) ?? 0) + 1);
      const audit = await a.db.selectFrom('auditLog').select('subjectId').where('action', '=', 'chat.assigned').where('actorId', 'is', null).execute();
      return { perAgent, assigned: rows.filter((row) => row.assigneeId !== null).length, audit: audit.map((entry) => entry.subjectId) };
    };
    const before = await check();
    expect([...before.perAgent.keys()].sort()).toEqual([...agentIds].sort());
    expect([...before.perAgent.values()]).toEqual([capacity, capacity, capacity]);
    // One audit entry per conversation given: none was given twice.
    expect(before.audit).toHaveLength(agents.length * capacity);
    expect(new Set(before.audit).size).toBe(before.audit.length);

    // Resolving on both nodes at once frees room, handed out as it frees, still never above capacity.
    const given = (await a.db.selectFrom('chatSessions').select(['id', 'assigneeId']).where('id', 'in', started).where('assigneeId', 'is not', null).execute()).slice(0, 4);
    await Promise.all([...given.map((row, i) => h.resolve(row.id, i % 2 === 0 ? a : b)), handOutQueue(b, b.staffPresence), handOutQueue(a, a.staffPresence)]);
    await h.settled();
    await expect.poll(async () => (await check()).assigned).toBe(agents.length * capacity);
    const after = await check();
    expect([...after.perAgent.values()]).toEqual([capacity, capacity, capacity]);
    expect(after.audit).toHaveLength(agents.length * capacity + given.length);
    expect(new Set(after.audit).size).toBe(after.audit.length);
  });

  it('hands out a conversation started on one node once the other turned it on, and makes none once it turned it off', async () => {
    // An inbox with nothing waiting, and one agent online on node b.
    await a.db.updateTable('chatSessions').set({ status: 'resolved' }).execute();
    await h.comeOnline(await signInNewStaff(a), b);
    const jobsOf = async (sessionId: string) =>
      (await a.db.selectFrom('jobs').select('dedupeKey').where('kind', '=', 'chat-auto-assignment').execute()).filter((job) => job.dedupeKey?.endsWith(sessionId));

    await h.setAuto({ enabled: true, capacity: 50 });
    const onB = await h.startChat(b);
    expect(await jobsOf(onB)).toHaveLength(1);
    await expect.poll(() => h.assigneeOf(onB), { timeout: 5000 }).not.toBeNull();
    await h.setAuto({ enabled: false, capacity: 50 });
    const offB = await h.startChat(b);
    expect(await jobsOf(offB)).toEqual([]);
    expect(await h.assigneeOf(offB)).toBeNull();
  });
});
