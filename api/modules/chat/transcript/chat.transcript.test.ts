import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPaths, pathTo } from '../../../contract/paths';
import { addressHash } from '../../mail';
import { chatLinkToken } from '../continuity/chat.links';
import { signInNewStaff, type StaffSignIn } from '../../../../test/support/factories';
import { buildTestServer } from '../../../../test/support/helper';
import { jobsSettled } from '../../../../test/support/jobs';
import { type SinkMail, startSmtpSink } from '../../../../test/support/smtp-sink';
import { visitorCookie } from '../../../../test/support/visitor-socket';

let counter = 0;
const newSessionId = () => `session_${Date.now()}_tr${(counter += 1)}`;
let emailCounter = 0;
const newEmail = () => `lee${(emailCounter += 1)}.${Date.now()}@park-cars.example`;

async function startConversation(app: FastifyInstance, staff: StaffSignIn, email?: string, cookie = visitorCookie(app)) {
  const sessionId = newSessionId();
  const sent = await app.inject({
    method: 'POST',
    url: apiPaths.chatMessage,
    headers: { cookie },
    payload: { sessionId, message: '<img src=x onerror=alert(1)> & "quotes"', senderName: 'Lee <Park>', ...(email ? { senderEmail: email } : {}) },
  });
  expect(sent.statusCode).toBe(201);
  const reply = await app.inject({ method: 'POST', url: apiPaths.staffReply, headers: { cookie: staff.cookie }, payload: { sessionId, message: 'Happy to help' } });
  expect(reply.statusCode).toBe(201);
  return { sessionId, cookie };
}

const askTranscript = (app: FastifyInstance, sessionId: string, cookie?: string) =>
  app.inject({ method: 'POST', url: pathTo(apiPaths.chatTranscript, { sessionId }), headers: cookie ? { cookie } : {} });

/** The address proves it wants our mail the way a visitor does: opening the conversation link we mailed it. */
async function openConversationLink(app: FastifyInstance, secret: string, sessionId: string, cookie: string): Promise<void> {
  const token = chatLinkToken(secret, sessionId, Date.now() + 60_000);
  const opened = await app.inject({ method: 'POST', url: apiPaths.chatLinks, headers: { cookie }, payload: { token } });
  expect(opened.statusCode).toBe(200);
}

const mailsTo = (mails: readonly SinkMail[], email: string) => mails.filter((mail) => mail.to === email);

/** The confirmation link of an address-confirmation mail, as a path the app answers. */
function confirmationPath(mail: SinkMail): string {
  const link = /http:\/\/localhost:3000(\/confirm-email\?token=[\w.-]+)/.exec(mail.text);
  if (!link) throw new Error(`no confirmation link in: ${mail.text}`);
  return link[1]!;
}

/** Resolves once no mail job is pending: what was promised went (or was withheld). */
const mailJobsSettled = (app: FastifyInstance) => jobsSettled(app.db, ['chat-transcript-mail', 'mail-address-confirmation']);

describe('transcripts', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const { app, config } = await buildTestServer({ SMTP_URL: sink.url, RATE_LIMIT_ALLOWLIST: '127.0.0.1', JOBS_RETRY_BASE_SECONDS: '0.2', CONTINUITY_DELAY_SECONDS: '3600' });
  const staff = await signInNewStaff(app);
  const secret = config.sessionSecret;

  it('a stranger cannot relay their words: an address never confirmed gets only a confirmation link, and the transcript once it is opened', async () => {
    const victim = newEmail();
    const cookie = visitorCookie(app);
    const sessionId = newSessionId();
    const lure = 'URGENT: your account is locked, log in at https://phish.example/login';
    const sent = await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie }, payload: { sessionId, message: lure, senderName: 'Bank <a href=x>Security</a>', senderEmail: victim } });
    expect(sent.statusCode).toBe(201);
    const asked = await askTranscript(app, sessionId, cookie);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ email: victim, confirmationSent: true });
    await sink.waitFor((mails) => mailsTo(mails, victim).length > 0);
    await mailJobsSettled(app);
    const [confirmation, ...more] = mailsTo(sink.accepted, victim);
    expect(more).toEqual([]);
    expect(confirmation!.subject).toBe('Confirm your address to receive your Lotwise conversation');
    for (const part of [confirmation!.text, confirmation!.html ?? '', confirmation!.subject]) {
      expect(part).not.toContain('phish');
      expect(part).not.toContain('URGENT');
      expect(part).not.toContain('Security');
    }
    expect(confirmation!.headers['list-unsubscribe']).toMatch(/^<http:\/\/localhost:3000\/unsubscribe\?token=/);

    // A link scanner's GET confirms nothing; the button's POST does, once however often it is pressed.
    const path = confirmationPath(confirmation!);
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<button type="submit">Confirm my address</button>');
    // Had the GET confirmed the address, the transcript's job would be written by now: run it out.
    await mailJobsSettled(app);
    expect(mailsTo(sink.accepted, victim)).toHaveLength(1);
    const forged = await app.inject({ method: 'POST', url: `${path.slice(0, -3)}xyz` });
    expect(forged.statusCode).toBe(400);
    for (let press = 0; press < 2; press += 1) {
      const confirmed = await app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.body).toContain('Thanks, your address is confirmed');
    }
    await sink.waitFor((mails) => mailsTo(mails, victim).length > 1);
    await mailJobsSettled(app);
    const [, transcript, ...after] = mailsTo(sink.accepted, victim);
    expect(after).toEqual([]);
    expect(transcript!.subject).toBe('Your chat with Lotwise');
    expect(transcript!.text).toContain(lure);

    // Confirmed now: the next transcript of this address goes at once.
    const next = await startConversation(app, staff, victim);
    const again = await askTranscript(app, next.sessionId, next.cookie);
    expect(again.json()).toEqual({ email: victim, confirmationSent: false });
    await sink.waitFor((mails) => mailsTo(mails, victim).length > 2);
  });

  it('staff asking for a transcript to an unconfirmed address send only the confirmation too', async () => {
    const email = newEmail();
    const { sessionId } = await startConversation(app, staff, email);
    const asked = await askTranscript(app, sessionId, staff.cookie);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ email, confirmationSent: true });
    await sink.waitFor((mails) => mailsTo(mails, email).length > 0);
    await mailJobsSettled(app);
    expect(mailsTo(sink.accepted, email).map((mail) => mail.subject)).toEqual(['Confirm your address to receive your Lotwise conversation']);
  });

  it('to an address its conversation link proved: mailed at once, the whole conversation, text and HTML with their words escaped', async () => {
    const email = newEmail();
    const { sessionId, cookie } = await startConversation(app, staff, email);
    await openConversationLink(app, secret, sessionId, visitorCookie(app));
    const asked = await askTranscript(app, sessionId, cookie);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ email, confirmationSent: false });
    await sink.waitFor((mails) => mails.some((mail) => mail.to === email));
    const [mail, ...more] = sink.accepted.filter((each) => each.to === email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Your chat with Lotwise');
    expect(mail!.text).toContain('Lee <Park>, ');
    expect(mail!.text).toContain('  <img src=x onerror=alert(1)> & "quotes"');
    expect(mail!.text).toContain('Happy to help');
    expect(mail!.html).toContain('&#60;img src=x onerror=alert(1)&#62; &#38; &#34;quotes&#34;');
    expect(mail!.html).toContain('Lee &#60;Park&#62;');
    expect(mail!.html).not.toMatch(/<img|<Park>/);
    expect(mail!.headers['list-unsubscribe']).toMatch(/^<http:\/\/localhost:3000\/unsubscribe\?token=/);
  });

  it('at most one per conversation per 10 minutes, whoever asks: a clear 429', async () => {
    const { sessionId, cookie } = await startConversation(app, staff, newEmail());
    expect((await askTranscript(app, sessionId, cookie)).statusCode).toBe(202);
    for (const asker of [cookie, staff.cookie]) {
      const again = await askTranscript(app, sessionId, asker);
      expect(again.statusCode).toBe(429);
      expect(again.json()).toEqual({ message: 'A transcript of this conversation was sent a moment ago: please wait 10 minutes before asking again.' });
    }
    expect(await app.db.selectFrom('chatTranscriptRequests').select('id').where('sessionId', '=', sessionId).execute()).toHaveLength(1);
  });

  it('at most five a day to one address, whatever its case, even asked all at once (counted under a lock on the address)', async () => {
    const email = newEmail();
    const cookie = visitorCookie(app);
    const sessions: string[] = [];
    for (let index = 0; index < 15; index += 1) sessions.push((await startConversation(app, staff, index % 2 ? email.toUpperCase() : email, cookie)).sessionId);
    const answers = await Promise.all(sessions.map((sessionId) => askTranscript(app, sessionId, cookie)));
    expect(answers.filter((answer) => answer.statusCode === 202)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.json()).toEqual({ message: 'This email address has had 5 transcripts today: please try again tomorrow.' });
    const stored = await app.db.selectFrom('chatTranscriptRequests').select('id').where('email', '=', email).execute();
    expect(stored).toHaveLength(5);
  });

  it('staff may send any conversation’s; a chat without an email, another visitor’s and an unknown one are refused', async () => {
    const email = newEmail();
    const { sessionId } = await startConversation(app, staff, email);
    const stranger = visitorCookie(app);
    for (const cookie of [stranger, undefined]) {
      const refused = await askTranscript(app, sessionId, cookie);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ message: 'Chat session not found' });
    }
    expect((await askTranscript(app, newSessionId(), staff.cookie)).statusCode).toBe(404);
    expect((await askTranscript(app, 'bad id!', staff.cookie)).statusCode).toBe(400);
    const sent = await askTranscript(app, sessionId, staff.cookie);
    expect(sent.statusCode).toBe(202);
    await sink.waitFor((mails) => mails.some((mail) => mail.to === email));

    const noEmail = await startConversation(app, staff);
    for (const cookie of [noEmail.cookie, staff.cookie]) {
      const refused = await askTranscript(app, noEmail.sessionId, cookie);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ message: 'We have no email for this conversation yet: add yours to a message, then ask again.' });
    }
  });

  it('an address that unsubscribed (or was erased) gets nothing, whoever asks: a clear 409', async () => {
    const email = newEmail();
    const { sessionId, cookie } = await startConversation(app, staff, email);
    await openConversationLink(app, secret, sessionId, cookie);
    const unsubscribe = new URL(app.mail.unsubscribeLinkFor(email));
    const oneClick = await app.inject({ method: 'POST', url: `${unsubscribe.pathname}${unsubscribe.search}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(oneClick.statusCode).toBe(200);
    const row = await app.db.selectFrom('mailAddresses').selectAll().where('addressHash', '=', addressHash(email)).executeTakeFirstOrThrow();
    expect(row.suppressedReason).toBe('unsubscribed');
    for (const asker of [staff.cookie, cookie]) {
      const refused = await askTranscript(app, sessionId, asker);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ message: 'This address unsubscribed from our emails, so no transcript can be sent.' });
    }
    await mailJobsSettled(app);
    expect(mailsTo(sink.accepted, email)).toEqual([]);
  });
});
