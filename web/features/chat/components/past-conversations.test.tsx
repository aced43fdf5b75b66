import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../../api/contract/chat';
import type { ChatSessionState, VisitorChatSessionSummary } from '../../../../api/contract/chat-resync';
import { chatRow, FakeTransport } from '../test/fake-transport';
import { ChatWidget, welcomeText } from './chat-widget';
import { conversationDate } from './past-conversations';

// The widget's past conversations and its resync by cursor, with the socket side played by a FakeTransport
// and the REST calls answered by a stubbed fetch.

const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let sessionId = '';
const row = (fields: Partial<ChatMessage> & { id: number; message: string }): ChatMessage => chatRow({ sessionId, ...fields });
const state = (fields: Partial<ChatSessionState> = {}): ChatSessionState => ({ sessionId, status: 'open', lastSeq: 0, readSeq: 0, version: 1, seenSeq: 0, ratingAsked: false, rating: null, ...fields });

/** What `GET /api/chat-visitor/sessions` answers. */
let listed: VisitorChatSessionSummary[] = [];
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
const urlsCalled = () => fetchMock.mock.calls.map(([url]) => String(url));

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

async function renderWidget(transport: FakeTransport, storedSessionId = 'session_1732200000000_current') {
  localStorage.setItem('chatSessionId', storedSessionId);
  render(<ChatWidget transport={transport} />);
  sessionId = storedSessionId;
  await advance(0);
}

async function openPanel() {
  fireEvent.click(screen.getByRole('button', { name: /^Open chat/ }));
  await advance(0);
}

const log = () => screen.getByRole('log', { name: 'Chat messages' });
const bubbles = () => within(log()).getAllByRole('listitem').map((item) => item.querySelector('p')?.textContent);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(new Date('2026-12-20T15:00:00Z'));
  listed = [];
  fetchMock = vi.fn<typeof fetch>(async (url) => {
    if (String(url) === '/api/chat-visitor/sessions') return jsonResponse(listed);
    return jsonResponse({ message: 'Chat session not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('past conversations in the widget', () => {
  it('lists the visitor’s conversations with the last message, its date and status; opening one shows it and makes it current', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    const older = 'session_1732100000000_older';
    listed = [
      { id: sessionId, status: 'open', lastMessage: 'Is the demo free?', lastMessageFromUser: true, lastActivity: '2026-12-20T14:00:00.000Z', messageCount: 1 },
      { id: older, status: 'resolved', lastMessage: 'Glad we could help!', lastMessageFromUser: false, lastActivity: '2026-11-02T10:00:00.000Z', messageCount: 4 },
    ];
    transport.connect();
    await openPanel();

    fireEvent.click(screen.getByRole('button', { name: 'Your conversations' }));
    await advance(0);
    const list = screen.getByRole('list', { name: 'Your conversations' });
    const rows = within(list).getAllByRole('button');
    expect(rows.map((button) => button.textContent)).toEqual([
      `${conversationDate('2026-12-20T14:00:00.000Z')}CurrentOpenYou: Is the demo free?`,
      'Nov 2ClosedGlad we could help!',
    ]);
    expect(rows[0]).toHaveAttribute('aria-current', 'true');
    // The conversation itself is out of the way meanwhile.
    expect(screen.queryByRole('log', { name: 'Chat messages' })).not.toBeInTheDocument();

    transport.history = [
      chatRow({ id: 11, seq: 1, sessionId: older, message: 'Do you handle photos?' }),
      chatRow({ id: 12, seq: 2, sessionId: older, message: 'Glad we could help!', isFromUser: false }),
    ];
    transport.sessionState = state({ sessionId: older, status: 'resolved', lastSeq: 2 });
    fireEvent.click(rows[1]!);
    await advance(0);
    expect(localStorage.getItem('chatSessionId')).toBe(older);
    expect(transport.resyncCursors.at(-1)).toBe(0);
    expect(bubbles()).toEqual(['Do you handle photos?', 'Glad we could help!']);
    expect(screen.getByRole('status')).toHaveTextContent('This conversation is closed. Write below to pick it up again, or start a new conversation.');
  });

  it('offers a new conversation once the current one is closed, and starts it with a new id and the welcome', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.history = [row({ id: 1, message: 'Thanks!' })];
    transport.sessionState = state({ status: 'open', lastSeq: 1 });
    transport.connect();
    await openPanel();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Your conversations' }));
    await advance(0);
    expect(screen.queryByRole('button', { name: 'Start a new conversation' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Back to chat' }));

    // Staff close it: the whole state is pushed.
    await act(async () => transport.handlers.onSessionState(state({ status: 'resolved', lastSeq: 1, version: 3 })));
    expect(screen.getByRole('status')).toBeInTheDocument();
    // An older state arriving late changes nothing.
    await act(async () => transport.handlers.onSessionState(state({ status: 'open', lastSeq: 1, version: 2 })));
    expect(screen.getByRole('status')).toBeInTheDocument();

    // Staff are online, so the new conversation is a live chat (nobody online: the leave-a-message form).
    await act(async () => transport.handlers.onPresence(true));
    fireEvent.click(screen.getByRole('button', { name: 'start a new conversation' }));
    await advance(0);
    const fresh = localStorage.getItem('chatSessionId');
    expect(fresh).toMatch(/^session_\d+_[a-z0-9]+$/);
    expect(fresh).not.toBe(sessionId);
    expect(screen.getByText(welcomeText)).toBeInTheDocument();
    expect(screen.queryByText('Thanks!')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'A new question' } });
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'Enter' });
    await advance(0);
    // The new conversation's first message carries the visit, as any first message does.
    expect(transport.sent.at(-1)).toMatchObject({ sessionId: fresh, message: 'A new question', timeZone: expect.any(String) as string });
  });

  it('says so when there are no conversations yet', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.connect();
    await openPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Your conversations' }));
    await advance(0);
    expect(screen.getByText('No conversations yet. Ask us anything and it will show here.')).toBeInTheDocument();
  });
});

describe('resync by cursor', () => {
  it('on reconnect asks only for what follows its cursor and merges it without duplicates, in seq order', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.history = [row({ id: 1, message: 'one' }), row({ id: 2, message: 'two', isFromUser: false })];
    transport.connect();
    await openPanel();
    await act(async () => transport.handlers.onMessage(row({ id: 3, message: 'three', isFromUser: false })));
    transport.drop();

    // Missed while away: 4 and 5; the answer also repeats 3 (a push that crossed it), out of order.
    transport.history = [row({ id: 5, message: 'five', isFromUser: false }), row({ id: 3, message: 'three', isFromUser: false }), row({ id: 4, message: 'four', isFromUser: false })];
    transport.sessionState = state({ status: 'resolved', lastSeq: 5, version: 4 });
    transport.connect();
    await advance(0);
    expect(transport.resyncCursors).toEqual([0, 3]);
    expect(bubbles()).toEqual(['one', 'two', 'three', 'four', 'five']);
    expect(screen.getByRole('status')).toHaveTextContent('This conversation is closed');
  });

  it('a cursor stops at the first seq it does not hold, so a reply missed before the visitor’s own send is asked for', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.history = [row({ id: 1, message: 'one' })];
    transport.connect();
    await openPanel();
    transport.drop();
    // Sent by REST while the socket is down: stored as seq 3, after a staff reply (2) this screen never got.
    fetchMock.mockImplementation(async (url, init) => {
      if (init?.method === 'POST') return jsonResponse(row({ id: 3, message: 'three', clientId: (JSON.parse(String(init.body)) as { clientId: string }).clientId }), 201);
      const address = new URL(String(url), 'http://localhost');
      if (address.pathname === `/api/chat-visitor/sessions/${sessionId}`) {
        const after = Number(address.searchParams.get('afterSeq'));
        const all = [row({ id: 2, message: 'two', isFromUser: false }), row({ id: 3, message: 'three' })];
        return jsonResponse({ messages: all.filter((message) => message.seq > after), session: state({ lastSeq: 3, version: 3 }) });
      }
      return jsonResponse([]);
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'three' } });
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'Enter' });
    await advance(3_000); // one poll
    expect(urlsCalled()).toContain(`/api/chat-visitor/sessions/${sessionId}?afterSeq=1`);
    expect(bubbles()).toEqual(['one', 'two', 'three']);
  });
});
