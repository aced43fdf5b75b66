import { afterEach, describe, expect, it } from 'vitest';
import { chatLimits } from '../../../contract/brand';
import type { ChatMessage, ChatSessionContext } from '../../../contract/chat';
import { leadPaths } from '../../../contract/paths';
import type { AckAnswer } from '../../../contract/socket';
import { contactSubmission, demoRequest, getStartedRequest, signInNewStaff, supportTicket } from '../../../../test/support/factories';
import { buildTestServer } from '../../../../test/support/helper';
import { closeClients, connected } from '../../../../test/support/sockets';
import { visitorClient, visitorCookie, type VisitorClient } from '../../../../test/support/visitor-socket';

let sessionCounter = 0;
const newSessionId = () => `session_${Date.now()}_ctx${(sessionCounter += 1)}`;

const sendOverSocket = (socket: VisitorClient, payload: Record<string, unknown>) =>
  socket.emitWithAck('chat:send', payload as never) as Promise<AckAnswer<{ message: ChatMessage }>>;
const pageOverSocket = (socket: VisitorClient, payload: { sessionId: string; url: string }) =>
  socket.timeout(5000).emitWithAck('chat:page', payload) as Promise<AckAnswer>;

afterEach(() => closeClients());

describe('the visitor context of a conversation', async () => {
  const { app } = await buildTestServer({}, { listen: true });
  const staff = await signInNewStaff(app);

  const send = (cookie: string, body: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie }, payload: body });
  const context = (sessionId: string, cookie = staff.cookie) =>
    app.inject({ method: 'GET', url: `/api/chat-sessions/${sessionId}/context`, headers: cookie ? { cookie } : {} });
  const contextOf = async (sessionId: string) => {
    const answer = await context(sessionId);
    expect(answer.statusCode).toBe(200);
    return answer.json<ChatSessionContext>();
  };
  const pageViewCount = async () => Number((await app.db.selectFrom('chatPageViews').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const connectedVisitor = async (cookie = visitorCookie(app)) => {
    const socket = visitorClient(app, cookie);
    await connected(socket);
    return socket;
  };

  describe('the first message', () => {
    it('keeps the time zone and the pages of the visit, without query or fragment; a later message’s are ignored', async () => {
      const cookie = visitorCookie(app);
      const sessionId = newSessionId();
      const first = await send(cookie, {
        sessionId,
        message: 'Hello',
        timeZone: 'America/Chicago',
        pages: [
          { url: 'http://localhost:3000/', at: '2026-12-02T10:00:00.000Z' },
          { url: 'http://localhost:3000/reset-password?token=pagesecret#top', at: '2026-12-02T10:01:00.000Z' },
          { url: 'http://localhost:3000/pricing#plans', at: '2026-12-02T10:02:00Z' },
        ],
      });
      expect(first.statusCode).toBe(201);
      const later = await send(cookie, {
        sessionId,
        message: 'Still there?',
        timeZone: 'Europe/Paris',
        pages: [{ url: 'http://localhost:3000/about', at: '2026-12-02T10:05:00.000Z' }],
      });
      expect(later.statusCode).toBe(201);

      const shown = await contextOf(sessionId);
      expect(shown).toMatchObject({ sessionId, timeZone: 'America/Chicago' });
      expect(shown.pages).toEqual([
        { url: 'http://localhost:3000/', at: '2026-12-02T10:00:00.000Z' },
        { url: 'http://localhost:3000/reset-password', at: '2026-12-02T10:01:00.000Z' },
        { url: 'http://localhost:3000/pricing', at: '2026-12-02T10:02:00Z' },
      ]);
      const stored = await app.db.selectFrom('chatPageViews').select('url').where('sessionId', '=', sessionId).execute();
      expect(JSON.stringify(stored)).not.toMatch(/secret|#/);
    });

    it('keeps them when the first message comes over the socket too', async () => {
      const socket = await connectedVisitor();
      const sessionId = newSessionId();
      const sent = await sendOverSocket(socket, { sessionId, message: 'Hi', timeZone: 'Asia/Tokyo', pages: [{ url: 'https://lotwise.example/features?ref=x', at: '2026-12-02T11:00:00.000Z' }] });
      expect(sent.ok).toBe(true);
      expect(await contextOf(sessionId)).toMatchObject({ timeZone: 'Asia/Tokyo', pages: [{ url: 'https://lotwise.example/features', at: '2026-12-02T11:00:00.000Z' }] });
    });

    const refused: [string, Record<string, unknown>, string][] = [
      ['a time zone that does not exist', { timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
      ['a time zone over 64 characters', { timeZone: `America/${'x'.repeat(60)}` }, 'timeZone'],
      ['a time zone that is not text', { timeZone: 5 }, 'timeZone'],
      ['more than 20 pages', { pages: Array.from({ length: 21 }, (_, index) => ({ url: `http://localhost:3000/p${index}`, at: '2026-12-02T10:00:00.000Z' })) }, 'pages'],
      ['a page that is not http(s)', { pages: [{ url: 'javascript:alert(1)', at: '2026-12-02T10:00:00.000Z' }] }, 'pages'],
      ['a page over 2000 characters', { pages: [{ url: `http://localhost:3000/${'a'.repeat(2000)}`, at: '2026-12-02T10:00:00.000Z' }] }, 'pages'],
      ['a page time that is not a timestamp', { pages: [{ url: 'http://localhost:3000/', at: 'yesterday' }] }, 'pages'],
    ];
    it.each(refused)('refuses %s with 400 naming the field, storing nothing', async (_label, extra, field) => {
      const sessionId = newSessionId();
      const answer = await send(visitorCookie(app), { sessionId, message: 'Hello', ...extra });
      expect(answer.statusCode).toBe(400);
      expect(Object.keys(answer.json<{ errors: Record<string, string> }>().errors)).toEqual([field]);
      expect(await app.db.selectFrom('chatSessions').select('id').where('id', '=', sessionId).executeTakeFirst()).toBeUndefined();
    });

    it('answers a bad time zone over the socket with an ack error naming the field', async () => {
      const socket = await connectedVisitor();
      const sessionId = newSessionId();
      const answer = await sendOverSocket(socket, { sessionId, message: 'Hello', timeZone: 'Not/AZone' });
      expect(answer).toEqual({ ok: false, error: 'timeZone must be an IANA time zone such as America/Chicago' });
      expect(await app.db.selectFrom('chatSessions').select('id').where('id', '=', sessionId).executeTakeFirst()).toBeUndefined();
    });
  });

  describe('chat:page', () => {
    it('records a page for the session’s owner, without query or fragment, and not for a stranger or a session not started', async () => {
      const cookie = visitorCookie(app);
      const sessionId = newSessionId();
      await send(cookie, { sessionId, message: 'Hello', pages: [{ url: 'http://localhost:3000/', at: '2026-12-02T10:00:00.000Z' }] });
      const owner = await connectedVisitor(cookie);
      const stranger = await connectedVisitor();

      expect(await pageOverSocket(owner, { sessionId, url: 'http://localhost:3000/inventory?token=abc#x' })).toEqual({ ok: true });
      const before = await pageViewCount();
      // The same answer for someone else's session as for one nobody started: ids reveal nothing.
      expect(await pageOverSocket(stranger, { sessionId, url: 'http://localhost:3000/intruder' })).toEqual({ ok: false, error: 'Chat session not found' });
      expect(await pageOverSocket(owner, { sessionId: newSessionId(), url: 'http://localhost:3000/x' })).toEqual({ ok: false, error: 'Chat session not found' });
      expect(await pageOverSocket(owner, { sessionId, url: 'ftp://localhost/file' })).toMatchObject({ ok: false, error: expect.stringMatching(/^A page's url/) });
      expect(await pageOverSocket(owner, { sessionId: '../etc', url: 'http://localhost:3000/' })).toMatchObject({ ok: false });
      expect(await pageViewCount()).toBe(before);

      const pages = (await contextOf(sessionId)).pages;
      expect(pages.map((page) => page.url)).toEqual(['http://localhost:3000/', 'http://localhost:3000/inventory']);
      expect(Date.now() - new Date(pages[1]!.at).getTime()).toBeLessThan(60_000);
    });

    it(`keeps at most ${chatLimits.pageTextStoredMaxLength} characters of a page address, however long the one sent`, async () => {
      const cookie = visitorCookie(app);
      const sessionId = newSessionId();
      const long = (name: string) => `http://localhost:3000/${name}/${'a'.repeat(1900)}`;
      const sent = await send(cookie, {
        sessionId,
        message: 'Hello',
        pageUrl: long('landing'),
        referrer: `https://search.example/?q=${'b'.repeat(1900)}`,
        pages: [{ url: long('first'), at: '2026-12-02T10:00:00.000Z' }],
      });
      expect(sent.statusCode).toBe(201);
      const owner = await connectedVisitor(cookie);
      expect(await pageOverSocket(owner, { sessionId, url: long('later') })).toEqual({ ok: true });
      expect(await pageOverSocket(owner, { sessionId, url: 'http://localhost:3000/short' })).toEqual({ ok: true });

      const max = chatLimits.pageTextStoredMaxLength;
      const cut = (text: string) => `${text.slice(0, max - 1)}…`;
      const shown = await contextOf(sessionId);
      expect(shown.pages.map((page) => page.url)).toEqual([cut(long('first')), cut(long('later')), 'http://localhost:3000/short']);
      expect(shown.pageUrl).toBe(cut(long('landing')));
      expect(shown.referrer).toBe(cut(`https://search.example/?q=${'b'.repeat(1900)}`));
      const stored = await app.db.selectFrom('chatPageViews').select('url').where('sessionId', '=', sessionId).execute();
      expect(Math.max(...stored.map((row) => row.url.length))).toBe(max);
    });

    it('counts against the socket’s event budget', async () => {
      const cookie = visitorCookie(app);
      const sessionId = newSessionId();
      await send(cookie, { sessionId, message: 'Hello' });
      const socket = await connectedVisitor(cookie);
      const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => pageOverSocket(socket, { sessionId, url: `http://localhost:3000/flood/${index}` })));
      expect(answers.some((answer) => !answer.ok && answer.error === 'Too many events: please slow down')).toBe(true);
      expect(answers.filter((answer) => answer.ok).length).toBeLessThan(40);
    });

    it(`keeps the newest ${chatLimits.pageViewsPerSession} pages of a session`, async () => {
      // A server whose loopback is allowlisted: the event budget would otherwise pace this test.
      const { app: roomy } = await buildTestServer({ RATE_LIMIT_ALLOWLIST: '127.0.0.1' }, { listen: true });
      const roomyStaff = await signInNewStaff(roomy);
      const cookie = visitorCookie(roomy);
      const sessionId = newSessionId();
      const firstPages = Array.from({ length: 20 }, (_, index) => ({ url: `http://localhost:3000/first/${index}`, at: '2026-12-02T10:00:00.000Z' }));
      await roomy.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie }, payload: { sessionId, message: 'Hello', pages: firstPages } });
      const socket = visitorClient(roomy, cookie);
      await connected(socket);
      for (let index = 0; index < 40; index += 1) {
        expect(await pageOverSocket(socket, { sessionId, url: `http://localhost:3000/later/${index}` })).toEqual({ ok: true });
      }
      const stored = await roomy.db.selectFrom('chatPageViews').select('url').where('sessionId', '=', sessionId).orderBy('id').execute();
      const expected = [...firstPages.map((page) => page.url), ...Array.from({ length: 40 }, (_, index) => `http://localhost:3000/later/${index}`)].slice(-50);
      expect(stored.map((row) => row.url)).toEqual(expected);
      const shown = await roomy.inject({ method: 'GET', url: `/api/chat-sessions/${sessionId}/context`, headers: { cookie: roomyStaff.cookie } });
      expect(shown.json<ChatSessionContext>().pages.map((page) => page.url)).toEqual(expected);
    });
  });

  describe('GET /api/chat-sessions/:sessionId/context', () => {
    it('names the earlier conversations and leads of the same email in any case, or of the same visitor, and nothing of other emails', async () => {
      const email = `Ann.${Date.now()}@Dealer.example`;
      const visitor = visitorCookie(app);
      const otherDevice = visitorCookie(app);
      const stranger = visitorCookie(app);
      // On another device, by email only; then the same visitor without an email; then a stranger.
      const byEmail = newSessionId();
      await send(otherDevice, { sessionId: byEmail, message: 'Asked on my phone', senderEmail: email.toUpperCase() });
      await send(otherDevice, { sessionId: byEmail, message: 'Thanks!' });
      const strangers = newSessionId();
      await send(stranger, { sessionId: strangers, message: 'Not Ann', senderEmail: `someone.else.${Date.now()}@dealer.example` });
      const byVisitor = newSessionId();
      await send(visitor, { sessionId: byVisitor, message: 'Anonymous question' });
      await app.inject({ method: 'PATCH', url: `/api/chat-sessions/${byVisitor}`, headers: { cookie: staff.cookie }, payload: { status: 'resolved' } });

      const post = async (path: string, body: object) => expect((await app.inject({ method: 'POST', url: path, payload: body })).statusCode).toBe(201);
      await post(leadPaths.contact.create, contactSubmission({ email: email.toLowerCase(), subject: 'pricing' }));
      await post(leadPaths.support.create, supportTicket({ email, subject: 'Feed not updating' }));
      await post(leadPaths.demo.create, demoRequest({ email: email.toUpperCase(), company: 'Ann Motors' }));
      await post(leadPaths['get-started'].create, getStartedRequest({ email, firstName: 'Ann', lastName: 'Lee', dealershipName: 'Lee Auto' }));
      await post(leadPaths.demo.create, demoRequest({ email: `not.ann.${Date.now()}@dealer.example` }));

      const current = newSessionId();
      await send(visitor, { sessionId: current, message: 'Back again', senderEmail: email.toLowerCase(), timeZone: 'America/New_York' });

      const shown = await contextOf(current);
      expect(shown).toMatchObject({ sessionId: current, timeZone: 'America/New_York', pages: [] });
      expect(shown.earlierConversations).toEqual([
        { id: byVisitor, lastMessage: 'Anonymous question', lastActivity: expect.any(String), status: 'resolved', messageCount: 1 },
        { id: byEmail, lastMessage: 'Thanks!', lastActivity: expect.any(String), status: 'open', messageCount: 2 },
      ]);
      const leads = shown.leads.map(({ kind, name, email: leadEmail, summary, status }) => ({ kind, name, email: leadEmail, summary, status }));
      expect(leads.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
        { kind: 'contact', name: 'Sam Carter', email: email.toLowerCase(), summary: 'Pricing Information', status: 'new' },
        { kind: 'demo', name: 'Dana Reyes', email: email.toUpperCase(), summary: 'Ann Motors', status: 'new' },
        { kind: 'get-started', name: 'Ann Lee', email, summary: 'Lee Auto', status: 'new' },
        { kind: 'support', name: 'Lee Park', email, summary: 'Feed not updating', status: 'new' },
      ]);
      // Newest first (posted one after the other: two may share a millisecond, so the order is checked by time).
      const createdAts = shown.leads.map((lead) => lead.createdAt);
      expect([...createdAts].sort().reverse()).toEqual(createdAts);

      // The stranger's conversation sees none of Ann's.
      expect(await contextOf(strangers)).toMatchObject({ earlierConversations: [], leads: [] });
    });

    it('answers a visitor or no session with 401, and an unknown session with a 404 in JSON', async () => {
      const sessionId = newSessionId();
      await send(visitorCookie(app), { sessionId, message: 'Hello' });
      for (const cookie of [visitorCookie(app), '']) {
        const answer = await context(sessionId, cookie);
        expect(answer.statusCode).toBe(401);
        expect(answer.json()).toEqual({ message: 'Not authenticated' });
      }
      const unknown = await context(newSessionId());
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: 'Chat session not found' });
      expect((await context('bad id!')).statusCode).toBe(400);
    });
  });
});
