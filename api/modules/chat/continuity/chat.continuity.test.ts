// @scaled: continuity statements lock rows (FOR UPDATE) on PostgreSQL
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../contract/chat';
import { apiPaths, pathTo } from '../../../contract/paths';
import { signInNewStaff, type StaffSignIn } from '../../../../test/support/factories';
import { crashHarness } from '../../../../test/support/crash-harness';
import { buildTestServer } from '../../../../test/support/helper';
import { jobsSettled } from '../../../../test/support/jobs';
import { manualClock } from '../../../../test/support/clock';
import { type SinkMail, startSmtpSink } from '../../../../test/support/smtp-sink';
import { visitorCookie } from '../../../../test/support/visitor-socket';
import { addressHash } from '../../mail';
import { findVisibleSession, hasGrant } from './chat.continuity.repository';
import { chatLinkToken } from './chat.links';

let counter = 0;
const newSessionId = () => `session_${Date.now()}_cont${(counter += 1)}`;
let emailCounter = 0;
const newEmail = () => `dana${(emailCounter += 1)}.${Date.now()}@reyes-motors.example`;

/** Mail environment: the continuity delay cut to 1 s, retries quick. */
const mailEnv = (smtpUrl: string, env: Record<string, string> = {}) => ({
  SMTP_URL: smtpUrl,
  RATE_LIMIT_ALLOWLIST: '127.0.0.1',
  JOBS_RETRY_BASE_SECONDS: '0.2',
  CONTINUITY_DELAY_SECONDS: '1',
  ...env,
});

/** Whether the mail policy's suppression list holds the address (by its hash). */
async function suppressed(app: FastifyInstance, email: string): Promise<boolean> {
  const row = await app.db.selectFrom('mailAddresses').select('suppressedAt').where('addressHash', '=', addressHash(email)).executeTakeFirst();
  return row?.suppressedAt != null;
}

async function startConversation(app: FastifyInstance, options: { email?: string; cookie?: string } = {}) {
  const sessionId = newSessionId();
  const cookie = options.cookie ?? visitorCookie(app);
  const response = await app.inject({
    method: 'POST',
    url: apiPaths.chatMessage,
    headers: { cookie },
    payload: { sessionId, message: 'Is <b>this</b> & that included?', ...(options.email ? { senderEmail: options.email } : {}) },
  });
  expect(response.statusCode).toBe(201);
  return { sessionId, cookie };
}

async function staffReply(app: FastifyInstance, staff: StaffSignIn, sessionId: string, message: string): Promise<ChatMessage> {
  const response = await app.inject({ method: 'POST', url: apiPaths.staffReply, headers: { cookie: staff.cookie }, payload: { sessionId, message } });
  expect(response.statusCode).toBe(201);
  return response.json<ChatMessage>();
}

const mailsTo = (mails: readonly SinkMail[], email: string) => mails.filter((mail) => mail.to === email);

/** Resolves once no continuity job is pending and due: every mail that was to go has gone. */
const continuitySettled = (app: FastifyInstance) => jobsSettled(app.db, ['chat-continuity-mail'], { dueBy: () => Date.now() + 60_000 });

const linkIn = (mail: SinkMail) => /Continue the conversation: (\S+)/.exec(mail.text)![1]!;
const tokenIn = (mail: SinkMail) => new URL(linkIn(mail)).searchParams.get('chat')!;

describe('email continuity', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  // The continuity delay passes when the test says: a mail is due once it has, and a mail not sent
  // by then is not coming.
  const clock = manualClock();
  const { app, config } = await buildTestServer(mailEnv(sink.url), { clock });
  const staff = await signInNewStaff(app);
  /**
   * The continuity delay (1 s) passes for every reply made so far, and every job due by then has
   * run. A reply's time is the database's record of the real time: the clock moves to 1 s past now.
   */
  const delayPassed = async () => {
    clock.set(Math.max(clock.now(), Date.now()) + 1000);
    await app.jobs.runDue();
  };

  it('two staff replies the visitor has not seen: one mail with both, text and HTML (escaped), List-Unsubscribe, a link', async () => {
    const email = newEmail();
    const { sessionId } = await startConversation(app, { email });
    await staffReply(app, staff, sessionId, 'Yes! <script>alert(1)</script> & more');
    await staffReply(app, staff, sessionId, 'Anything else?');
    await delayPassed();
    await sink.waitFor((mails) => mailsTo(mails, email).length > 0);
    await continuitySettled(app);
    await delayPassed();
    const [mail, ...more] = mailsTo(sink.accepted, email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('2 new replies from Lotwise');
    expect(mail!.headers.from).toBe('Lotwise <no-reply@lotwise.example>');
    expect(mail!.messageId).toMatch(/^<job-\d+@lotwise\.example>$/);
    expect(mail!.text).toContain('Yes! <script>alert(1)</script> & more');
    expect(mail!.text).toContain('Anything else?');
    expect(mail!.html).toContain('Yes! &#60;script&#62;alert(1)&#60;/script&#62; &#38; more');
    expect(mail!.html).not.toContain('<script>');
    expect(mail!.html).toContain('Anything else?');
    expect(linkIn(mail!)).toMatch(/^http:\/\/localhost:3000\/\?chat=[\w-]+\.[\w-]{43}$/);
    expect(mail!.headers['list-unsubscribe']).toMatch(/^<http:\/\/localhost:3000\/unsubscribe\?token=[\w-]+\.[\w-]+>$/);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  });

  it('a reply the visitor saw in time is not mailed; one they saw part of has only the unseen one', async () => {
    const email = newEmail();
    const { sessionId, cookie } = await startConversation(app, { email });
    const seen = await staffReply(app, staff, sessionId, 'Seen reply');
    const receipt = await app.inject({ method: 'POST', url: pathTo(apiPaths.chatSeen, { sessionId }), headers: { cookie }, payload: { upTo: seen.seq } });
    expect(receipt.statusCode).toBe(200);
    await delayPassed();
    await continuitySettled(app);
    expect(mailsTo(sink.accepted, email)).toEqual([]);

    await staffReply(app, staff, sessionId, 'Not seen reply');
    await delayPassed();
    await sink.waitFor((mails) => mailsTo(mails, email).length > 0);
    const [mail] = mailsTo(sink.accepted, email);
    expect(mail!.text).toContain('Not seen reply');
    expect(mail!.text).not.toContain('Seen reply\n');
    expect(mail!.subject).toBe('New reply from Lotwise');
  });

  it('a chat without an email is not mailed', async () => {
    const before = sink.accepted.length;
    const { sessionId } = await startConversation(app);
    await staffReply(app, staff, sessionId, 'Hello?');
    await delayPassed();
    await continuitySettled(app);
    expect(sink.accepted.length).toBe(before);
  });

  it('the 10-minute rule: a reply after a mail waits for the next mail, due 10 minutes after it', async () => {
    const email = newEmail();
    const { sessionId } = await startConversation(app, { email });
    await staffReply(app, staff, sessionId, 'First answer');
    await delayPassed();
    await sink.waitFor((mails) => mailsTo(mails, email).length > 0);
    await continuitySettled(app);
    const mailed = await app.db.selectFrom('chatContinuityMails').selectAll().where('sessionId', '=', sessionId).executeTakeFirstOrThrow();

    await staffReply(app, staff, sessionId, 'Second answer');
    await delayPassed();
    expect(mailsTo(sink.accepted, email)).toHaveLength(1);
    const later = await app.db
      .selectFrom('jobs')
      .selectAll()
      .where('dedupeKey', 'like', `chat-continuity-mail:${sessionId}:at:%`)
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(Number(later.runAt)).toBe(Number(mailed.mailedAt) + 10 * 60 * 1000);
  });

  it('unsubscribe: the page asks first (a GET changes nothing), the one-click POST honours it, and the address gets no more', async () => {
    const email = newEmail();
    const { sessionId } = await startConversation(app, { email });
    await staffReply(app, staff, sessionId, 'Here is our reply');
    await delayPassed();
    await sink.waitFor((mails) => mailsTo(mails, email).length > 0);
    const unsubscribe = new URL(/^<(.+)>$/.exec(mailsTo(sink.accepted, email)[0]!.headers['list-unsubscribe']!)![1]!);
    const url = `${unsubscribe.pathname}${unsubscribe.search}`;

    const page = await app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<button type="submit">Unsubscribe</button>');
    // The same link is in lead confirmations: the page speaks of both.
    expect(page.body).toContain('<h1>Unsubscribe from Lotwise emails</h1>');
    expect(page.body).toContain('<p>Stop the emails from Lotwise about your requests and chats to <strong>');
    expect(page.body).not.toContain(email);
    // So a browser holding our cookies posts the form with its Origin (no-referrer would send `null`, refused).
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(await suppressed(app, email)).toBe(false);

    // Forged: another address under this signature, or a signature altered.
    const [, signature] = unsubscribe.searchParams.get('token')!.split('.');
    for (const token of [`${Buffer.from('someone@else.example').toString('base64url')}.${signature}`, `${unsubscribe.searchParams.get('token')!.slice(0, -2)}xx`, 'nonsense']) {
      const forged = await app.inject({ method: 'POST', url: `/unsubscribe?token=${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
      expect(forged.statusCode).toBe(400);
      expect(forged.body).toContain('This unsubscribe link is not valid');
    }
    expect(await suppressed(app, email)).toBe(false);

    const oneClick = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('<h1>You&#39;re unsubscribed</h1>');
    expect(oneClick.body).toContain('</strong> about your requests and chats any more.');
    expect(await suppressed(app, email)).toBe(true);
    // Again (a mail client retrying): still fine.
    expect((await app.inject({ method: 'POST', url })).statusCode).toBe(200);

    // A new chat with the same address in another case: no mail.
    const before = sink.accepted.length;
    const next = await startConversation(app, { email: email.toUpperCase() });
    await staffReply(app, staff, next.sessionId, 'Are you still there?');
    await delayPassed();
    await continuitySettled(app);
    expect(sink.accepted.length).toBe(before);
  });

  it('the mailed link opens that one conversation for a new browser, which can read and reply; not the visitor’s other chats', async () => {
    const email = newEmail();
    const owner = visitorCookie(app);
    const other = await startConversation(app, { email, cookie: owner });
    const { sessionId } = await startConversation(app, { email, cookie: owner });
    await staffReply(app, staff, sessionId, 'Reply for the link');
    await delayPassed();
    await sink.waitFor((mails) => mailsTo(mails, email).some((mail) => mail.text.includes('Reply for the link')));
    const mail = mailsTo(sink.accepted, email).find((each) => each.text.includes('Reply for the link'))!;
    const token = tokenIn(mail);

    // A fresh browser: no cookie at all. The link's call gives it a visitor identity.
    const opened = await app.inject({ method: 'POST', url: apiPaths.chatLinks, payload: { token } });
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toEqual({ sessionId });
    const fresh = opened.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
    expect(fresh).not.toBe('');

    const history = await app.inject({ method: 'GET', url: pathTo(apiPaths.chatHistory, { sessionId }), headers: { cookie: fresh } });
    expect(history.statusCode).toBe(200);
    expect(history.json<ChatMessage[]>().map((message) => message.message)).toEqual(['Is <b>this</b> & that included?', 'Reply for the link']);
    const replied = await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie: fresh }, payload: { sessionId, message: 'Thanks, from my phone' } });
    expect(replied.statusCode).toBe(201);
    const seen = await app.inject({ method: 'POST', url: pathTo(apiPaths.chatSeen, { sessionId }), headers: { cookie: fresh }, payload: { upTo: 3 } });
    expect(seen.json()).toEqual({ visitorSeenSeq: 3 });
    // The owner sees the reply from the phone in the same conversation.
    const ownerView = await app.inject({ method: 'GET', url: pathTo(apiPaths.chatHistory, { sessionId }), headers: { cookie: owner } });
    expect(ownerView.json<ChatMessage[]>().at(-1)!.message).toBe('Thanks, from my phone');

    // The visitor's other conversation stays theirs alone.
    expect((await app.inject({ method: 'GET', url: pathTo(apiPaths.chatHistory, { sessionId: other.sessionId }), headers: { cookie: fresh } })).statusCode).toBe(404);
    expect(
      (await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie: fresh }, payload: { sessionId: other.sessionId, message: 'sneaky' } })).statusCode,
    ).toBe(404);

    // The owner opening their own link changes nothing.
    expect((await app.inject({ method: 'POST', url: apiPaths.chatLinks, headers: { cookie: owner }, payload: { token } })).statusCode).toBe(200);
    expect(await app.db.selectFrom('chatSessionGrants').select('sessionId').where('sessionId', '=', sessionId).execute()).toHaveLength(1);
  });

  it("a link's grant ends with its token; a newer link's grant lasts as long as that one", async () => {
    const { sessionId } = await startConversation(app, { email: newEmail() });
    const cookie = visitorCookie(app);
    // A link signed now works 30 days, to the second.
    const signedAt = Date.now();
    const linkExpiresAt = (Math.floor(signedAt / 1000) + 30 * 24 * 60 * 60) * 1000;
    const open = async (expiresAt: number) =>
      (await app.inject({ method: 'POST', url: apiPaths.chatLinks, headers: { cookie }, payload: { token: chatLinkToken(config.sessionSecret, sessionId, signedAt + (expiresAt - linkExpiresAt)) } })).statusCode;
    expect(await open(linkExpiresAt)).toBe(200);
    expect((await app.inject({ method: 'GET', url: pathTo(apiPaths.chatHistory, { sessionId }), headers: { cookie } })).statusCode).toBe(200);
    const { visitorId } = await app.db.selectFrom('chatSessionGrants').select('visitorId').where('sessionId', '=', sessionId).executeTakeFirstOrThrow();
    // The grant as the chat sees it (its owner check) a moment before and after the token's expiry: the clock is the caller's.
    const visibleAt = async (at: number) => (await findVisibleSession(app.db, visitorId, sessionId, at)) !== undefined;
    expect(await visibleAt(linkExpiresAt - 1)).toBe(true);
    expect(await visibleAt(linkExpiresAt)).toBe(false);
    expect(await hasGrant(app.db, visitorId, sessionId, linkExpiresAt + 1)).toBe(false);

    // A later mail's link extends it; opening the older link again shortens nothing.
    expect(await open(linkExpiresAt + 3_600_000)).toBe(200);
    expect(await open(linkExpiresAt)).toBe(200);
    expect(await visibleAt(linkExpiresAt + 3_600_000 - 1)).toBe(true);
    expect(await visibleAt(linkExpiresAt + 3_600_000)).toBe(false);
  });

  it('a forged, altered or expired link is refused, and lets nobody in', async () => {
    const { sessionId } = await startConversation(app, { email: newEmail() });
    const genuine = chatLinkToken(config.sessionSecret, sessionId, Date.now());
    const [payload, signature] = genuine.split('.') as [string, string];
    const [, expiry] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as [string, number];
    const fields = (id: string, expiresAt: number) => Buffer.from(JSON.stringify([id, expiresAt])).toString('base64url');
    const cookie = visitorCookie(app);
    const refused: [string, number][] = [
      // Another session under this signature, a later expiry, another key, a flipped signature.
      [`${fields(newSessionId(), expiry)}.${signature}`, 404],
      [`${fields(sessionId, expiry + 86_400)}.${signature}`, 404],
      [chatLinkToken('another-secret-that-is-long-enough-0123456789', sessionId, Date.now()), 404],
      [`${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`, 404],
      [chatLinkToken(config.sessionSecret, sessionId, Date.now() - 30 * 24 * 60 * 60 * 1000 - 1000), 410],
    ];
    for (const [token, status] of refused) {
      const response = await app.inject({ method: 'POST', url: apiPaths.chatLinks, headers: { cookie }, payload: { token } });
      expect(response.statusCode, token).toBe(status);
      expect(response.json<{ message: string }>().message).toMatch(status === 410 ? /has expired/ : /not valid/);
    }
    for (const payload of [{}, { token: 'not a token' }, { token: genuine, extra: 1 }]) {
      expect((await app.inject({ method: 'POST', url: apiPaths.chatLinks, headers: { cookie }, payload })).statusCode).toBe(400);
    }
    expect(await app.db.selectFrom('chatSessionGrants').selectAll().where('sessionId', '=', sessionId).execute()).toEqual([]);
    expect((await app.inject({ method: 'GET', url: pathTo(apiPaths.chatHistory, { sessionId }), headers: { cookie } })).statusCode).toBe(404);
    // A token for a session that does not exist (signed, say, before the chat was deleted) is not found either.
    const gone = await app.inject({ method: 'POST', url: apiPaths.chatLinks, headers: { cookie }, payload: { token: chatLinkToken(config.sessionSecret, newSessionId(), Date.now() + 60_000) } });
    expect(gone.statusCode).toBe(404);
  });
});

describe('email continuity, the next mail after the spacing', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const { app } = await buildTestServer(mailEnv(sink.url, { CONTINUITY_MAIL_SPACING_SECONDS: '3' }));
  const staff = await signInNewStaff(app);

  it('a reply made after a mail goes in the next one, once the spacing has passed, and alone', async () => {
    const email = newEmail();
    const { sessionId } = await startConversation(app, { email });
    await staffReply(app, staff, sessionId, 'First answer');
    await sink.waitFor((mails) => mailsTo(mails, email).length === 1);
    const firstAt = Date.now();
    await staffReply(app, staff, sessionId, 'Second answer');
    await sink.waitFor((mails) => mailsTo(mails, email).length === 2);
    expect(Date.now() - firstAt).toBeGreaterThanOrEqual(2500);
    const [first, second] = mailsTo(sink.accepted, email);
    expect(first!.text).toContain('First answer');
    expect(second!.text).toContain('Second answer');
    expect(second!.text).not.toContain('First answer');
    expect(second!.messageId).not.toBe(first!.messageId);
    await continuitySettled(app);
    expect(mailsTo(sink.accepted, email)).toHaveLength(2);
  });
});

/** The real server process, as `npm start` runs it, on a database that outlives it. */
describe('a continuity mail promised before a kill -9', async () => {
  const { env, db, sink, start } = await crashHarness('continuity-crash', {
    ADMIN_EMAIL: 'crash-staff@lotwise.example',
    ADMIN_PASSWORD: 'crash-staff-password',
    CONTINUITY_DELAY_SECONDS: '2',
    SESSION_SECRET: 'crash-test-session-secret-long-enough-0123456789',
  });

  it('is sent once by the next process', async () => {
    const first = await start();
    const email = newEmail();
    const sessionId = newSessionId();
    const post = (path: string, body: unknown, cookie?: string) =>
      fetch(`${first.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
    expect((await post(apiPaths.chatMessage, { sessionId, message: 'Anyone there?', senderEmail: email })).status).toBe(201);
    const login = await post(apiPaths.staffLogin, { username: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    const staffCookie = login.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
    expect((await post(apiPaths.staffReply, { sessionId, message: 'Yes, we are here' }, staffCookie)).status).toBe(201);
    first.kill('SIGKILL');
    await first.exited;
    const pending = await db.selectFrom('jobs').selectAll().where('kind', '=', 'chat-continuity-mail').where('state', '=', 'pending').execute();
    expect(pending).toHaveLength(1);
    expect(sink.accepted).toEqual([]);

    await start();
    await sink.waitFor((mails) => mailsTo(mails, email).length > 0);
    await jobsSettled(db, ['chat-continuity-mail']);
    expect(mailsTo(sink.accepted, email)).toHaveLength(1);
    expect(mailsTo(sink.accepted, email)[0]!.text).toContain('Yes, we are here');
  }, 90_000);
});
