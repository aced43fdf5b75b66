import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../../api/contract/chat';
import { chatRow, FakeTransport } from '../test/fake-transport';
import { ChatWidget, welcomeText } from './chat-widget';

let sessionId = '';

const row = (fields: Partial<ChatMessage> & { id: number; message: string }): ChatMessage => chatRow({ sessionId, ...fields });

const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

const getCalls = () => fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === 'GET');

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

async function renderWidget(transport: FakeTransport) {
  render(<ChatWidget transport={transport} />);
  sessionId = localStorage.getItem('chatSessionId') ?? '';
  await advance(0);
}

async function openPanel() {
  fireEvent.click(screen.getByRole('button', { name: /^Open chat/ }));
  await advance(0);
}

const shown = (text: string) => screen.queryAllByText(text).length;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  // Within business hours (Tuesday 10 AM in Chicago), so the live chat shows whatever the hour of the run.
  vi.setSystemTime(new Date('2026-11-24T16:00:00Z'));
  fetchMock = vi.fn<typeof fetch>(async () => jsonResponse({ message: 'Chat session not found' }, 404));
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('chat widget: the connection', () => {
  it('polls every 3 s only while the socket is disconnected and the panel is open', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    await advance(10_000);
    expect(getCalls()).toHaveLength(0); // closed panel: no poll

    await openPanel();
    const afterOpen = getCalls().length;
    expect(afterOpen).toBe(1); // the load on open
    await advance(9_000);
    expect(getCalls().length).toBe(afterOpen + 3);

    transport.connect();
    await advance(0);
    const whileConnected = getCalls().length;
    await advance(12_000);
    expect(getCalls().length).toBe(whileConnected);

    transport.drop();
    await advance(6_000);
    expect(getCalls().length).toBe(whileConnected + 2);

    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    const whenClosed = getCalls().length;
    await advance(12_000);
    expect(getCalls().length).toBe(whenClosed);
  });

  it('re-joins on reconnect and shows what arrived meanwhile, each message once', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.history = [row({ id: 1, message: 'before the cut' })];
    transport.connect();
    await openPanel();
    transport.drop();
    transport.history = [row({ id: 1, message: 'before the cut' }), row({ id: 2, message: 'answered while cut', isFromUser: false })];
    transport.connect();
    await advance(0);
    expect(transport.joins).toBe(2);
    expect(shown('before the cut')).toBe(1);
    expect(shown('answered while cut')).toBe(1);
  });

  it('opens again on what it holds while the socket stays connected: no re-join, no reload, no loading line', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.history = [row({ id: 1, message: 'Earlier question' })];
    transport.connect();
    await advance(0); // joined while the panel was still closed
    await openPanel();
    expect(screen.getByText('Earlier question')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    await act(async () => transport.handlers.onMessage(row({ id: 2, message: 'Pushed while closed', isFromUser: false })));

    let loadingSeen = false;
    const watcher = new MutationObserver(() => {
      loadingSeen ||= screen.queryByText('Loading messages...') !== null;
    });
    watcher.observe(document.body, { childList: true, subtree: true, characterData: true });
    await openPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    await openPanel();
    watcher.disconnect();

    expect(loadingSeen).toBe(false);
    expect(transport.joins).toBe(1);
    // The history is not read again (the rating's state is read once, with the first load).
    expect(getCalls().filter(([url]) => String(url).startsWith('/api/chat-messages/'))).toHaveLength(0);
    expect(shown('Earlier question')).toBe(1);
    expect(shown('Pushed while closed')).toBe(1);
  });

  it('joins again on open when the join of this connection failed', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.history = [row({ id: 1, message: 'Earlier question' })];
    transport.joinError = new Error('operation has timed out');
    transport.connect();
    await advance(0);
    expect(transport.joins).toBe(1);
    await openPanel();
    expect(transport.joins).toBe(2);
    expect(screen.getByText('Earlier question')).toBeInTheDocument();
  });

  it('does not flash "Loading messages..." over the welcome when a later open retries a failed first load', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await renderWidget(new FakeTransport());
    await openPanel();
    expect(screen.getByText(welcomeText)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));

    fetchMock.mockImplementationOnce(() => new Promise<Response>(() => {}));
    await openPanel();
    expect(screen.queryByText('Loading messages...')).not.toBeInTheDocument();
    expect(screen.getByText(welcomeText)).toBeInTheDocument();
  });

  it('catches up and polls every 3 s on a later open while disconnected, and stops on close', async () => {
    const transport = new FakeTransport();
    await renderWidget(transport);
    transport.connect();
    await openPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    transport.drop();
    await advance(9_000);
    expect(getCalls()).toHaveLength(0); // closed: no poll

    await openPanel();
    expect(getCalls()).toHaveLength(1); // the catch-up: nothing was pushed while down
    await advance(9_000);
    expect(getCalls()).toHaveLength(4);

    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    await advance(9_000);
    expect(getCalls()).toHaveLength(4);
  });
});
