import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatSessionSummary } from '../../../contract/chat';
import type { ChatRating, ChatRatingState } from '../../../contract/chat-rating';
import { buildTestServer } from '../../../../test/support/helper';
import { signInNewStaff } from '../../../../test/support/factories';
import { closeClients, collect, nextEvent } from '../../../../test/support/sockets';
import { connectStaffSocket } from '../../../../test/support/staff-socket';
import { startSmtpSink } from '../../../../test/support/smtp-sink';
import { pause, visitorClient, visitorCookie } from '../../../../test/support/visitor-socket';
import { ratingLinkToken } from './chat.rating-link';

let sessionCounter = 0;
const newSessionId = () => `session_${Date.now()}_rate${(sessionCounter += 1)}`;

type SendAck = { ok: true; message: ChatMessage } | { ok: false; error: string };

afterEach(() => closeClients());

describe('rating a conversation', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const askDelayMs = 600;
  const { app, config } = await buildTestServer(
    { SMTP_URL: sink.url, RATING_ASK_DELAY_SECONDS: String(askDelayMs / 1000), JOBS_POLL_MS: '50', RATE_LIMIT_ALLOWLIST: '127.0.0.1' },
    { listen: true },
  );
  const staff = await signInNewStaff(app);

  const sendOverRest = async (cookie: string, sessionId: string, message: string, senderEmail?: string) => {
    const sent = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie }, payload: { sessionId, message, ...(senderEmail ? { senderEmail } : {}) } });
    expect(sent.statusCode).toBe(201);
  };
  /** A visitor whose widget is open: their socket sent the first message, so it is in the session's room. */
  const presentVisitor = async (sessionId: string) => {
    const cookie = visitorCookie(app);
    const socket = visitorClient(app, cookie);
    const ack = (await socket.emitWithAck('chat:send', { sessionId, message: 'Do you build sites for small lots?' })) as SendAck;
    expect(ack.ok).toBe(true);
    return { cookie, socket };
  };
  /** A visitor whose widget is open and who was asked "How did we do?" (staff resolved the conversation). */
  const askedVisitor = async (sessionId: string) => {
    const visitor = await presentVisitor(sessionId);
    const asked = nextEvent(visitor.socket, 'chat:rating-asked');
    await setStatus(sessionId, 'resolved');
    await asked;
    return visitor;
  };
  const reply = async (sessionId: string, message = 'We do!') => {
    const answer = await app.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie: staff.cookie }, payload: { sessionId, message } });
    expect(answer.statusCode).toBe(201);
  };
  const setStatus = async (sessionId: string, status: 'open' | 'resolved') => {
    const answer = await app.inject({ method: 'PATCH', url: `/api/chat-sessions/${sessionId}`, headers: { cookie: staff.cookie }, payload: { status } });
    expect(answer.statusCode).toBe(200);
  };
  const rate = (cookie: string | undefined, sessionId: string, payload: unknown) =>
    app.inject({ method: 'POST', url: `/api/chat-rating/${sessionId}`, headers: cookie ? { cookie } : {}, payload: payload as Record<string, unknown> });
  const stateOf = (cookie: string | undefined, sessionId: string) =>
    app.inject({ method: 'GET', url: `/api/chat-rating/${sessionId}`, headers: cookie ? { cookie } : {} });
  const storedRating = async (sessionId: string) =>
    app.db.selectFrom('chatSessions').select(['rating', 'ratingComment', 'ratedAt', 'ratingAskedAt']).where('id', '=', sessionId).executeTakeFirstOrThrow();
  const staffSummary = async (sessionId: string) =>
    (await app.inject({ method: 'GET', url: `/api/chat-sessions/${sessionId}`, headers: { cookie: staff.cookie } })).json<ChatSessionSummary>();
  const jobsOf = (kind: string) => (sessionId: string) =>
    app.db.selectFrom('jobs').selectAll().where('kind', '=', kind).where('payload', 'like', `%${sessionId}%`).execute();
  const askJobs = jobsOf('chat-rating-ask');
  const mailJobs = jobsOf('chat-rating-mail');

  it('asks the visitor when staff resolve; the rating is stored and pushed to staff', async () => {
    const sessionId = newSessionId();
    const { cookie, socket } = await presentVisitor(sessionId);
    const staffSocket = await connectStaffSocket(app, staff.cookie);
    const asked = nextEvent(socket, 'chat:rating-asked');
    await setStatus(sessionId, 'resolved');
    expect(await asked).toEqual({ sessionId });
    expect((await stateOf(cookie, sessionId)).json<ChatRatingState>()).toEqual({ asked: true, rating: null });

    const updates = collect<ChatSessionSummary>(staffSocket, 'chat-session:updated');
    const rated = await rate(cookie, sessionId, { rating: 'bad', comment: '  Took a while to answer.  ' });
    expect(rated.statusCode).toBe(200);
    expect(rated.json<ChatRating>()).toMatchObject({ rating: 'bad', comment: 'Took a while to answer.' });
    await expect.poll(() => updates.find((update) => update.id === sessionId)?.rating?.rating).toBe('bad');
    expect((await staffSummary(sessionId)).rating).toMatchObject({ rating: 'bad', comment: 'Took a while to answer.' });
    expect((await stateOf(cookie, sessionId)).json<ChatRatingState>().rating).toMatchObject({ rating: 'bad' });
    // The visitor was there: nobody is mailed.
    expect(sink.accepted).toEqual([]);
  });

  it('refuses a rating nobody asked for, changing nothing; once asked, the same rating counts', async () => {
    const sessionId = newSessionId();
    const { cookie, socket } = await presentVisitor(sessionId);
    await reply(sessionId, 'Happy to help');
    const early = await rate(cookie, sessionId, { rating: 'bad', comment: 'Rated before anyone asked' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: 'This conversation has not been asked for a rating yet' });
    expect(await storedRating(sessionId)).toMatchObject({ rating: null, ratingComment: null, ratedAt: null, ratingAskedAt: null });
    expect((await staffSummary(sessionId)).rating).toBeNull();

    const asked = nextEvent(socket, 'chat:rating-asked');
    await setStatus(sessionId, 'resolved');
    await asked;
    expect((await rate(cookie, sessionId, { rating: 'good' })).statusCode).toBe(200);
    expect((await staffSummary(sessionId)).rating).toMatchObject({ rating: 'good' });
  });

  it('refuses bad input, and a second rating, changing nothing', async () => {
    const sessionId = newSessionId();
    const { cookie } = await askedVisitor(sessionId);
    for (const payload of [{}, { rating: 'meh' }, { rating: 'good', comment: 'x'.repeat(1001) }, { rating: 'good', stars: 5 }, { rating: 'good', comment: 'a\u0000b' }]) {
      const answer = await rate(cookie, sessionId, payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await storedRating(sessionId)).toMatchObject({ rating: null, ratingComment: null, ratedAt: null });

    expect((await rate(cookie, sessionId, { rating: 'good' })).statusCode).toBe(200);
    const first = await storedRating(sessionId);
    const again = await rate(cookie, sessionId, { rating: 'bad', comment: 'changed my mind' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'This conversation has been rated already. Thank you!' });
    expect(await storedRating(sessionId)).toEqual(first);
    expect(first).toMatchObject({ rating: 'good', ratingComment: null });
  });

  it('limits rating posts per address, widget and mailed link alike: the 21st in a minute gets 429 and changes nothing', async () => {
    const sessionId = newSessionId();
    const { cookie } = await askedVisitor(sessionId);
    const rateFrom = (remoteAddress: string, payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: `/api/chat-rating/${sessionId}`, headers: { cookie }, payload, remoteAddress });
    const statuses = [];
    for (let index = 0; index < 20; index += 1) statuses.push((await rateFrom('10.5.0.1', { rating: 'meh' })).statusCode);
    expect(statuses).toEqual(Array<number>(20).fill(400));
    const refused = await rateFrom('10.5.0.1', { rating: 'good' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: expect.stringMatching(/^Too many requests: please wait \d+ seconds and try again$/) as unknown });
    expect((await storedRating(sessionId)).rating).toBeNull();
    // Another address is counted apart.
    expect((await rateFrom('10.5.0.2', { rating: 'good' })).statusCode).toBe(200);

    const byLinkFrom = (remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/chat-rating-by-link', payload: { token: 'forged', rating: 'bad' }, remoteAddress });
    const linkStatuses = [];
    for (let index = 0; index < 20; index += 1) linkStatuses.push((await byLinkFrom('10.5.0.3')).statusCode);
    expect(linkStatuses.every((status) => status >= 400 && status < 429)).toBe(true);
    const linkRefused = await byLinkFrom('10.5.0.3');
    expect(linkRefused.statusCode).toBe(429);
    expect(linkRefused.json()).toEqual({ message: expect.stringMatching(/^Too many requests: please wait \d+ seconds and try again$/) as unknown });
  });

  it("answers another visitor's session, or one without a visitor cookie, as not found", async () => {
    const sessionId = newSessionId();
    await presentVisitor(sessionId);
    const stranger = visitorCookie(app);
    for (const cookie of [stranger, undefined]) {
      expect((await rate(cookie, sessionId, { rating: 'bad' })).statusCode).toBe(404);
      expect((await stateOf(cookie, sessionId)).statusCode).toBe(404);
    }
    expect((await rate(stranger, 'session_nobody_has_this', { rating: 'bad' })).statusCode).toBe(404);
    expect((await storedRating(sessionId)).rating).toBeNull();
  });

  it('asks 30 minutes (here shortened) after the last staff reply, as a job; not when the visitor wrote since', async () => {
    const quiet = newSessionId();
    const { cookie, socket } = await presentVisitor(quiet);
    const askedQuiet = collect<{ sessionId: string }>(socket, 'chat:rating-asked');
    await reply(quiet, 'First answer');
    await reply(quiet, 'And a second one');
    const jobs = await askJobs(quiet);
    expect(jobs).toHaveLength(2);
    const lastReply = await app.db.selectFrom('chatMessages').select('createdAt').where('sessionId', '=', quiet).orderBy('seq', 'desc').executeTakeFirstOrThrow();
    expect(Math.max(...jobs.map((job) => Number(job.runAt)))).toBe(Date.parse(lastReply.createdAt) + askDelayMs);
    expect(askedQuiet).toEqual([]);

    const answered = newSessionId();
    const other = await presentVisitor(answered);
    const askedAnswered = collect<{ sessionId: string }>(other.socket, 'chat:rating-asked');
    await reply(answered);
    await sendOverRest(other.cookie, answered, 'Thanks, one more question');

    await expect.poll(() => askedQuiet, { timeout: 5000 }).toEqual([{ sessionId: quiet }]);
    expect((await stateOf(cookie, quiet)).json<ChatRatingState>().asked).toBe(true);
    await expect.poll(async () => (await askJobs(answered)).every((job) => job.state === 'done'), { timeout: 5000 }).toBe(true);
    await pause(100);
    expect(askedAnswered).toEqual([]);
    expect((await stateOf(other.cookie, answered)).json<ChatRatingState>().asked).toBe(false);
    // Both of the quiet session's jobs ran; only the last reply's asked, once.
    expect(askedQuiet).toHaveLength(1);
  });

  it('mails the question, once, to a visitor who left; its link rates; a forged or expired token is refused', async () => {
    const sessionId = newSessionId();
    const email = `gone-${sessionCounter}@dealer.example`;
    await sendOverRest(visitorCookie(app), sessionId, 'Call me back tomorrow?', email);
    await reply(sessionId, 'Will do');
    await setStatus(sessionId, 'resolved');
    await sink.waitFor((accepted) => accepted.some((mail) => mail.to === email));
    // Reopened and resolved again: asked once, so mailed once.
    await setStatus(sessionId, 'open');
    await setStatus(sessionId, 'resolved');
    await pause(400);
    const mails = sink.accepted.filter((mail) => mail.to === email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe('How did we do?');
    expect(mail!.html).toContain('Good');
    expect(mail!.headers['list-unsubscribe']).toMatch(/^<http:\/\/localhost:3000\/unsubscribe\?token=/);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const goodLink = /Good: (\S+)/.exec(mail!.text)![1]!;
    const badLink = /Bad: (\S+)/.exec(mail!.text)![1]!;
    expect(goodLink).toMatch(/^http:\/\/localhost:3000\/rate\?token=[^&]+&rating=good$/);
    const token = new URL(badLink).searchParams.get('token')!;

    // A mail scanner following the link (a GET) rates nothing.
    await app.inject({ method: 'GET', url: new URL(goodLink).pathname + new URL(goodLink).search });
    expect((await storedRating(sessionId)).rating).toBeNull();

    const byLink = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/chat-rating-by-link', payload });
    const forged = `${token.slice(0, -4)}AAAA`;
    const otherSession = `${newSessionId()}${token.slice(token.indexOf('.'))}`;
    for (const bad of [forged, otherSession, 'not-a-token']) {
      const answer = await byLink({ token: bad, rating: 'good' });
      expect(answer.statusCode, bad).toBe(400);
      // A malformed one fails the body's schema; a well-formed one its signature: the same words either way.
      expect(answer.body).toContain('This rating link is not valid');
    }
    const expired = await byLink({ token: ratingLinkToken(config.sessionSecret, sessionId, Date.now() - 30 * 24 * 60 * 60 * 1000 - 1000), rating: 'good' });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual({ message: 'This rating link has expired' });
    expect((await byLink({ token, rating: 'so-so' })).statusCode).toBe(400);
    expect((await storedRating(sessionId)).rating).toBeNull();

    const rated = await byLink({ token, rating: 'bad', comment: 'Nobody called.' });
    expect(rated.statusCode).toBe(200);
    expect((await staffSummary(sessionId)).rating).toMatchObject({ rating: 'bad', comment: 'Nobody called.' });
    expect((await byLink({ token, rating: 'good' })).statusCode).toBe(409);
  });

  it('mails no question to an address that unsubscribed from our chat mail', async () => {
    const sessionId = newSessionId();
    const email = `unsubscribed-${sessionCounter}@dealer.example`;
    await sendOverRest(visitorCookie(app), sessionId, 'No more mail, please', email);
    // Its one-click unsubscribe, as a mail client would POST it (chat.continuity.ts).
    const unsubscribe = new URL(app.mail.unsubscribeLinkFor(email));
    expect((await app.inject({ method: 'POST', url: unsubscribe.pathname + unsubscribe.search, payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).statusCode).toBe(200);
    await reply(sessionId, 'Understood');
    await setStatus(sessionId, 'resolved');
    await expect.poll(async () => (await mailJobs(sessionId)).length > 0 && (await mailJobs(sessionId)).every((job) => job.state === 'done'), { timeout: 5000 }).toBe(true);
    await pause(200);
    expect(sink.accepted.filter((mail) => mail.to === email)).toEqual([]);
  });

  it('mails nobody who left without an email, and asks a resolved session only once', async () => {
    const sessionId = newSessionId();
    const cookie = visitorCookie(app);
    await sendOverRest(cookie, sessionId, 'Just browsing');
    const before = sink.accepted.length;
    await setStatus(sessionId, 'resolved');
    await expect.poll(async () => (await storedRating(sessionId)).ratingAskedAt, { timeout: 5000 }).not.toBeNull();
    await pause(200);
    expect(sink.accepted.length).toBe(before);
    // Their widget asks when it next loads.
    expect((await stateOf(cookie, sessionId)).json<ChatRatingState>()).toEqual({ asked: true, rating: null });
  });
});
