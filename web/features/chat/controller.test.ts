import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, ChatMessageInput } from '../../../api/contract/chat';
import { ChatController } from './controller';
import { chatRow, FakeTransport } from './test/fake-transport';

// The controller without React: a transport stand-in for the socket, and fetch answered per test.

const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
/** What the widget's resync (`GET /api/chat-visitor/sessions/:sessionId`) answers: these messages, after its cursor. */
let storedHistory: ChatMessage[] = [];
let nextStoredId = 500;
const getCalls = () => fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === 'GET');
const postBodies = () =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').map(([, init]) => JSON.parse(String(init!.body)) as ChatMessageInput);

const controllers: ChatController[] = [];
function startController(transport = new FakeTransport()): { controller: ChatController; transport: FakeTransport } {
  const controller = new ChatController(transport);
  controllers.push(controller);
  controller.start();
  return { controller, transport };
}

/** Lets timers run and pending answers settle. */
async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  storedHistory = [];
  fetchMock = vi.fn<typeof fetch>(async (_url, init) => {
    if (init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as ChatMessageInput;
      return jsonResponse(chatRow({ id: (nextStoredId += 1), sessionId: body.sessionId, message: body.message, clientId: body.clientId }), 201);
    }
    const afterSeq = Number(new URL(String(_url), 'http://localhost').searchParams.get('afterSeq') ?? 0);
    return jsonResponse({ messages: storedHistory.filter((message) => message.seq > afterSeq), session: null });
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  for (const controller of controllers.splice(0)) controller.dispose();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ChatController', () => {
  it('falls back to the 3 s poll and REST sends while the socket is down, and back to the socket when it returns', async () => {
    const { controller, transport } = startController();
    // One id sequence for both paths, as one database gives.
    transport.sendResult = async (message) =>
      chatRow({ id: (nextStoredId += 1), sessionId: message.sessionId, message: message.message, clientId: message.clientId });
    controller.openPanel();
    await advance(0);

    // Down: sent by REST, received by polling every 3 s.
    controller.sendMessage('while down');
    await advance(0);
    expect(postBodies().map((body) => body.message)).toEqual(['while down']);
    expect(transport.sent).toHaveLength(0);
    const beforePolls = getCalls().length;
    await advance(9_000);
    expect(getCalls().length).toBe(beforePolls + 3);

    // Back: no poll, sends over the socket.
    transport.connect();
    await advance(0);
    const whileConnected = getCalls().length;
    controller.sendMessage('while up');
    await advance(9_000);
    expect(getCalls().length).toBe(whileConnected);
    expect(transport.sent.map((message) => message.message)).toEqual(['while up']);
    expect(postBodies()).toHaveLength(1);

    // Down again: the poll and REST sends resume.
    transport.drop();
    controller.sendMessage('down again');
    await advance(6_000);
    expect(getCalls().length).toBe(whileConnected + 2);
    expect(postBodies().map((body) => body.message)).toEqual(['while down', 'down again']);
    expect(controller.store.getState().entries.map((entry) => [entry.text, entry.status])).toEqual([
      ['while down', 'sent'],
      ['while up', 'sent'],
      ['down again', 'sent'],
    ]);
  });

  it('sends again by REST, with the same clientId, a socket send that got no answer', async () => {
    const { controller, transport } = startController();
    transport.connect();
    await advance(0);
    transport.sendResult = async () => {
      throw new Error('operation has timed out');
    };
    controller.sendMessage('Is the ack lost?');
    await advance(0);

    expect(transport.sent).toHaveLength(1);
    expect(postBodies()).toHaveLength(1);
    expect(postBodies()[0]!.clientId).toBe(transport.sent[0]!.clientId);
    const [entry] = controller.store.getState().entries;
    expect(entry).toMatchObject({ text: 'Is the ack lost?', status: 'sent', id: nextStoredId });
    expect(controller.store.getState().entries).toHaveLength(1);
  });

  it('tells the page it was sent from without query or fragment, where a reset link carries its token', async () => {
    const address = window.location.href;
    window.history.replaceState(null, '', '/reset-password?token=abc123secret#frag');
    try {
      const { controller, transport } = startController();
      controller.sendMessage('over REST');
      transport.connect();
      await advance(0);
      controller.sendMessage('over the socket');
      await advance(0);
      const pageUrls = [...postBodies(), ...transport.sent].map((message) => message.pageUrl);
      expect(pageUrls).toEqual([`${window.location.origin}/reset-password`, `${window.location.origin}/reset-password`]);
    } finally {
      window.history.replaceState(null, '', address);
    }
  });

  it('sends the pages of the visit and the time zone with the first message only, then tells staff of each new page', async () => {
    const address = window.location.href;
    const { origin } = window.location;
    try {
      const { controller, transport } = startController();
      const { sessionId } = controller.store.getState();
      window.history.replaceState(null, '', '/inventory?make=ford#top');
      controller.pageShown();
      await advance(60_000);
      window.history.pushState(null, '', '/pricing');
      controller.pageShown();
      controller.pageShown(); // the same page again, as a reload shows it: kept once
      transport.connect();
      await advance(0);
      // No conversation yet: the pages wait for the first message.
      expect(transport.pages).toEqual([]);

      controller.sendMessage('Is the F-150 still there?');
      await advance(0);
      const [first] = transport.sent;
      expect(first!.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(first!.pages).toEqual([
        { url: `${origin}/inventory`, at: expect.any(String) },
        { url: `${origin}/pricing`, at: expect.any(String) },
      ]);
      expect(new Date(first!.pages![1]!.at).getTime() - new Date(first!.pages![0]!.at).getTime()).toBe(60_000);

      window.history.pushState(null, '', '/about?ref=mail#team');
      controller.pageShown();
      expect(transport.pages).toEqual([{ sessionId, url: `${origin}/about` }]);
      controller.sendMessage('And trade-ins?');
      await advance(0);
      expect(transport.sent[1]).not.toHaveProperty('pages');
      expect(transport.sent[1]).not.toHaveProperty('timeZone');

      // While the socket is down a page is kept for the visit, not sent.
      transport.drop();
      window.history.pushState(null, '', '/contact');
      controller.pageShown();
      expect(transport.pages).toHaveLength(1);
    } finally {
      window.history.replaceState(null, '', address);
    }
  });

  it('sends no time zone where the browser cannot tell it (Etc/Unknown), so the first message is not refused', async () => {
    const resolved = Intl.DateTimeFormat().resolvedOptions();
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({ ...resolved, timeZone: 'Etc/Unknown' });
    const { controller } = startController();
    controller.sendMessage('hello');
    await advance(0);
    expect(postBodies()[0]).not.toHaveProperty('timeZone');
  });

  it('keeps the last 20 pages of the visit across a reload, in session storage', async () => {
    const address = window.location.href;
    try {
      const { controller } = startController();
      for (let index = 1; index <= 25; index += 1) {
        window.history.pushState(null, '', `/page-${index}`);
        controller.pageShown();
      }
      controller.dispose();
      const { controller: reloaded } = startController();
      reloaded.pageShown(); // the page the reload shows again
      reloaded.sendMessage('hello');
      await advance(0);
      const [first] = postBodies();
      expect(first!.pages!.map((page) => page.url.replace(window.location.origin, ''))).toEqual(Array.from({ length: 20 }, (_, index) => `/page-${index + 6}`));
    } finally {
      window.history.replaceState(null, '', address);
    }
  });

  it('keeps each message once, whichever path brings it, with the optimistic copy replaced in place', async () => {
    const { controller, transport } = startController();
    let ack: (message: ChatMessage) => void = () => {};
    transport.sendResult = () => new Promise((resolve) => (ack = resolve));
    transport.connect();
    controller.openPanel();
    await advance(0);

    controller.sendMessage('Do you do trade-ins?');
    const [optimistic] = controller.store.getState().entries;
    expect(optimistic).toMatchObject({ status: 'sending', text: 'Do you do trade-ins?' });
    expect(optimistic!.id).toBeUndefined();
    const { sessionId, clientId } = transport.sent[0]!;
    const stored = chatRow({ id: 7, sessionId, message: 'Do you do trade-ins?', clientId });
    const reply = chatRow({ id: 8, sessionId, message: 'Yes, any make.', isFromUser: false });
    const earlier = chatRow({ id: 5, sessionId, message: 'Hello', isFromUser: true });

    transport.handlers.onMessage(reply); // the reply's push overtakes the ack
    transport.handlers.onMessage(stored);
    ack(stored);
    await advance(0);
    transport.handlers.onMessage(reply);
    transport.drop();
    storedHistory = [earlier, stored, reply];
    await advance(3_000); // the poll brings all three back, and one older row

    const entries = controller.store.getState().entries;
    expect(entries.map((entry) => entry.id)).toEqual([5, 7, 8]);
    expect(entries[1]).toMatchObject({ key: optimistic!.key, status: 'sent', text: 'Do you do trade-ins?' });
  });

  it('belongs to one mount: two controllers hold separate panels, and a disposed one stops its poll and socket', async () => {
    const first = startController();
    const second = startController();
    first.controller.openPanel();
    first.controller.sendMessage('only in the first');
    await advance(0);
    expect(second.controller.store.getState()).toMatchObject({ open: false, entries: [] });

    const afterOpen = getCalls().length;
    await advance(6_000);
    expect(getCalls().length).toBe(afterOpen + 2); // the first polls; the closed second does not

    first.controller.dispose();
    expect(first.transport.stopped).toBe(true);
    expect(second.transport.stopped).toBe(false);
    await advance(9_000);
    expect(getCalls().length).toBe(afterOpen + 2);

    second.controller.openPanel();
    await advance(3_000);
    expect(getCalls().length).toBe(afterOpen + 4); // its load on open, then one poll
  });

  it('carries on the session id kept in local storage, and replaces a malformed one', () => {
    const { controller: first } = startController();
    const sessionId = first.store.getState().sessionId;
    expect(localStorage.getItem('chatSessionId')).toBe(sessionId);
    const { controller: again } = startController();
    expect(again.store.getState().sessionId).toBe(sessionId);

    localStorage.setItem('chatSessionId', 'bad id!');
    const { controller: fresh } = startController();
    expect(fresh.store.getState().sessionId).toMatch(/^session_\d+_[a-z0-9]+$/);
    expect(localStorage.getItem('chatSessionId')).toBe(fresh.store.getState().sessionId);
  });

  it('tells staff the visitor is typing once, and that they stopped 3 s after the last key or on send', async () => {
    const { controller, transport } = startController();
    transport.connect();
    const sessionId = controller.store.getState().sessionId;
    controller.visitorTyping();
    await advance(2_000);
    controller.visitorTyping();
    await advance(2_000);
    expect(transport.typed).toEqual([{ sessionId, typing: true }]);
    await advance(1_000);
    expect(transport.typed).toEqual([
      { sessionId, typing: true },
      { sessionId, typing: false },
    ]);

    controller.visitorTyping();
    controller.sendMessage('done typing');
    expect(transport.typed.slice(2)).toEqual([
      { sessionId, typing: true },
      { sessionId, typing: false },
    ]);
  });

  it('drops the staff typing indicator when their message comes, when the socket drops, or after 6 s of silence', async () => {
    const { controller, transport } = startController();
    transport.connect();
    await advance(0);
    const sessionId = controller.store.getState().sessionId;
    const typing = () => controller.store.getState().staffTyping;

    transport.handlers.onTyping({ sessionId, typing: true });
    expect(typing()).toBe(true);
    transport.handlers.onMessage(chatRow({ id: 20, sessionId, message: 'Here is the answer', isFromUser: false }));
    expect(typing()).toBe(false);

    transport.handlers.onTyping({ sessionId, typing: true });
    transport.drop();
    expect(typing()).toBe(false);

    transport.connect();
    transport.handlers.onTyping({ sessionId, typing: true });
    await advance(5_900);
    expect(typing()).toBe(true);
    await advance(100);
    expect(typing()).toBe(false);

    transport.handlers.onTyping({ sessionId: 'session_someone_else', typing: true });
    expect(typing()).toBe(false);
  });
});
