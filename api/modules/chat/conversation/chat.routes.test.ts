// @scaled: message inserts chain writes on PostgreSQL (chainsWrites)
import { describe, expect, it } from 'vitest';
import { chatLimits } from '../../../contract/brand';
import type { ChatMessage, ChatSessionSummary } from '../../../contract/chat';
import { socketLimits } from '../../../contract/socket';
import { buildTestServer, cookiesFrom } from '../../../../test/support/helper';
import { visitorCookie } from '../../../../test/support/visitor-socket';
import { signInNewStaff } from '../../../../test/support/factories';

let sessionCounter = 0;
const newSessionId = () => `session_${Date.now()}_rest${(sessionCounter += 1)}`;

describe('chat over REST', async () => {
  const { app } = await buildTestServer();
  const staff = await signInNewStaff(app);

  const countMessages = async () => Number((await app.db.selectFrom('chatMessages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const countSessions = async () => Number((await app.db.selectFrom('chatSessions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  const send = (cookie: string | undefined, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/chat-message', headers: { ...(cookie ? { cookie } : {}), ...headers }, payload: body });
  const read = (cookie: string | undefined, sessionId: string) =>
    app.inject({ method: 'GET', url: `/api/chat-messages/${sessionId}`, headers: cookie ? { cookie } : {} });

  describe('a visitor', () => {
    it('starts a session with the first message, is issued a visitor cookie, and reads it back', async () => {
      const sessionId = newSessionId();
      const sent = await send(undefined, { sessionId, message: '  Hello there  ', isFromUser: true });
      expect(sent.statusCode).toBe(201);
      const stored = sent.json<ChatMessage>();
      expect(stored).toMatchObject({ sessionId, message: 'Hello there', isFromUser: true, senderEmail: null });
      const cookie = cookiesFrom(sent);
      expect(cookie).toContain('lw_visitor=');

      const history = await read(cookie, sessionId);
      expect(history.statusCode).toBe(200);
      expect(history.json<ChatMessage[]>().map((row) => row.message)).toEqual(['Hello there']);
    });

    it('keeps the session to its owner: a stranger reads a 404 and cannot post into it', async () => {
      const owner = visitorCookie(app);
      const stranger = visitorCookie(app);
      const sessionId = newSessionId();
      expect((await send(owner, { sessionId, message: 'mine' })).statusCode).toBe(201);
      const before = await countMessages();

      expect((await read(stranger, sessionId)).statusCode).toBe(404);
      expect((await read(undefined, sessionId)).statusCode).toBe(404);
      const intrusion = await send(stranger, { sessionId, message: 'let me in' });
      expect(intrusion.statusCode).toBe(404);
      expect(intrusion.json()).toEqual({ message: 'Chat session not found' });
      expect(await countMessages()).toBe(before);
      expect((await read(owner, sessionId)).json<ChatMessage[]>().map((row) => row.message)).toEqual(['mine']);
    });

    it('refuses a stranger’s write without spoiling the writes committed beside it', async () => {
      const owner = visitorCookie(app);
      const stranger = visitorCookie(app);
      const sessionId = newSessionId();
      await send(owner, { sessionId, message: 'opening line' });
      const answers = await Promise.all([
        send(owner, { sessionId, message: 'together 1' }),
        send(stranger, { sessionId, message: 'intruding' }),
        send(owner, { sessionId, message: 'together 2' }),
        send(stranger, { sessionId: newSessionId(), message: 'my own session' }),
      ]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([201, 404, 201, 201]);
      const history = await read(owner, sessionId);
      const stored = history.json<ChatMessage[]>().map((row) => row.message);
      // The two sent at once may commit in either order (on PostgreSQL they do).
      expect(stored[0]).toBe('opening line');
      expect(stored.slice(1).sort()).toEqual(['together 1', 'together 2']);
    });

    it('gets the same 404 for a session nobody started as for a stranger’s', async () => {
      const answer = await read(visitorCookie(app), newSessionId());
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ message: 'Chat session not found' });
    });

    it('stores a retried send with the same clientId once and answers the stored row', async () => {
      const cookie = visitorCookie(app);
      const sessionId = newSessionId();
      const first = await send(cookie, { sessionId, message: 'only once', clientId: 'c-1' });
      const retry = await send(cookie, { sessionId, message: 'only once', clientId: 'c-1' });
      expect(first.statusCode).toBe(201);
      expect(retry.statusCode).toBe(200);
      expect(retry.json<ChatMessage>().id).toBe(first.json<ChatMessage>().id);
      expect(retry.json<ChatMessage>().clientId).toBe('c-1');
      expect(await read(cookie, sessionId).then((r) => r.json<ChatMessage[]>().length)).toBe(1);
    });

    it('keeps where the visitor was and their optional email on the chat session', async () => {
      const cookie = visitorCookie(app);
      const sessionId = newSessionId();
      await send(
        cookie,
        { sessionId, message: 'from pricing', pageUrl: 'http://localhost:3000/#pricing', referrer: 'https://search.example/' },
        { 'user-agent': 'TestBrowser/1.0' },
      );
      await send(cookie, { sessionId, message: 'my email', senderEmail: 'ann@dealer.example', pageUrl: 'http://localhost:3000/other' });
      const summary = await app.inject({ method: 'GET', url: `/api/chat-sessions/${sessionId}`, headers: { cookie: staff.cookie } });
      expect(summary.json<ChatSessionSummary>()).toMatchObject({
        pageUrl: 'http://localhost:3000/',
        referrer: 'https://search.example/',
        userAgent: 'TestBrowser/1.0',
        senderEmail: 'ann@dealer.example',
      });
    });

    it('keeps the page without its query and fragment, where a reset link carries its token, and shows staff no more', async () => {
      const sessionId = newSessionId();
      const sent = await send(visitorCookie(app), {
        sessionId,
        message: 'help with my reset',
        pageUrl: 'http://localhost:3000/reset-password?token=pagesecret123#x',
        referrer: 'http://localhost:3000/reset-password?token=referrersecret456#y',
      });
      expect(sent.statusCode).toBe(201);
      const list = await app.inject({ method: 'GET', url: '/api/chat-sessions', headers: { cookie: staff.cookie } });
      const shown = list.json<ChatSessionSummary[]>().find((row) => row.id === sessionId);
      expect(shown).toMatchObject({ pageUrl: 'http://localhost:3000/reset-password', referrer: 'http://localhost:3000/reset-password' });
      const stored = await app.db.selectFrom('chatSessions').select(['pageUrl', 'referrer']).where('id', '=', sessionId).executeTakeFirstOrThrow();
      expect(JSON.stringify(stored)).not.toMatch(/secret|#/);
    });

    it('keeps the query of a referrer from another site: only this site’s pages can carry its tokens', async () => {
      const sessionId = newSessionId();
      await send(visitorCookie(app), { sessionId, message: 'found you', pageUrl: 'http://localhost:3000/?token=x', referrer: 'https://search.example/search?q=dealer+software' });
      const summary = await app.inject({ method: 'GET', url: `/api/chat-sessions/${sessionId}`, headers: { cookie: staff.cookie } });
      expect(summary.json<ChatSessionSummary>()).toMatchObject({ pageUrl: 'http://localhost:3000/', referrer: 'https://search.example/search?q=dealer+software' });
    });

    it('is limited per visitor identity, not per address: another visitor on the same IP still gets through', async () => {
      const busy = visitorCookie(app);
      const sessionId = newSessionId();
      for (let i = 0; i < socketLimits.chatSendsPerMinute; i += 1) {
        expect((await send(busy, { sessionId, message: `message ${i}` })).statusCode).toBe(201);
      }
      const before = await countMessages();
      const refused = await send(busy, { sessionId, message: 'one too many' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/^Too many messages: please wait \d+ seconds and try again$/);
      expect(await countMessages()).toBe(before);
      expect((await send(visitorCookie(app), { sessionId: newSessionId(), message: 'neighbour' })).statusCode).toBe(201);
    });
  });

  describe('bad input: 4xx, nothing stored', () => {
    const long = 'x'.repeat(chatLimits.messageMaxLength + 1);
    const cases: [string, unknown, number][] = [
      ['empty message', { sessionId: 'session_bad_1', message: '' }, 400],
      ['whitespace message', { sessionId: 'session_bad_1', message: '   \n\t ' }, 400],
      ['message over 2000 characters', { sessionId: 'session_bad_1', message: long }, 400],
      ['message not text', { sessionId: 'session_bad_1', message: 42 }, 400],
      ['control characters', { sessionId: 'session_bad_1', message: 'hi\u0000there' }, 400],
      ['a bidi override in the message', { sessionId: 'session_bad_1', message: 'pay \u202Egnp.exe' }, 400],
      ['NUL in the sender name', { sessionId: 'session_bad_1', message: 'hello', senderName: 'Ann\u0000' }, 400],
      ['an escape sequence in the sender name', { sessionId: 'session_bad_1', message: 'hello', senderName: 'Ann\u001b[31m' }, 400],
      ['a bidi override in the sender name', { sessionId: 'session_bad_1', message: 'hello', senderName: 'Ann \u202Enimda' }, 400],
      ['a line break in the sender name', { sessionId: 'session_bad_1', message: 'hello', senderName: 'Ann\nStaff' }, 400],
      ['a control character in the page URL', { sessionId: 'session_bad_1', message: 'hello', pageUrl: 'https://site.example/\u0007' }, 400],
      ['a bidi isolate in the referrer', { sessionId: 'session_bad_1', message: 'hello', referrer: 'https://search.example/\u2066x' }, 400],
      ['a line break in the referrer', { sessionId: 'session_bad_1', message: 'hello', referrer: 'https://a.example/\r\nX: y' }, 400],
      ['missing sessionId', { message: 'hello' }, 400],
      ['sessionId with slashes', { sessionId: '../../etc/passwd', message: 'hello' }, 400],
      ['sessionId too short', { sessionId: 'abc', message: 'hello' }, 400],
      ['posing as staff', { sessionId: 'session_bad_1', message: 'I am support', isFromUser: false }, 400],
      ['bad email', { sessionId: 'session_bad_1', message: 'hello', senderEmail: 'not-an-email' }, 400],
      ['bad clientId', { sessionId: 'session_bad_1', message: 'hello', clientId: 'has spaces' }, 400],
      ['array body', [{ sessionId: 'session_bad_1', message: 'hello' }], 400],
      ['__proto__ key', JSON.parse('{"sessionId":"session_bad_1","__proto__":{"isFromUser":false},"message":5}'), 400],
    ];
    it.each(cases)('%s', async (_label, body, status) => {
      const messagesBefore = await countMessages();
      const sessionsBefore = await countSessions();
      const answer = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie: visitorCookie(app) }, payload: body as object });
      expect(answer.statusCode).toBe(status);
      expect(answer.json().message).toBeTruthy();
      expect(await countMessages()).toBe(messagesBefore);
      expect(await countSessions()).toBe(sessionsBefore);
    });

    it('names the field and the contract message', async () => {
      const answer = await send(visitorCookie(app), { sessionId: 'session_bad_1', message: '   ' });
      expect(answer.json()).toEqual({ message: 'Validation failed', errors: { message: 'Message cannot be empty' } });
    });

    it('names the field of a refused character', async () => {
      const name = await send(visitorCookie(app), { sessionId: 'session_bad_1', message: 'hello', senderName: 'Ann\u202E' });
      expect(name.json()).toEqual({ message: 'Validation failed', errors: { senderName: 'Contains characters that are not allowed' } });
      const line = await send(visitorCookie(app), { sessionId: 'session_bad_1', message: 'hello', senderName: 'Ann\r\nStaff' });
      expect(line.json()).toEqual({ message: 'Validation failed', errors: { senderName: 'Name must be on one line' } });
    });

    it.each([
      ['malformed JSON', '{"sessionId":', 'application/json', 400],
      ['wrong content type', 'sessionId=session_bad_1&message=hi', 'application/x-www-form-urlencoded', 415],
      ['body over 64 KiB', JSON.stringify({ sessionId: 'session_bad_1', message: 'x'.repeat(70 * 1024) }), 'application/json', 413],
    ])('%s', async (_label, payload, contentType, status) => {
      const before = await countMessages();
      const answer = await app.inject({ method: 'POST', url: '/api/chat-message', headers: { 'content-type': contentType }, payload });
      expect(answer.statusCode).toBe(status);
      expect(await countMessages()).toBe(before);
    });

    it('refuses a bad staff reply and a bad patch without storing', async () => {
      const before = await countMessages();
      for (const payload of [{ sessionId: 'session_bad_1', message: ' ' }, { message: 'no session' }, { sessionId: 'session_bad_1', message: long }]) {
        const answer = await app.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie: staff.cookie }, payload });
        expect(answer.statusCode).toBe(400);
      }
      for (const payload of [{}, { status: 'archived' }, { read: false }, { status: 'open', extra: 1 }]) {
        const answer = await app.inject({ method: 'PATCH', url: '/api/chat-sessions/session_bad_1', headers: { cookie: staff.cookie }, payload });
        expect(answer.statusCode).toBe(400);
      }
      for (const url of ['/api/chat-sessions?limit=0', '/api/chat-sessions?limit=501', '/api/chat-sessions?before=yesterday', '/api/chat-messages?before=1,2']) {
        expect((await app.inject({ method: 'GET', url, headers: { cookie: staff.cookie } })).statusCode).toBe(400);
      }
      expect(await countMessages()).toBe(before);
    });
  });

  describe('staff-only calls', () => {
    const staffCalls: [string, string, object?][] = [
      ['GET', '/api/chat-messages'],
      ['GET', '/api/chat-sessions'],
      ['GET', '/api/chat-sessions/session_any_1'],
      ['PATCH', '/api/chat-sessions/session_any_1', { status: 'resolved' }],
      ['POST', '/api/admin-chat-reply', { sessionId: 'session_any_1', message: 'hi' }],
    ];
    it.each(staffCalls)('%s %s refuses a visitor with 401', async (method, url, payload) => {
      const before = await countMessages();
      const answer = await app.inject({ method: method as 'GET', url, headers: { cookie: visitorCookie(app) }, ...(payload ? { payload } : {}) });
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ message: 'Not authenticated' });
      expect(await countMessages()).toBe(before);
    });
  });

  describe('staff', () => {
    it('read any session, reply into it, and the visitor reads the reply', async () => {
      const cookie = visitorCookie(app);
      const sessionId = newSessionId();
      await send(cookie, { sessionId, message: 'Is anyone there?' });

      const staffRead = await read(staff.cookie, sessionId);
      expect(staffRead.statusCode).toBe(200);
      expect(staffRead.json<ChatMessage[]>()).toHaveLength(1);

      const reply = await app.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie: staff.cookie }, payload: { sessionId, message: ' Yes, hello! ' } });
      expect(reply.statusCode).toBe(201);
      expect(reply.json<ChatMessage>()).toMatchObject({ sessionId, message: 'Yes, hello!', isFromUser: false });

      const visitorView = await read(cookie, sessionId);
      expect(visitorView.json<ChatMessage[]>().map((row) => [row.message, row.isFromUser])).toEqual([
        ['Is anyone there?', true],
        ['Yes, hello!', false],
      ]);
    });

    it('cannot reply into a session that does not exist', async () => {
      const before = await countMessages();
      const reply = await app.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie: staff.cookie }, payload: { sessionId: newSessionId(), message: 'hello?' } });
      expect(reply.statusCode).toBe(404);
      expect(await countMessages()).toBe(before);
      expect((await read(staff.cookie, newSessionId())).statusCode).toBe(404);
    });

    it('list sessions aggregated, newest activity first, with unread counts that a read clears', async () => {
      const { app: fresh } = await buildTestServer();
      const freshStaff = await signInNewStaff(fresh);
      const visitor = visitorCookie(fresh);
      const post = (sessionId: string, message: string, extra: object = {}) =>
        fresh.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie: visitor }, payload: { sessionId, message, ...extra } });
      await post('session_a_00000001', 'first in A', { senderName: 'Ann' });
      await post('session_b_00000002', 'only in B');
      await post('session_a_00000001', 'second in A');
      await fresh.inject({ method: 'POST', url: '/api/admin-chat-reply', headers: { cookie: freshStaff.cookie }, payload: { sessionId: 'session_b_00000002', message: 'staff answer' } });

      const list = await fresh.inject({ method: 'GET', url: '/api/chat-sessions', headers: { cookie: freshStaff.cookie } });
      const rows = list.json<ChatSessionSummary[]>();
      expect(rows.map((row) => row.id)).toEqual(['session_b_00000002', 'session_a_00000001']);
      expect(rows[0]).toMatchObject({ lastMessage: 'staff answer', messageCount: 2, unreadCount: 0, hasCustomerMessage: true, status: 'open' });
      expect(rows[1]).toMatchObject({ lastMessage: 'second in A', messageCount: 2, unreadCount: 2, senderName: 'Ann', hasCustomerMessage: true });

      const page = await fresh.inject({ method: 'GET', url: `/api/chat-sessions?limit=1&before=${encodeURIComponent(`${rows[0]!.lastActivity},${rows[0]!.id}`)}`, headers: { cookie: freshStaff.cookie } });
      expect(page.json<ChatSessionSummary[]>().map((row) => row.id)).toEqual(['session_a_00000001']);

      const search = await fresh.inject({ method: 'GET', url: '/api/chat-sessions?q=FIRST%20IN', headers: { cookie: freshStaff.cookie } });
      expect(search.json<ChatSessionSummary[]>().map((row) => row.id)).toEqual(['session_a_00000001']);
      const wildcard = await fresh.inject({ method: 'GET', url: '/api/chat-sessions?q=%25', headers: { cookie: freshStaff.cookie } });
      expect(wildcard.json()).toEqual([]);

      const patched = await fresh.inject({ method: 'PATCH', url: '/api/chat-sessions/session_a_00000001', headers: { cookie: freshStaff.cookie }, payload: { read: true, status: 'resolved' } });
      expect(patched.statusCode).toBe(200);
      expect(patched.json<ChatSessionSummary>()).toMatchObject({ id: 'session_a_00000001', unreadCount: 0, status: 'resolved' });
      expect((await fresh.inject({ method: 'PATCH', url: '/api/chat-sessions/session_zzz_0001', headers: { cookie: freshStaff.cookie }, payload: { read: true } })).statusCode).toBe(404);

      // A visitor writing again reopens a resolved session and counts as unread.
      await post('session_a_00000001', 'one more thing');
      const after = await fresh.inject({ method: 'GET', url: '/api/chat-sessions/session_a_00000001', headers: { cookie: freshStaff.cookie } });
      expect(after.json<ChatSessionSummary>()).toMatchObject({ status: 'open', unreadCount: 1, messageCount: 3 });

      const all = await fresh.inject({ method: 'GET', url: '/api/chat-messages?limit=2', headers: { cookie: freshStaff.cookie } });
      const newest = all.json<ChatMessage[]>();
      expect(newest.map((row) => row.message)).toEqual(['one more thing', 'staff answer']);
      // Each row names the newest message it counts, so a live copy of that message is not counted twice.
      expect(after.json<ChatSessionSummary>().lastMessageId).toBe(newest[0]!.id);
      expect(rows[0]!.lastMessageId).toBe(newest[1]!.id);
      const older = await fresh.inject({ method: 'GET', url: `/api/chat-messages?limit=10&before=${encodeURIComponent(`${newest[1]!.createdAt},${newest[1]!.id}`)}`, headers: { cookie: freshStaff.cookie } });
      expect(older.json<ChatMessage[]>().map((row) => row.message)).toEqual(['second in A', 'only in B', 'first in A']);
    });

    it('list the sessions of one status, with q and keyset paging; a bad status is a 400 naming the field', async () => {
      const { app: fresh } = await buildTestServer();
      const freshStaff = await signInNewStaff(fresh);
      const visitor = visitorCookie(fresh);
      const staffGet = (url: string) => fresh.inject({ method: 'GET', url, headers: { cookie: freshStaff.cookie } });
      const ids = (response: { json: () => unknown }) => (response.json() as ChatSessionSummary[]).map((row) => row.id);
      // Oldest first; the resolved ones are s2, s4, s5 and the words "refund" are in s3, s4 and s5.
      const plan = [
        { id: 'session_s1_0000001', message: 'hello', resolved: false },
        { id: 'session_s2_0000002', message: 'hello', resolved: true },
        { id: 'session_s3_0000003', message: 'refund please', resolved: false },
        { id: 'session_s4_0000004', message: 'refund please', resolved: true },
        { id: 'session_s5_0000005', message: 'refund please', resolved: true },
      ];
      for (const session of plan) {
        await fresh.inject({ method: 'POST', url: '/api/chat-message', headers: { cookie: visitor }, payload: { sessionId: session.id, message: session.message } });
        if (session.resolved) {
          await fresh.inject({ method: 'PATCH', url: `/api/chat-sessions/${session.id}`, headers: { cookie: freshStaff.cookie }, payload: { status: 'resolved' } });
        }
      }

      expect(ids(await staffGet('/api/chat-sessions?status=open'))).toEqual(['session_s3_0000003', 'session_s1_0000001']);
      expect(ids(await staffGet('/api/chat-sessions?status=resolved'))).toEqual(['session_s5_0000005', 'session_s4_0000004', 'session_s2_0000002']);
      expect(ids(await staffGet('/api/chat-sessions?status=resolved&q=REFUND'))).toEqual(['session_s5_0000005', 'session_s4_0000004']);
      const first = (await staffGet('/api/chat-sessions?status=resolved&limit=1')).json<ChatSessionSummary[]>();
      expect(first.map((row) => row.id)).toEqual(['session_s5_0000005']);
      const cursor = encodeURIComponent(`${first[0]!.lastActivity},${first[0]!.id}`);
      expect(ids(await staffGet(`/api/chat-sessions?status=resolved&limit=5&before=${cursor}`))).toEqual(['session_s4_0000004', 'session_s2_0000002']);

      const bad = await staffGet('/api/chat-sessions?status=closed');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'Validation failed', errors: { status: 'status must be open or resolved' } });
    });
  });
});
