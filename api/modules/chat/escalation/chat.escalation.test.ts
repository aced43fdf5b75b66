// @scaled: escalation jobs through a kill -9 of the process
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { crashHarness } from '../../../../test/support/crash-harness';
import { signInNewStaff } from '../../../../test/support/factories';
import { buildTestServer } from '../../../../test/support/helper';
import { type SinkMail, startSmtpSink } from '../../../../test/support/smtp-sink';
import { visitorCookie } from '../../../../test/support/visitor-socket';

const notifyEmail = 'desk@lotwise.example';
let sessionCounter = 0;
const newSessionId = () => `session_${Date.now()}_esc${(sessionCounter += 1)}`;
const mailsAbout = (mails: readonly SinkMail[], sessionId: string) => mails.filter((mail) => mail.text.includes(`/admin/chats/${sessionId}`));

describe('escalation of unread visitor messages', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const delayMs = 500;
  const { app } = await buildTestServer({
    SMTP_URL: sink.url,
    NOTIFY_EMAIL: notifyEmail,
    ESCALATION_DELAY_SECONDS: String(delayMs / 1000),
    JOBS_POLL_MS: '50',
    RATE_LIMIT_ALLOWLIST: '127.0.0.1',
  });
  const staff = await signInNewStaff(app);

  const send = async (cookie: string, sessionId: string, message: string, senderEmail?: string) => {
    const sent = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie }, payload: { sessionId, message, ...(senderEmail ? { senderEmail } : {}) } });
    expect(sent.statusCode).toBe(201);
  };
  const markRead = async (sessionId: string) => {
    const answer = await app.inject({ method: 'PATCH', url: `/api/chat-sessions/${sessionId}`, headers: { cookie: staff.cookie }, payload: { read: true } });
    expect(answer.statusCode).toBe(200);
  };
  const escalationJobs = () => app.db.selectFrom('jobs').selectAll().where('kind', '=', 'chat-escalation').execute();
  const jobsOf = async (sessionId: string) => (await escalationJobs()).filter((job) => job.payload.includes(sessionId));
  const settled = async (sessionId: string) => {
    await expect.poll(async () => (await jobsOf(sessionId)).every((job) => job.state === 'done'), { timeout: 5000 }).toBe(true);
  };

  it('mails an unread message to NOTIFY_EMAIL once, in plain text and HTML, the visitor escaped, with a link to the conversation', async () => {
    const sessionId = newSessionId();
    await send(visitorCookie(app), sessionId, 'Is anyone there? <b>hello</b> & bye', 'dana@dealer.example');
    await sink.waitFor((accepted) => mailsAbout(accepted, sessionId).length > 0);
    await settled(sessionId);
    await sleep(200);
    const mails = mailsAbout(sink.accepted, sessionId);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.to).toBe(notifyEmail);
    expect(mail!.subject).toBe('Chat waiting for a reply: dana@dealer.example');
    expect(mail!.text).toContain('Is anyone there? <b>hello</b> & bye');
    expect(mail!.text).toContain(`Open the conversation: http://localhost:3000/admin/chats/${sessionId}`);
    expect(mail!.html).toContain('Is anyone there? &#60;b&#62;hello&#60;/b&#62; &#38; bye');
    expect(mail!.html).not.toContain('<b>hello');
    expect(mail!.messageId).toMatch(/^<job-\d+@lotwise\.example>$/);
  });

  it('mails nothing when staff read the message in time', async () => {
    const sessionId = newSessionId();
    await send(visitorCookie(app), sessionId, 'Quick question about pricing');
    await markRead(sessionId);
    await sleep(delayMs + 300);
    await settled(sessionId);
    expect(mailsAbout(sink.accepted, sessionId)).toEqual([]);
  });

  it('after staff read, the next unread message promises a job of its own and is mailed without what was read', async () => {
    const sessionId = newSessionId();
    const cookie = visitorCookie(app);
    await send(cookie, sessionId, 'First question, read in time');
    await markRead(sessionId);
    await send(cookie, sessionId, 'Second question, left unread');
    await send(cookie, sessionId, 'Third, also unread');
    // The first message's job and the second's (the first unread after the read); the third adds none.
    expect(await jobsOf(sessionId)).toHaveLength(2);
    await sink.waitFor((accepted) => mailsAbout(accepted, sessionId).length > 0);
    await settled(sessionId);
    const mails = mailsAbout(sink.accepted, sessionId);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Second question, left unread');
    expect(mails[0]!.text).toContain('Third, also unread');
    expect(mails[0]!.text).not.toContain('First question');
  });

  it('adds one job for many messages, and mails one per session per 15 minutes', async () => {
    const sessionId = newSessionId();
    const cookie = visitorCookie(app);
    for (const text of ['Hello?', 'Anyone?', 'I have a question', 'About the feed']) await send(cookie, sessionId, text);
    // Four messages in one window: one job.
    expect(await jobsOf(sessionId)).toHaveLength(1);
    await sink.waitFor((accepted) => mailsAbout(accepted, sessionId).length > 0);
    const [first] = mailsAbout(sink.accepted, sessionId);
    expect(first!.text).toContain('Hello?');
    expect(first!.text).toContain('About the feed');

    // More unread messages after the mail: looked at again, not mailed within 15 minutes.
    await send(cookie, sessionId, 'Still here');
    await send(cookie, sessionId, 'Hello again');
    await sleep(delayMs + 500);
    expect(mailsAbout(sink.accepted, sessionId)).toHaveLength(1);
    // The later messages' job is waiting for the end of the 15 minutes, not gone.
    const waiting = (await jobsOf(sessionId)).filter((job) => job.state === 'pending');
    expect(waiting).toHaveLength(1);
    const escalated = await app.db.selectFrom('chatSessions').select('escalatedAt').where('id', '=', sessionId).executeTakeFirstOrThrow();
    expect(Number(waiting[0]!.runAt)).toBe(Date.parse(escalated.escalatedAt!) + 15 * 60 * 1000);
  });

  it('adds no escalation job for a staff reply', async () => {
    const sessionId = newSessionId();
    await send(visitorCookie(app), sessionId, 'One message');
    const before = (await escalationJobs()).length;
    const replied = await app.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie: staff.cookie }, payload: { sessionId, message: 'Hi!' } });
    expect(replied.statusCode).toBe(201);
    expect((await escalationJobs()).length).toBe(before);
  });
});

describe('escalation without NOTIFY_EMAIL', async () => {
  const { app } = await buildTestServer({ RATE_LIMIT_ALLOWLIST: '127.0.0.1' });

  it('costs a visitor message no job', async () => {
    const sent = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie: visitorCookie(app) }, payload: { sessionId: newSessionId(), message: 'hello' } });
    expect(sent.statusCode).toBe(201);
    expect(await app.db.selectFrom('jobs').select('id').where('kind', '=', 'chat-escalation').execute()).toEqual([]);
  });
});

/** The real server process, killed -9 while the escalation waits, on a database that outlives it. */
describe('an escalation through a kill -9', async () => {
  const { db, sink, start } = await crashHarness('escalation-crash', {
    NOTIFY_EMAIL: notifyEmail,
    ESCALATION_DELAY_SECONDS: '2',
    JOBS_POLL_MS: '100',
  });

  it('is mailed once by the next process', async () => {
    const first = await start();
    const sessionId = newSessionId();
    const sent = await fetch(`${first.url}/api/chat-message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, message: 'Hello, anyone?' }),
    });
    expect(sent.status).toBe(201);
    first.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const [job] = await db.selectFrom('jobs').selectAll().where('kind', '=', 'chat-escalation').execute();
    expect(job).toMatchObject({ state: 'pending', attempts: 0 });

    await start();
    await sink.waitFor((accepted) => mailsAbout(accepted, sessionId).length > 0);
    await sleep(300);
    expect(mailsAbout(sink.accepted, sessionId)).toHaveLength(1);
  }, 60_000);
});

describe('escalations share the team’s per-minute budget of notices', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const delayMs = 500;
  // The digest's "minute", shortened: a burst due in one window, its digest a moment after the window ends.
  const windowMs = 4000;
  const budget = 3;
  const { app } = await buildTestServer({
    SMTP_URL: sink.url,
    NOTIFY_EMAIL: notifyEmail,
    ESCALATION_DELAY_SECONDS: String(delayMs / 1000),
    NOTIFY_DIGEST_PER_MINUTE: String(budget),
    NOTIFY_DIGEST_WINDOW_SECONDS: String(windowMs / 1000),
    JOBS_POLL_MS: '50',
    RATE_LIMIT_ALLOWLIST: '127.0.0.1',
  });

  it('15 new anonymous chats make at most the budget of escalation mails, and one digest naming every other chat', async () => {
    // Start as a window opens, so all fifteen escalations fall due in the same window.
    const intoWindow = (Date.now() + delayMs) % windowMs;
    if (intoWindow > 300) await sleep(windowMs - intoWindow + 50);
    const sessions: string[] = [];
    for (let index = 0; index < 15; index += 1) {
      const sessionId = newSessionId();
      const sent = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie: visitorCookie(app) }, payload: { sessionId, message: `Anyone there? (${index})` } });
      expect(sent.statusCode).toBe(201);
      sessions.push(sessionId);
    }
    const staffMails = (mails: readonly SinkMail[]) => mails.filter((mail) => mail.to === notifyEmail);
    await sink.waitFor((accepted) => staffMails(accepted).some((mail) => mail.subject.startsWith('Digest: ')), 15_000);
    await expect
      .poll(async () => (await app.db.selectFrom('jobs').select('state').where('kind', 'in', ['chat-escalation', 'staff-digest']).execute()).every((job) => job.state === 'done'), { timeout: 5000 })
      .toBe(true);
    await sleep(300);
    const mails = staffMails(sink.accepted);
    const alone = mails.filter((mail) => mail.subject.startsWith('Chat waiting for a reply'));
    const digests = mails.filter((mail) => mail.subject.startsWith('Digest: '));
    expect(alone).toHaveLength(budget);
    expect(digests).toHaveLength(1);
    expect(digests[0]!.subject).toBe(`Digest: ${15 - budget} chats waiting`);
    // Each chat in exactly one mail: its own or the digest.
    for (const sessionId of sessions) expect(mails.filter((mail) => mail.text.includes(`/admin/chats/${sessionId}`)), sessionId).toHaveLength(1);
    // The digest's chats count as escalated: the next unread message waits the 15 minutes like any other.
    const digested = sessions.filter((sessionId) => digests[0]!.text.includes(`/admin/chats/${sessionId}`));
    const escalatedAt = await app.db.selectFrom('chatSessions').select('escalatedAt').where('id', 'in', digested).execute();
    expect(escalatedAt.every((row) => row.escalatedAt !== null)).toBe(true);
  });
});
