import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminRoute } from './test/admin-route';
import { chatMessage, chatSession, emptyCounts, fakeServer, type FakeServer } from './test/fake-server';
import { advance, conversationPane, freshDashboard, openChatTab } from './test/dashboard';
import type { FakeAdminSocket } from './test/fake-socket';

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

const sessionId = 'session_1732200000000_abcdef';
let socket: FakeAdminSocket;
let server: FakeServer;

beforeEach(() => {
  socket = freshDashboard();
  server = fakeServer({ admin: 'staff@lotwise.example' });
  server.on('GET /api/admin/counts', () => ({ body: emptyCounts({ chatSessions: 1 }) }));
  server.on('GET /api/chat-sessions', () => ({ body: [chatSession({ id: sessionId, unreadCount: 0, senderEmail: 'buyer@lot.example', status: 'resolved' })] }));
  server.on(`GET /api/chat-messages/${sessionId}`, () => ({ body: [chatMessage({ message: 'Do you do feeds?' }), chatMessage({ id: 2, message: 'We do.', isFromUser: false })] }));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const push = (event: string, ...args: unknown[]) => act(() => socket.serverPush(event, ...args));
const chatTable = () => screen.getByRole('table', { name: 'Chat Messages' });

describe("the visitor's rating, for staff", () => {
  it('comes in live: a badge in the inbox list and the rating with its comment on the open conversation', async () => {
    render(<AdminRoute />);
    await advance();
    await openChatTab();
    fireEvent.click(screen.getByRole('button', { name: /View & Reply/ }));
    await advance();
    expect(within(chatTable()).queryByLabelText(/^Rated/)).not.toBeInTheDocument();
    expect(within(conversationPane()).queryByTestId('conversation-rating')).not.toBeInTheDocument();

    const comment = 'Slow to answer <b>really</b>';
    push('chat-session:updated', chatSession({ id: sessionId, unreadCount: 0, senderEmail: 'buyer@lot.example', status: 'resolved', rating: { rating: 'bad', comment, ratedAt: '2026-11-21T12:00:00.000Z' } }));

    expect(within(chatTable()).getByLabelText('Rated bad, with a comment').closest('[data-rating]')).toHaveAttribute('data-rating', 'bad');
    const shown = within(conversationPane()).getByTestId('conversation-rating');
    expect(shown).toHaveTextContent('Visitor rated this chat bad');
    // As typed: text, never markup.
    expect(shown).toHaveTextContent(`“${comment}”`);
    expect(shown.querySelector('b')).toBeNull();
  });

  it('shows a good rating without a comment from the list as loaded', async () => {
    server.on('GET /api/chat-sessions', () => ({
      body: [chatSession({ id: sessionId, unreadCount: 0, status: 'resolved', rating: { rating: 'good', comment: null, ratedAt: '2026-11-21T12:00:00.000Z' } })],
    }));
    render(<AdminRoute />);
    await advance();
    await openChatTab();
    expect(within(chatTable()).getByLabelText('Rated good').closest('[data-rating]')).toHaveAttribute('title', 'Rated good');
    fireEvent.click(screen.getByRole('button', { name: /View & Reply/ }));
    await advance();
    expect(within(conversationPane()).getByTestId('conversation-rating')).toHaveTextContent('Visitor rated this chat good');
  });
});
