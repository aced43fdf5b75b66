// @scaled: export and erase statements (text concatenation, IN lists) per dialect
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/schema';
import { type DataExport, type ErasureResult, operationsPaths } from '../../contract/admin-operations';
import { buildTestServer } from '../../../test/support/helper';
import { readOutbox } from '../../../test/support/outbox';
import { addressHash } from '../mail';
import { contactSubmission, demoRequest, getStartedRequest, signInNewStaff, signInStaff, staffEnv, supportTicket } from '../../../test/support/factories';
import { visitorCookie } from '../../../test/support/visitor-socket';
import { startWebhookReceiver } from '../../../test/support/webhook-receiver';

/** Every table of db/schema.ts: a table added there and not here fails the type check. */
const everyTable: Record<keyof Database, true> = {
  users: true,
  admins: true,
  sessions: true,
  passwordResets: true,
  demoRequests: true,
  contactSubmissions: true,
  supportTickets: true,
  getStartedRequests: true,
  trialSignups: true,
  chatSessions: true,
  chatMessages: true,
  chatPageViews: true,
  jobs: true,
  chatContinuityMails: true,
  chatSessionGrants: true,
  mailAddresses: true,
  sentMails: true,
  sentMailSubjects: true,
  mailAddressConfirmations: true,
  chatTranscriptRequests: true,
  auditLog: true,
  webhooks: true,
  webhookDeliveries: true,
  webhookAttempts: true,
  chatNotes: true,
  cannedReplies: true,
  staffInvites: true,
  settings: true,
};

const erin = 'erin.ek@example.com';
const other = 'otto.other@example.com';

describe('data requests: export and erase everything stored for one email', async () => {
  const { app, dir } = await buildTestServer({ ...staffEnv, NOTIFY_EMAIL: 'leads@lotwise.example', NOTIFY_DIGEST_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE: 'true' });
  const outbox = join(dir, 'outbox');
  let cookie: string;
  /** What Erin left, by id: nothing may point at it after the erasure. */
  const erinSessions: string[] = [];
  const erinLeads: { kind: string; id: number }[] = [];
  let otherSession: string;
  /** The mails to Erin or about her rows, as the export found them. */
  let erinMails = 0;

  const post = async (url: string, payload: object, headers: Record<string, string> = {}) => {
    const response = await app.inject({ method: 'POST', url, payload, headers });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number }>();
  };

  /** Every row of every table, as text, for a search. */
  const everything = async () => {
    const dump: Record<string, string> = {};
    for (const table of Object.keys(everyTable) as (keyof Database)[]) dump[table] = JSON.stringify(await app.db.selectFrom(table).selectAll().execute()).toLowerCase();
    return dump;
  };

  beforeAll(async () => {
    ({ cookie } = await signInStaff(app));
    const receiver = await startWebhookReceiver();
    const hook = await app.inject({ method: 'POST', url: operationsPaths.webhooks, headers: { cookie }, payload: { url: receiver.url, events: ['lead.created', 'chat.message'] } });
    expect(hook.statusCode).toBe(201);

    // Erin's leads of all four kinds, in any case; Otto's one.
    erinLeads.push({ kind: 'contact', id: (await post('/api/contact-submission', contactSubmission({ email: 'Erin.Ek@Example.com' }))).id });
    erinLeads.push({ kind: 'support', id: (await post('/api/support-ticket', supportTicket({ email: erin }))).id });
    erinLeads.push({ kind: 'demo', id: (await post('/api/demo-request', demoRequest({ email: erin }))).id });
    erinLeads.push({ kind: 'get-started', id: (await post('/api/get-started-request', getStartedRequest({ email: erin }))).id });
    await post('/api/contact-submission', contactSubmission({ email: other, name: 'Otto Other' }));

    // Erin's chat (her email given with a message) and Otto's.
    for (const [email, text] of [
      [erin, 'Do you list trucks?'],
      [other, 'Hello from Otto'],
    ] as const) {
      const sessionId = `session_data_${email === erin ? 'erin' : 'otto'}`;
      const sent = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie: visitorCookie(app) }, payload: { sessionId, message: text, senderEmail: email } });
      expect(sent.statusCode, sent.body).toBe(201);
      const reply = await app.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie }, payload: { sessionId, message: 'We do.' } });
      expect(reply.statusCode).toBe(201);
      if (email === erin) erinSessions.push(sessionId);
      else otherSession = sessionId;
    }
    const now = new Date().toISOString();
    const [session] = erinSessions;
    await app.db.insertInto('chatPageViews').values({ sessionId: session!, url: 'http://localhost:3000/inventory', viewedAt: now }).execute();
    await app.db.insertInto('chatSessionGrants').values({ visitorId: 'visitor-erin', sessionId: session!, createdAt: now, expiresAt: now }).execute();
    await app.db.insertInto('chatContinuityMails').values({ sessionId: session!, mailedAt: Date.now(), jobId: 1, afterSeq: 0, upToSeq: 2 }).execute();
    await app.db.insertInto('chatTranscriptRequests').values({ sessionId: otherSession, email: erin, requestedAt: Date.now() }).execute();
    // Erin unsubscribed (her confirmations are withheld), and staff wrote a private note in her chat.
    await app.db.insertInto('mailAddresses').values({ addressHash: addressHash(erin), verifiedAt: null, suppressedAt: Date.now(), suppressedReason: 'unsubscribed' }).execute();
    await app.db.insertInto('chatNotes').values({ sessionId: session!, text: 'Erin wants a call back on 512-555-0100', authorStaffId: null, createdAt: now }).execute();
    await app.db.insertInto('trialSignups').values({ email: 'ERIN.EK@example.com', name: 'Erin Ek', company: null, plan: 'starter', createdAt: now }).execute();
    await app.db.insertInto('users').values({ username: 'erin', email: erin, passwordHash: 'x', createdAt: now }).execute();
    await app.db.insertInto('passwordResets').values({ email: erin, token: 'hash', expiresAt: now, createdAt: now }).execute();
    // The lead notices (to NOTIFY_EMAIL, naming Erin) go to the outbox; the webhooks are tried.
    await app.jobs.runDue();
    expect(readdirSync(outbox).some((file) => readFileSync(join(outbox, file), 'utf8').toLowerCase().includes(erin))).toBe(true);
  });

  it('refuses an agent, a stranger and a bad email, changing nothing', async () => {
    const agent = await signInNewStaff(app);
    for (const url of [operationsPaths.dataExport, operationsPaths.dataErase]) {
      expect((await app.inject({ method: 'POST', url, payload: { email: erin } })).statusCode).toBe(401);
      expect((await app.inject({ method: 'POST', url, headers: { cookie: agent.cookie }, payload: { email: erin } })).statusCode).toBe(403);
      expect((await app.inject({ method: 'POST', url, headers: { cookie }, payload: { email: 'not-an-email' } })).statusCode).toBe(400);
    }
    expect((await everything()).contactSubmissions).toContain(erin);
  });

  it('exports every row for the email, in any case, and the outbox mails, audited without the email', async () => {
    const response = await app.inject({ method: 'POST', url: operationsPaths.dataExport, headers: { cookie }, payload: { email: 'ERIN.EK@example.com' } });
    expect(response.statusCode).toBe(200);
    const exported = response.json<DataExport>();
    const tables = exported.tables;
    for (const table of ['contactSubmissions', 'supportTickets', 'demoRequests', 'getStartedRequests', 'trialSignups', 'chatSessions', 'chatMessages', 'chatPageViews', 'chatSessionGrants', 'chatContinuityMails', 'chatNotes', 'chatTranscriptRequests', 'mailAddresses', 'sentMails', 'sentMailSubjects', 'users', 'passwordResets', 'webhookDeliveries', 'jobs']) {
      expect(tables[table]?.length, table).toBeGreaterThan(0);
    }
    expect(tables.chatMessages!.map((row) => row.message)).toEqual(['Do you list trucks?', 'We do.']);
    expect(JSON.stringify(tables)).not.toContain(other);
    expect(JSON.stringify(tables.users)).not.toContain('passwordHash');
    expect(tables.chatNotes!.map((row) => row.text)).toEqual(['Erin wants a call back on 512-555-0100']);
    // The staff's notices about her leads, found by the rows they are about (they are not mailed to her).
    // (Her first confirmation went too when the runner took it before she unsubscribed.)
    expect(tables.sentMails!.filter((row) => row.recipient === 'leads@lotwise.example')).toHaveLength(4);
    expect(tables.sentMails!.every((row) => row.recipient === 'leads@lotwise.example' || row.recipient === erin)).toBe(true);
    erinMails = tables.sentMails!.length;
    expect(exported.outbox).toHaveLength(erinMails);
    const audit = await app.db.selectFrom('auditLog').selectAll().where('action', '=', 'data.exported').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit).toLowerCase()).not.toContain('erin');
  });

  it('erases it all: no table, job or outbox file holds the email or points at what was erased; the rest stays', async () => {
    const response = await app.inject({ method: 'POST', url: operationsPaths.dataErase, headers: { cookie }, payload: { email: 'Erin.EK@example.com' } });
    expect(response.statusCode).toBe(200);
    const { erased } = response.json<ErasureResult>();
    expect(erased).toMatchObject({ contactSubmissions: 1, supportTickets: 1, demoRequests: 1, getStartedRequests: 1, chatSessions: 1, chatMessages: 2, chatNotes: 1, sentMails: erinMails, users: 1 });
    expect(erased.outboxMails).toBe(erinMails);

    const dump = await everything();
    for (const [table, rows] of Object.entries(dump)) {
      expect(rows, table).not.toContain(erin);
      for (const sessionId of erinSessions) expect(rows, table).not.toContain(sessionId);
    }
    const jobs = await app.db.selectFrom('jobs').select(['kind', 'payload']).execute();
    for (const { kind, id } of erinLeads) {
      expect(jobs.filter((job) => job.payload.includes(`"kind":"${kind}","id":${id}}`))).toEqual([]);
      expect(jobs.filter((job) => job.payload.includes(`"subjectKind":"lead:${kind}","subjectId":"${id}"`))).toEqual([]);
      const deliveries = await app.db.selectFrom('webhookDeliveries').select('id').where('subjectKind', '=', `lead:${kind}`).where('subjectId', '=', String(id)).execute();
      expect(deliveries).toEqual([]);
    }
    const orphanAttempts = await app.db.selectFrom('webhookAttempts').select('deliveryId').where('deliveryId', 'not in', app.db.selectFrom('webhookDeliveries').select('id')).execute();
    expect(orphanAttempts).toEqual([]);
    for (const file of readdirSync(outbox)) expect(readFileSync(join(outbox, file), 'utf8').replace(/=\r?\n/g, '').toLowerCase(), file).not.toContain(erin);

    // Otto's data is all there.
    expect(dump.contactSubmissions).toContain(other);
    expect(dump.chatSessions).toContain(otherSession);
    expect(dump.chatMessages).toContain('hello from otto');
    const audit = await app.db.selectFrom('auditLog').selectAll().where('action', '=', 'data.erased').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toMatch(/^\d+ rows$/);

    // Otto's mails (his confirmation, the notice of his lead) are all there.
    const ottoMails = (await readOutbox(dir)).filter((mail) => mail.text.toLowerCase().includes(other) || (mail.headers.to ?? '').includes(other));
    expect(ottoMails.length).toBeGreaterThanOrEqual(2);

    // Again: nothing left to erase.
    const again = await app.inject({ method: 'POST', url: operationsPaths.dataErase, headers: { cookie }, payload: { email: erin } });
    expect(again.json<ErasureResult>().erased).toEqual({});
  });

  it('keeps the erased address on the suppression list, as a hash: it is never mailed again', async () => {
    const row = await app.db.selectFrom('mailAddresses').selectAll().where('addressHash', '=', addressHash(erin)).executeTakeFirstOrThrow();
    expect(row.suppressedReason).toBe('erased');
    await post('/api/contact-submission', contactSubmission({ email: erin, name: 'Erin Again' }));
    await app.jobs.runDue();
    const toErin = await app.db.selectFrom('sentMails').select('id').where('recipient', '=', erin).execute();
    expect(toErin).toEqual([]);
    expect((await readOutbox(dir)).filter((mail) => mail.headers.to?.toLowerCase().includes(erin))).toEqual([]);
  });
});

describe('data requests find mails by the record of what was sent, never by searching mail contents', async () => {
  const { app, dir } = await buildTestServer({ ...staffEnv, NOTIFY_EMAIL: 'leads@lotwise.example', NOTIFY_DIGEST_PER_MINUTE: '0' });
  let cookie: string;
  beforeAll(async () => {
    ({ cookie } = await signInStaff(app));
    for (const email of ['m1@example.com', 'victim1@example.com', 'm2@example.com', 'victim2@example.com']) {
      const response = await app.inject({ method: 'POST', url: '/api/contact-submission', payload: contactSubmission({ email, name: `Person ${email.split('@')[0]}` }) });
      expect(response.statusCode).toBe(201);
    }
    await app.jobs.runDue();
  });

  it('an export of m1@example.com holds its own mails, none of victim1@example.com', async () => {
    const response = await app.inject({ method: 'POST', url: operationsPaths.dataExport, headers: { cookie }, payload: { email: 'm1@example.com' } });
    expect(response.statusCode).toBe(200);
    const exported = response.json<DataExport>();
    // Its confirmation, and the staff's notice of its lead.
    expect(exported.outbox).toHaveLength(2);
    for (const mail of exported.outbox) expect(mail.content).not.toContain('victim1');
    expect(JSON.stringify(exported.tables)).not.toContain('victim1');
  });

  it('an erase of m2@example.com leaves victim2@example.com’s mails', async () => {
    const before = await readOutbox(dir);
    const victimsBefore = before.filter((mail) => mail.text.includes('victim2@example.com') || (mail.headers.to ?? '').includes('victim2@example.com'));
    expect(victimsBefore).toHaveLength(2);
    const response = await app.inject({ method: 'POST', url: operationsPaths.dataErase, headers: { cookie }, payload: { email: 'm2@example.com' } });
    expect(response.statusCode).toBe(200);
    expect(response.json<ErasureResult>().erased.outboxMails).toBe(2);
    const after = await readOutbox(dir);
    expect(after).toHaveLength(before.length - 2);
    expect(after.filter((mail) => mail.text.includes('victim2@example.com') || (mail.headers.to ?? '').includes('victim2@example.com'))).toHaveLength(2);
    expect(await app.db.selectFrom('sentMails').select('id').where('recipient', '=', 'victim2@example.com').execute()).toHaveLength(1);
  });
});
