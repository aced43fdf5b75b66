import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../api/contract/chat';
import { AdminRoute } from './test/admin-route';
import { alertIntervalMs } from './lib/alerts';
import { frameFallbackMs, pushesAppliedAtOncePerFrame } from './lib/frame-batcher';
import { chatMessage, chatSession, emptyCounts, fakeServer, type FakeServer } from './test/fake-server';
import { advance, chatTab, conversationPane, fakeAudioContext, fakeNotification, freshDashboard, openChatTab, type ShownNotification } from './test/dashboard';
import type { FakeAdminSocket } from './test/fake-socket';

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

const sessionId = 'session_1732200000000_abcdef';
const burstSize = 500;
let socket: FakeAdminSocket;
let server: FakeServer;

// The page keeps the first audio context a gesture made for the rest of this file: one sink for its tones.
const tones: number[] = [];
const FakeAudioContext = fakeAudioContext(tones);
const shown: ShownNotification[] = [];

/** The i-th visitor of a flood, each on a new session, each a second after the one before, all before the clock's now. */
function burstMessage(index: number): ChatMessage {
  return chatMessage({
    sessionId: `session_1732200${String(index).padStart(6, '0')}_flood`,
    seq: 1,
    message: `Flood message ${index}`,
    createdAt: new Date(Date.parse('2026-11-21T11:50:00.000Z') + index * 1000).toISOString(),
  });
}

beforeEach(() => {
  socket = freshDashboard();
  vi.stubGlobal('AudioContext', FakeAudioContext);
  vi.stubGlobal('Notification', fakeNotification(shown));
  shown.length = 0;
  server = fakeServer({ admin: 'staff@lotwise.example' });
  server.on('GET /api/admin/counts', () => ({ body: emptyCounts({ chatSessions: 1, unreadChats: 0 }) }));
  server.on('GET /api/chat-sessions', () => ({
    body: [chatSession({ id: sessionId, unreadCount: 0, lastActivity: '2026-11-21T11:00:00.000Z', senderEmail: 'buyer@lot.example' })],
  }));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});


/** Each push its own task, as the socket delivers them. */
function push(event: string, ...args: unknown[]) {
  act(() => socket.serverPush(event, ...args));
}

function pushBurst(): void {
  for (let index = 1; index <= burstSize; index++) push('chat:message', burstMessage(index));
}

async function renderDashboard(onCommit: () => void = () => {}) {
  render(
    <Profiler id="dashboard" onRender={onCommit}>
      <AdminRoute />
    </Profiler>,
  );
  await advance();
}

describe('a burst of pushes', () => {
  it('500 new chats pushed one after another render a handful of times, all counted and listed, with one beep', async () => {
    let commits = 0;
    await renderDashboard(() => (commits += 1));
    await openChatTab();
    // The gesture that unlocks audio.
    fireEvent.mouseDown(document.body);
    const tonesBefore = tones.length;
    commits = 0;

    pushBurst();
    await advance(20);

    expect(commits).toBeLessThanOrEqual(pushesAppliedAtOncePerFrame + 2);
    expect(within(screen.getByTestId('count-chatSessions')).getByText(String(burstSize + 1))).toBeInTheDocument();
    expect(within(chatTab()).getByLabelText(`${burstSize} unread`)).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Chat Messages' });
    expect(table).toHaveAttribute('aria-rowcount', String(burstSize + 2));
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent(`Flood message ${burstSize}`);
    expect(rows[1]).toHaveTextContent(`Flood message ${burstSize - 1}`);
    expect(tones.slice(tonesBefore)).toEqual([880, 1320]);

    // The messages after the first are summed up in one notification, without another beep.
    await advance(alertIntervalMs);
    expect(shown).toEqual([
      { title: 'New chat', body: 'Flood message 1', tag: 'chat-session_1732200000001_flood' },
      { title: `${burstSize - 1} new chat messages`, body: `Latest from Anonymous: Flood message ${burstSize}`, tag: 'chat-messages' },
    ]);
    expect(tones.slice(tonesBefore)).toEqual([880, 1320]);
  });

  it('a lone message after the burst has quieted beeps and notifies at once again', async () => {
    await renderDashboard();
    fireEvent.mouseDown(document.body);
    pushBurst();
    await advance(alertIntervalMs * 3);
    const tonesBefore = tones.length;
    const notificationsBefore = shown.length;

    push('chat:message', chatMessage({ message: 'A question after the flood' }));
    expect(tones.slice(tonesBefore)).toEqual([880, 1320]);
    expect(shown.slice(notificationsBefore)).toEqual([
      { title: 'New message from buyer@lot.example', body: 'A question after the flood', tag: `chat-${sessionId}` },
    ]);
    await openChatTab();
    expect(screen.getByRole('table', { name: 'Chat Messages' }).querySelector(`[data-row-key="${sessionId}"]`)).toHaveTextContent('A question after the flood');
  });

  it('applies the pushes where animation frames do not run, as in a hidden tab', async () => {
    // A hidden tab's animation frames never come.
    vi.stubGlobal('requestAnimationFrame', () => 0);
    await renderDashboard();
    pushBurst();
    await advance(frameFallbackMs);
    expect(within(screen.getByTestId('count-chatSessions')).getByText(String(burstSize + 1))).toBeInTheDocument();
    expect(within(chatTab()).getByLabelText(`${burstSize} unread`)).toBeInTheDocument();
  });

  it('leaves at most one read of the chat list under way however long a burst goes on, and ends with the newest rows', async () => {
    // Each read of the list takes 50 ms to answer: pushes keep asking for it meanwhile.
    const answered = globalThis.fetch;
    let underWay = 0;
    let mostUnderWay = 0;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (!input.startsWith('/api/chat-sessions?')) return answered(input, init);
      underWay += 1;
      mostUnderWay = Math.max(mostUnderWay, underWay);
      await new Promise((resolve) => setTimeout(resolve, 50));
      try {
        return await answered(input, init);
      } finally {
        underWay -= 1;
      }
    });
    await renderDashboard();
    await openChatTab();
    const before = server.calls.length;
    for (let index = 1; index <= burstSize; index++) {
      push('chat:message', burstMessage(index));
      // Spread over a second: many frames, each asking for the list again.
      if (index % 25 === 0) await advance(50);
    }
    await advance(500);
    expect(mostUnderWay).toBe(1);
    const reads = server.calls.slice(before).filter((call) => call.startsWith('GET /api/chat-sessions?'));
    expect(reads.length).toBeLessThanOrEqual(burstSize / 25 + 1);
    const rows = within(screen.getByRole('table', { name: 'Chat Messages' })).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent(`Flood message ${burstSize}`);
    expect(rows[1]).toHaveTextContent(`Flood message ${burstSize - 1}`);
  });

  it('keeps the order of a burst: the open conversation shows its messages as they came', async () => {
    server.on(`GET /api/chat-messages/${sessionId}`, () => ({ body: [] }));
    server.on(`PATCH /api/chat-sessions/${sessionId}`, () => ({ body: chatSession({ id: sessionId, unreadCount: 0 }) }));
    await renderDashboard();
    await openChatTab();
    fireEvent.click(screen.getByRole('button', { name: /View & Reply/ }));
    await advance();
    const texts = Array.from({ length: 20 }, (_, index) => `Line ${index + 1}`);
    for (const [index, text] of texts.entries()) {
      push('chat:typing', { sessionId, typing: true });
      push('chat:message', chatMessage({ message: text, isFromUser: index % 3 !== 2 }));
    }
    await advance(20);
    const pane = conversationPane();
    const bubbles = within(pane).getAllByRole('listitem').filter((item) => item.dataset.from);
    expect(bubbles.map((item) => item.querySelector('p + p')?.textContent)).toEqual(texts);
    // The typing came before the last message: it no longer shows.
    expect(within(pane).queryByText('Visitor is typing...')).not.toBeInTheDocument();
  });
});
