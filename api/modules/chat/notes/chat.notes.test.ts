import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../contract/chat';
import { apiPaths, pathTo } from '../../../contract/paths';
import type { ChatNote } from '../../../contract/team-inbox-notes';
import { signInNewStaff } from '../../../../test/support/factories';
import { buildTestServer } from '../../../../test/support/helper';
import { closeClients, nextEvent } from '../../../../test/support/sockets';
import { startSmtpSink } from '../../../../test/support/smtp-sink';
import { connectStaffSocket } from '../../../../test/support/staff-socket';
import { pause, visitorClient, visitorCookie } from '../../../../test/support/visitor-socket';

let counter = 0;
const newSessionId = () => `session_${Date.now()}_note${(counter += 1)}`;
const newEmail = () => `rosa${counter}.${Date.now()}@valley-autos.example`;
/** Each note's words are its own, so a page that carries one anywhere is caught by a plain search. */
const secretNote = () => `NOTE-ONLY-FOR-STAFF-${counter}-${Date.now()}: do not offer more than 10% off`;

type SendAck = { ok: true; message: ChatMessage } | { ok: false; error: string };

afterEach(() => closeClients());

describe('private notes', async () => {
  const sink = await startSmtpSink();
  afterAll(() => sink.down());
  const { app } = await buildTestServer(
    {
      SMTP_URL: sink.url,
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      JOBS_RETRY_BASE_SECONDS: '0.2',
      JOBS_POLL_MS: '50',
      CONTINUITY_DELAY_SECONDS: '1',
      RATING_ASK_DELAY_SECONDS: '3600',
    },
    { listen: true },
  );
  const staff = await signInNewStaff(app);

  const addNote = (sessionId: string, payload: unknown, cookie = staff.cookie) =>
    app.inject({ method: 'POST', url: pathTo(apiPaths.chatNotes, { sessionId }), headers: { cookie }, payload: payload as Record<string, unknown> });
  const listNotes = (sessionId: string, cookie = staff.cookie) => app.inject({ method: 'GET', url: pathTo(apiPaths.chatNotes, { sessionId }), headers: { cookie } });
  const reply = async (sessionId: string, message: string) => {
    const answer = await app.inject({ method: 'POST', url: apiPaths.staffReply, headers: { cookie: staff.cookie }, payload: { sessionId, message } });
    expect(answer.statusCode).toBe(201);
  };
  /** A visitor's conversation with an email, begun over REST, with a staff reply and then a note. */
  const conversationWithNote = async () => {
    const sessionId = newSessionId();
    const email = newEmail();
    const cookie = visitorCookie(app);
    const sent = await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie }, payload: { sessionId, message: 'What does it cost?', senderEmail: email } });
    expect(sent.statusCode).toBe(201);
    const replyText = `Staff reply ${counter}`;
    await reply(sessionId, replyText);
    const note = secretNote();
    expect((await addNote(sessionId, { text: note })).statusCode).toBe(201);
    return { sessionId, email, cookie, replyText, note };
  };

  it('staff write and list notes (author and time); other staff get them live; the messages and their seq are untouched', async () => {
    const other = await signInNewStaff(app);
    const otherSocket = await connectStaffSocket(app, other.cookie);
    const sessionId = newSessionId();
    const cookie = visitorCookie(app);
    await app.inject({ method: 'POST', url: apiPaths.chatMessage, headers: { cookie }, payload: { sessionId, message: 'Hello' } });
    const pushed = nextEvent(otherSocket, 'chat:note');
    const created = await addNote(sessionId, { text: '  Called him, he wants a demo Friday  ' });
    expect(created.statusCode).toBe(201);
    const note = created.json<ChatNote>();
    expect(note).toMatchObject({ sessionId, text: 'Called him, he wants a demo Friday', authorName: expect.stringMatching(/^staff\d+$/) as string });
    expect(note.authorStaffId).toBeGreaterThan(0);
    expect(await pushed).toEqual(note);
    const listed = await listNotes(sessionId, other.cookie);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([note]);
    // A note is not a message: the staff history and the next reply's seq do not count it.
    await reply(sessionId, 'Hi there');
    const history = await app.inject({ method: 'GET', url: pathTo(apiPaths.chatHistory, { sessionId }), headers: { cookie: staff.cookie } });
    expect(history.json<ChatMessage[]>().map((message) => [message.seq, message.message])).toEqual([
      [1, 'Hello'],
      [2, 'Hi there'],
    ]);
  });

  it('refuses bad input (400), an unknown conversation (404) and anyone but staff (401), storing nothing', async () => {
    const { sessionId } = await conversationWithNote();
    const before = (await listNotes(sessionId)).json<ChatNote[]>();
    for (const bad of [{}, { text: '   ' }, { text: 'x'.repeat(2001) }, { text: 42 }, { text: 'bell\u0007' }]) {
      const answer = await addNote(sessionId, bad);
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
      expect(JSON.stringify(answer.json<{ errors?: unknown }>().errors)).toMatch(/[Nn]ote|characters/);
    }
    expect((await addNote('session_does_not_exist', { text: 'Hello' })).statusCode).toBe(404);
    expect((await listNotes('session_does_not_exist')).statusCode).toBe(404);
    const visitorCookieHeader = visitorCookie(app);
    expect((await addNote(sessionId, { text: 'sneaky' }, visitorCookieHeader)).statusCode).toBe(401);
    expect((await listNotes(sessionId, visitorCookieHeader)).statusCode).toBe(401);
    expect((await listNotes(sessionId)).json()).toEqual(before);
  });

  it('never reaches the visitor’s socket: not pushed, not in chat:join or chat:resync', async () => {
    const sessionId = newSessionId();
    const cookie = visitorCookie(app);
    const visitor = visitorClient(app, cookie);
    const heard: string[] = [];
    visitor.onAny((event: string, payload: unknown) => heard.push(`${event} ${JSON.stringify(payload)}`));
    const ack = (await visitor.emitWithAck('chat:send', { sessionId, message: 'Anyone there?' })) as SendAck;
    expect(ack.ok).toBe(true);
    const replied = nextEvent(visitor, 'chat:message');
    await reply(sessionId, 'Yes, hello');
    const note = secretNote();
    expect((await addNote(sessionId, { text: note })).statusCode).toBe(201);
    expect((await replied).message).toBe('Yes, hello');
    // The push of the note, had there been one, went out with the reply's: give it time to arrive all the same.
    await pause(300);
    expect(heard.some((line) => line.includes('Yes, hello'))).toBe(true);
    expect(heard.filter((line) => line.includes('NOTE-ONLY'))).toEqual([]);

    const joined = JSON.stringify(await visitor.emitWithAck('chat:join', { sessionId }));
    const resynced = JSON.stringify(await visitor.emitWithAck('chat:resync', { sessionId, afterSeq: 0 }));
    for (const answer of [joined, resynced]) {
      expect(answer).toContain('Yes, hello');
      expect(answer).not.toContain(note);
    }
  });

  it('never in the visitor’s REST: history, its poll by cursor, the resync, their list of conversations', async () => {
    const { sessionId, cookie, replyText, note } = await conversationWithNote();
    const paths = [
      pathTo(apiPaths.chatHistory, { sessionId }),
      `${pathTo(apiPaths.chatHistory, { sessionId })}?afterSeq=0`,
      pathTo(apiPaths.visitorChatResync, { sessionId }),
      apiPaths.visitorChatSessions,
    ];
    for (const url of paths) {
      const answer = await app.inject({ method: 'GET', url, headers: { cookie } });
      expect(answer.statusCode, url).toBe(200);
      expect(answer.body, url).toContain(replyText);
      expect(answer.body, url).not.toContain(note);
    }
    // The last line of their list is the reply, not the later note.
    expect(JSON.stringify((await app.inject({ method: 'GET', url: apiPaths.visitorChatSessions, headers: { cookie } })).json())).toContain(replyText);
  });

  it('never in the transcript mail, whoever asks for it', async () => {
    const { sessionId, email, cookie, replyText, note } = await conversationWithNote();
    const asked = await app.inject({ method: 'POST', url: pathTo(apiPaths.chatTranscript, { sessionId }), headers: { cookie } });
    expect(asked.statusCode).toBe(202);
    // The address confirms itself first (the mail policy): its confirmation mail's link, pressed.
    await sink.waitFor((mails) => mails.some((mail) => mail.to === email && mail.subject.startsWith('Confirm your address')));
    const confirmation = sink.accepted.find((each) => each.to === email && each.subject.startsWith('Confirm your address'))!;
    expect(`${confirmation.text}${confirmation.html}`).not.toContain(note);
    const path = /http:\/\/localhost:3000(\/confirm-email\?token=[\w.-]+)/.exec(confirmation.text)![1]!;
    expect((await app.inject({ method: 'POST', url: path })).statusCode).toBe(200);
    await sink.waitFor((mails) => mails.some((mail) => mail.to === email && mail.subject === 'Your chat with Lotwise'));
    const mail = sink.accepted.find((each) => each.to === email && each.subject === 'Your chat with Lotwise')!;
    expect(mail.text).toContain(replyText);
    expect(`${mail.text}${mail.html}`).not.toContain(note);
  });

  it('never in the continuity mail of unseen replies', async () => {
    const { email, replyText, note } = await conversationWithNote();
    await sink.waitFor((mails) => mails.some((mail) => mail.to === email && mail.text.includes(replyText)));
    const mail = sink.accepted.find((each) => each.to === email && each.text.includes(replyText))!;
    expect(`${mail.subject}${mail.text}${mail.html}`).not.toContain(note);
  });

  it('never in the rating mail', async () => {
    const { sessionId, email, note } = await conversationWithNote();
    const resolved = await app.inject({ method: 'PATCH', url: pathTo(apiPaths.chatSession, { sessionId }), headers: { cookie: staff.cookie }, payload: { status: 'resolved' } });
    expect(resolved.statusCode).toBe(200);
    await sink.waitFor((mails) => mails.some((mail) => mail.to === email && mail.subject === 'How did we do?'));
    const mail = sink.accepted.find((each) => each.to === email && each.subject === 'How did we do?')!;
    expect(`${mail.text}${mail.html}`).not.toContain(note);
  });
});
