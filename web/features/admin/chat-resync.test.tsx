import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminRoute } from './test/admin-route';
import { chatMessage, chatSession, emptyCounts, fakeServer, type FakeServer } from './test/fake-server';
import { advance, conversationPane, freshDashboard, openChatTab } from './test/dashboard';
import type { FakeAdminSocket } from './test/fake-socket';

// A reconnecting dashboard catches up on the chats by cursor: the versions of the sessions it holds and
// the open conversation's seq, never by reading the chat lists again.

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

const sessionId = 'session_1732200000000_abcdef';
const otherId = 'session_1732200000000_second';
let socket: FakeAdminSocket;
let server: FakeServer;

beforeEach(() => {
  socket = freshDashboard();
  server = fakeServer({ admin: 'staff@lotwise.example' });
  server.on('GET /api/admin/counts', () => ({ body: emptyCounts({ chatSessions: 2, unreadChats: 1 }) }));
  server.on('GET /api/chat-sessions', () => ({
    body: [
      chatSession({ id: sessionId, unreadCount: 1, lastActivity: '2026-11-21T11:00:00.000Z', senderEmail: 'buyer@lot.example', version: 3 }),
      chatSession({ id: otherId, unreadCount: 0, lastActivity: '2026-11-21T10:00:00.000Z', senderEmail: 'other@lot.example', version: 5 }),
    ],
  }));
  server.on(`GET /api/chat-messages/${sessionId}`, () => ({ body: [chatMessage({ id: 1, seq: 1, message: 'Hi, I run a lot in Austin' })] }));
  server.on(`PATCH /api/chat-sessions/${sessionId}`, () => ({ body: chatSession({ id: sessionId, unreadCount: 0, senderEmail: 'buyer@lot.example', version: 4 }) }));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function push(event: string, ...args: unknown[]) {
  act(() => socket.serverPush(event, ...args));
}

describe('a reconnecting dashboard', () => {
  it('sends the versions it holds and the open conversation’s cursor, and shows what it missed once, without reading the chat lists again', async () => {
    render(<AdminRoute />);
    await advance();
    push('connect');
    await advance();
    await openChatTab();
    fireEvent.click(within(screen.getByRole('table', { name: 'Chat Messages' }).querySelector(`[data-row-key="${sessionId}"]`)!).getByRole('button', { name: /View & Reply/ }));
    await advance();
    push('disconnect', 'transport close');

    // While away: the other session was resolved, and the open one got a reply and a new visitor message.
    const missed = [chatMessage({ id: 2, seq: 2, message: 'Which feed do you use?', isFromUser: false, kind: 'staff' }), chatMessage({ id: 3, seq: 3, message: 'HomeNet' })];
    server.on(`GET /api/chat-messages/${sessionId}`, ({ url }) => {
      const after = Number(url.searchParams.get('afterSeq') ?? 0);
      return { body: [chatMessage({ id: 1, seq: 1, message: 'Hi, I run a lot in Austin' }), ...missed].filter((message) => message.seq > after) };
    });
    server.on('POST /api/chat-sessions/resync', () => ({
      body: {
        sessions: [
          chatSession({ id: sessionId, unreadCount: 1, messageCount: 3, lastMessageId: 3, lastMessageSeq: 3, lastMessage: 'HomeNet', lastActivity: '2026-11-21T11:30:00.000Z', senderEmail: 'buyer@lot.example', version: 7 }),
          chatSession({ id: otherId, status: 'resolved', unreadCount: 0, lastActivity: '2026-11-21T10:00:00.000Z', senderEmail: 'other@lot.example', version: 6 }),
        ],
      },
    }));
    const listReads = server.calls.filter((call) => call.startsWith('GET /api/chat-sessions?')).length;
    const callsBefore = server.calls.length;
    push('connect');
    await advance();

    const resync = server.bodies.filter((entry) => entry.call === 'POST /api/chat-sessions/resync').at(-1)!.body as { known: { id: string; version: number }[] };
    // The open one at the version its read marker's answer gave.
    expect([...resync.known].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: sessionId, version: 4 },
      { id: otherId, version: 5 },
    ]);
    expect(server.calls.slice(callsBefore)).toContain(`GET /api/chat-messages/${sessionId}?afterSeq=1`);
    expect(server.calls.filter((call) => call.startsWith('GET /api/chat-sessions?')).length).toBe(listReads);

    const pane = conversationPane();
    for (const text of ['Hi, I run a lot in Austin', 'Which feed do you use?', 'HomeNet']) expect(within(pane).getAllByText(text)).toHaveLength(1);
    const otherRow = screen.getByRole('table', { name: 'Chat Messages' }).querySelector(`[data-row-key="${otherId}"]`)!;
    expect(within(otherRow as HTMLElement).getByRole('combobox')).toHaveValue('resolved');

    // The same catch-up again (another reconnect): nothing doubles.
    push('disconnect', 'transport close');
    push('connect');
    await advance();
    for (const text of ['Which feed do you use?', 'HomeNet']) expect(within(conversationPane()).getAllByText(text)).toHaveLength(1);
  });
});
