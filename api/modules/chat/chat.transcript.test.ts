import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPaths, pathTo } from '../../contract/paths';
import { signInNewStaff, type StaffSignIn } from '../../../test/support/factories';
import { buildTestServer } from '../../../test/support/helper';
import { startSmtpSink } from '../../../test/support/smtp-sink';
import { visitorCookie } from '../../../test/support/visitor-socket';

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

describe('transcripts', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const { app } = await buildTestServer({ SMTP_URL: sink.url, RATE_LIMIT_ALLOWLIST: '127.0.0.1', JOBS_RETRY_BASE_SECONDS: '0.2', CONTINUITY_DELAY_SECONDS: '3600' });
  const staff = await signInNewStaff(app);

  it('the visitor’s: mailed to the conversation’s own email, the whole conversation, text and HTML with their words escaped', async () => {
    const email = newEmail();
    const { sessionId, cookie } = await startConversation(app, staff, email);
    const asked = await askTranscript(app, sessionId, cookie);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ email });
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

  it('at most five a day to one address, whatever its case', async () => {
    const email = newEmail();
    const cookie = visitorCookie(app);
    for (let index = 0; index < 5; index += 1) {
      const { sessionId } = await startConversation(app, staff, index % 2 ? email.toUpperCase() : email, cookie);
      expect((await askTranscript(app, sessionId, cookie)).statusCode).toBe(202);
    }
    const { sessionId } = await startConversation(app, staff, email, cookie);
    const sixth = await askTranscript(app, sessionId, staff.cookie);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual({ message: 'This email address has had 5 transcripts today: please try again tomorrow.' });
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

  it('staff cannot mail an address that unsubscribed; the visitor asking for their own still gets it', async () => {
    const email = newEmail();
    const { sessionId, cookie } = await startConversation(app, staff, email);
    await app.db.insertInto('emailUnsubscribes').values({ email, createdAt: new Date().toISOString() }).execute();
    const refused = await askTranscript(app, sessionId, staff.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: 'This visitor unsubscribed from our emails, so no transcript can be sent.' });
    expect((await askTranscript(app, sessionId, cookie)).statusCode).toBe(202);
    await sink.waitFor((mails) => mails.some((mail) => mail.to === email));
    await sleep(100);
  });
});
