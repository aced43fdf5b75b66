// @scaled: date comparisons and deletes by a job, per dialect
import { beforeAll, describe, expect, it } from 'vitest';
import { type DeadJob, operationsPaths } from '../../contract/admin-operations';
import { pathTo } from '../../contract/paths';
import { buildTestServer } from '../../../test/support/helper';
import { personalData } from './personal-data';
import { contactSubmission, signInNewStaff, signInStaff, staffEnv, supportTicket } from '../../../test/support/factories';
import { visitorCookie } from '../../../test/support/visitor-socket';

const dayMs = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * dayMs).toISOString();

describe('retention: RETENTION_DAYS erases older chats and leads by a daily job', async () => {
  const { app } = await buildTestServer({ ...staffEnv, RETENTION_DAYS: '30' });

  it('erases the chats and leads last touched before it, keeps the rest, audits the counts with no actor', async () => {
    const post = async (url: string, payload: object) => (await app.inject({ method: 'POST', url, payload })).json<{ id: number }>();
    const oldLead = await post('/api/contact-submission', contactSubmission({ name: 'Old Olga' }));
    const oldTicket = await post('/api/support-ticket', supportTicket());
    const newLead = await post('/api/contact-submission', contactSubmission({ name: 'New Nina' }));
    for (const sessionId of ['session_retention_old', 'session_retention_new']) {
      const sent = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie: visitorCookie(app) }, payload: { sessionId, message: 'hello' } });
      expect(sent.statusCode).toBe(201);
    }
    await app.db.updateTable('contactSubmissions').set({ updatedAt: daysAgo(40) }).where('id', '=', oldLead.id).execute();
    await app.db.updateTable('supportTickets').set({ updatedAt: daysAgo(31) }).where('id', '=', oldTicket.id).execute();
    await app.db.updateTable('chatSessions').set({ lastMessageAt: daysAgo(45) }).where('id', '=', 'session_retention_old').execute();
    await app.db.insertInto('chatPageViews').values({ sessionId: 'session_retention_old', url: 'http://localhost:3000/', viewedAt: daysAgo(45) }).execute();

    // The daily job, due now (it waits a day from the start).
    const retention = () => app.db.selectFrom('jobs').selectAll().where('dedupeKey', '=', 'every:retention').executeTakeFirstOrThrow();
    expect((await retention()).runAt).toBeGreaterThan(Date.now() + dayMs - 60_000);
    await app.db.updateTable('jobs').set({ runAt: Date.now() }).where('dedupeKey', '=', 'every:retention').execute();
    await app.jobs.runDue();

    expect(await app.db.selectFrom('contactSubmissions').select('id').execute()).toEqual([{ id: newLead.id }]);
    expect(await app.db.selectFrom('supportTickets').select('id').execute()).toEqual([]);
    expect((await app.db.selectFrom('chatSessions').select('id').execute()).map((row) => row.id)).toEqual(['session_retention_new']);
    expect(await app.db.selectFrom('chatMessages').select('sessionId').where('sessionId', '=', 'session_retention_old').execute()).toEqual([]);
    expect(await app.db.selectFrom('chatPageViews').select('id').execute()).toEqual([]);
    const jobs = await app.db.selectFrom('jobs').select('payload').execute();
    expect(jobs.filter((job) => job.payload.includes('session_retention_old'))).toEqual([]);

    const audit = await app.db.selectFrom('auditLog').select(['actorId', 'detail']).where('action', '=', 'retention.erased').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorId).toBeNull();
    expect(audit[0]!.detail).toContain('contactSubmissions: 1');
    expect(audit[0]!.detail).toContain('supportTickets: 1');
    expect(audit[0]!.detail).toContain('chatSessions: 1');
    // The next run is a day later.
    expect((await retention()).state).toBe('pending');
    expect((await retention()).runAt).toBeGreaterThan(Date.now() + dayMs - 60_000);
  });
});

describe('retention within its deadline', async () => {
  const { app, config } = await buildTestServer({ ...staffEnv, RETENTION_DAYS: '30' });
  const data = personalData(app, config);
  const oldChats = async (count: number) => {
    const at = daysAgo(45);
    const rows = Array.from({ length: count }, (_, index) => ({
      id: `session_batch_${index}`,
      visitorId: `visitor_batch_${index}`,
      pageUrl: null,
      referrer: null,
      userAgent: null,
      senderEmail: null,
      timeZone: null,
      createdAt: at,
      lastMessageAt: at,
    }));
    await app.db.insertInto('chatSessions').values(rows).execute();
  };
  const remaining = async () => (await app.db.selectFrom('chatSessions').select('id').execute()).length;

  it('erases nothing more once its job is past the deadline, and says it is not done', async () => {
    await oldChats(3);
    const stopped = await data.applyRetention(30, { signal: AbortSignal.abort() });
    expect(stopped).toEqual({ counts: {}, done: false });
    expect(await remaining()).toBe(3);
    expect(await app.db.selectFrom('auditLog').select('id').where('action', '=', 'retention.erased').execute()).toEqual([]);

    // Left to the next run, which finishes the work.
    expect(await data.applyRetention(30, { signal: new AbortController().signal })).toEqual({ counts: { chatSessions: 3 }, done: true });
    expect(await remaining()).toBe(0);
  });

  it('erases a backlog bigger than a write in several writes, in one run', async () => {
    await oldChats(450);
    expect(await data.applyRetention(30)).toEqual({ counts: { chatSessions: 450 }, done: true });
    expect(await remaining()).toBe(0);
    const audit = await app.db.selectFrom('auditLog').select('detail').where('action', '=', 'retention.erased').execute();
    expect(audit.at(-1)?.detail).toBe('chatSessions: 450');
  });
});

describe('dead jobs, for admins', async () => {
  const { app } = await buildTestServer(staffEnv);
  let cookie: string;

  beforeAll(async () => {
    ({ cookie } = await signInStaff(app));
  });

  it('lists a dead job with its error and attempts; a retry makes it due now with fresh attempts, and the runner does it', async () => {
    const now = Date.now();
    const { id } = await app.db
      .insertInto('jobs')
      .values({ kind: 'webhook-delivery', payload: '{"deliveryId":"dlv_gone"}', runAt: now - 1000, dueAt: now - dayMs, createdAt: now - dayMs })
      .returning('id')
      .executeTakeFirstOrThrow();
    // As the runner leaves a job that failed for 24 hours.
    await app.db.updateTable('jobs').set({ state: 'dead', attempts: 17, lastError: 'Error: the receiver answered 503', finishedAt: now - 1000 }).where('id', '=', id).execute();

    const listed = await app.inject({ method: 'GET', url: operationsPaths.deadJobs, headers: { cookie } });
    expect(listed.statusCode).toBe(200);
    expect(listed.json<DeadJob[]>()).toContainEqual(
      expect.objectContaining({ id, kind: 'webhook-delivery', error: 'Error: the receiver answered 503', attempts: 17, diedAt: new Date(now - 1000).toISOString() }),
    );

    const retried = await app.inject({ method: 'POST', url: pathTo(operationsPaths.jobRetry, { id }), headers: { cookie } });
    expect(retried.statusCode).toBe(200);
    await app.jobs.runDue();
    const job = await app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'done', attempts: 1 });
    expect((await app.inject({ method: 'GET', url: operationsPaths.deadJobs, headers: { cookie } })).json<DeadJob[]>()).toEqual([]);

    // Not dead (any more), or no such job: 404; not an id: 400.
    expect((await app.inject({ method: 'POST', url: pathTo(operationsPaths.jobRetry, { id }), headers: { cookie } })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: pathTo(operationsPaths.jobRetry, { id: 'x' }), headers: { cookie } })).statusCode).toBe(400);
  });

  it('is for admins only', async () => {
    const agent = await signInNewStaff(app);
    expect((await app.inject({ method: 'GET', url: operationsPaths.deadJobs })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: operationsPaths.deadJobs, headers: { cookie: agent.cookie } })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: pathTo(operationsPaths.jobRetry, { id: 1 }), headers: { cookie: agent.cookie } })).statusCode).toBe(403);
  });
});
