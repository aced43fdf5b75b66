import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { timings } from '../../../api/contract/brand';
import { liveDashboard, liveSessionId, messageCountShown, renderDashboard } from './test/live-dashboard';
import { countsRecheckMs } from './api/live-cache';
import { chatMessage, chatSession, contactRow, emptyCounts } from './test/fake-server';
import { advance, chatTab, conversationPane, openChatTab } from './test/dashboard';

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

const live = liveDashboard();
const sessionId = liveSessionId;


/** How many times the page has asked for the count cards' figures. */
function countsRequests(): number {
  return live.server.calls.filter((call) => call === 'GET /api/admin/counts').length;
}

describe('socket reconnect', () => {
  it('while the socket cannot connect, says live updates are paused and reads the lists every 5 s until it connects', async () => {
    await renderDashboard();
    live.push('connect');
    await advance();
    expect(screen.queryByRole('status', { name: /Live updates paused/ })).not.toBeInTheDocument();

    // A network that blocks WebSockets: the handshake fails and the socket keeps trying.
    live.push('connect_error', new Error('websocket error'));
    await advance();
    expect(screen.getByRole('status')).toHaveTextContent('Live updates paused: refreshing every 5 s');
    const listReads = () => live.server.calls.filter((call) => call.startsWith('GET /api/contact-submissions')).length;
    const before = listReads();
    live.server.on('GET /api/contact-submissions', () => ({ body: [contactRow({ id: 4, name: 'Came In While Paused' }), contactRow({ id: 1, name: 'Older Lead' })] }));
    live.server.on('GET /api/admin/counts', () => ({ body: emptyCounts({ contact: 2, support: 1, chatSessions: 1 }) }));
    await advance(timings.staffOfflineRefreshMs);
    expect(listReads()).toBe(before + 1);
    expect(within(screen.getByRole('table', { name: 'Contact Forms' })).getAllByRole('row')[1]).toHaveTextContent('Came In While Paused');
    expect(within(screen.getByTestId('count-contact')).getByText('2')).toBeInTheDocument();
    await advance(timings.staffOfflineRefreshMs);
    expect(listReads()).toBe(before + 2);

    // Connected again: one catch-up, the notice goes, and the timer stops.
    live.push('connect');
    await advance();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    const afterConnect = listReads();
    await advance(timings.staffOfflineRefreshMs * 3);
    expect(listReads()).toBe(afterConnect);
  });

  it('a handshake that never completes also pauses live updates after 5 s, and the lists are read', async () => {
    live.socket.connected = false;
    await renderDashboard();
    await advance(timings.staffOfflineRefreshMs - 100);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await advance(100);
    expect(screen.getByRole('status')).toHaveTextContent('Live updates paused: refreshing every 5 s');
    // The chats by cursor: the sessions held, by version (the leads' lists are read again).
    const reads = live.server.calls.filter((call) => call === 'POST /api/chat-sessions/resync').length;
    await advance(timings.staffOfflineRefreshMs);
    expect(live.server.calls.filter((call) => call === 'POST /api/chat-sessions/resync').length).toBe(reads + 1);
  });

  it('a catch-up reads the open conversation again: a message missed while the socket was down shows, and is read', async () => {
    live.server.on(`GET /api/chat-messages/${sessionId}`, () => ({ body: [chatMessage({ id: 1, message: 'Hi, I run a lot in Austin' })] }));
    live.server.on(`PATCH /api/chat-sessions/${sessionId}`, () => ({ body: chatSession({ id: sessionId, unreadCount: 0 }) }));
    await renderDashboard();
    live.push('connect');
    await openChatTab();
    fireEvent.click(screen.getByRole('button', { name: /View & Reply/ }));
    await advance();
    const pane = conversationPane();
    const reads = () => live.server.bodies.filter((entry) => entry.call === `PATCH /api/chat-sessions/${sessionId}`).length;
    const readsBefore = reads();

    live.push('disconnect', 'transport close');
    live.server.on(`GET /api/chat-messages/${sessionId}`, () => ({
      body: [chatMessage({ id: 1, message: 'Hi, I run a lot in Austin' }), chatMessage({ id: 2, message: 'Sent while you were offline' })],
    }));
    await advance(timings.staffOfflineRefreshMs);
    expect(within(pane).getByText('Sent while you were offline')).toBeInTheDocument();
    expect(reads()).toBe(readsBefore + 1);
  });

  it('catches up when the socket first connects after the lists were read: a message stored in between shows', async () => {
    await renderDashboard();
    // Stored after the first load read the chat sessions, before the socket joined: pushed to nobody.
    live.server.on('GET /api/chat-sessions', () => ({
      body: [chatSession({ id: 'session_1732200000001_newone', unreadCount: 1, lastMessage: 'Anyone there?', lastActivity: '2026-11-21T11:59:00.000Z' }), chatSession({ id: sessionId, unreadCount: 0, lastActivity: '2026-11-21T11:00:00.000Z' })],
    }));
    live.server.on('GET /api/admin/counts', () => ({ body: emptyCounts({ contact: 1, support: 1, chatSessions: 2, unreadChats: 1 }) }));
    live.push('connect');
    await advance();
    expect(within(chatTab()).getByLabelText('1 unread')).toBeInTheDocument();
    expect(within(screen.getByTestId('count-chatSessions')).getByText('2')).toBeInTheDocument();
  });

  it('catches up on what arrived while the socket was down, keeping rows already loaded', async () => {
    await renderDashboard();
    live.push('connect');
    live.server.on('GET /api/contact-submissions', () => ({
      body: [contactRow({ id: 3, name: 'Missed While Offline' }), contactRow({ id: 1, name: 'Older Lead', status: 'closed' })],
    }));
    live.server.on('GET /api/admin/counts', () => ({ body: emptyCounts({ contact: 2, support: 1, chatSessions: 1 }) }));
    live.push('connect');
    await advance();
    const rows = within(screen.getByRole('table', { name: 'Contact Forms' })).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([expect.stringContaining('Missed While Offline'), expect.stringContaining('Older Lead')]);
    expect(screen.getByRole('combobox', { name: 'Status of Older Lead' })).toHaveValue('closed');
    expect(within(screen.getByTestId('count-contact')).getByText('2')).toBeInTheDocument();
  });

  it('does not count twice a message that the catch-up read already holds', async () => {
    await renderDashboard();
    const stored = chatMessage({ message: 'Stored before the catch-up read it' });
    live.server.on('GET /api/chat-sessions', () => ({
      body: [chatSession({ id: sessionId, unreadCount: 1, messageCount: 2, lastMessageId: stored.id, lastMessageSeq: stored.seq, lastMessage: stored.message, version: 1 })],
    }));
    live.server.on('GET /api/admin/counts', () => ({ body: emptyCounts({ contact: 1, support: 1, chatSessions: 1, unreadChats: 1 }) }));
    live.push('connect');
    await advance();
    live.push('chat:message', stored);
    await openChatTab();
    const row = within(screen.getByRole('table', { name: 'Chat Messages' })).getAllByRole('row')[1]!;
    expect(within(row).getByLabelText('1 unread')).toBeInTheDocument();
    expect(messageCountShown()).toBe('2');
    expect(within(chatTab()).getByLabelText('1 unread')).toBeInTheDocument();
  });

  it('settles the count cards on the server figures after a live event raced a catch-up read', async () => {
    await renderDashboard();
    // The catch-up read the counts after a new visitor's message was stored, and its list before.
    live.server.on('GET /api/admin/counts', () => ({ body: emptyCounts({ contact: 1, support: 1, chatSessions: 2, unreadChats: 1 }) }));
    live.push('connect');
    await advance();
    live.push('chat:message', chatMessage({ sessionId: 'session_1732200033333_racer', message: 'Raced the catch-up' }));
    const countsAsked = countsRequests();
    await advance(countsRecheckMs);
    expect(countsRequests()).toBe(countsAsked + 1);
    expect(within(screen.getByTestId('count-chatSessions')).getByText('2')).toBeInTheDocument();
    expect(within(chatTab()).getByLabelText('1 unread')).toBeInTheDocument();
  });

  it('keeps settling the counts while messages keep coming: one request per interval', async () => {
    await renderDashboard();
    const before = countsRequests();
    for (let second = 0; second < 6; second += 1) {
      live.push('chat:message', chatMessage({ sessionId: `session_1732200044444_busy${second}`, message: `Question ${second}` }));
      await advance(1000);
    }
    // A message a second for 6 s, a recheck 1.5 s after the first not yet covered: at 1.5, 3.5 and 5.5 s.
    expect(countsRecheckMs).toBe(1500);
    expect(countsRequests() - before).toBe(3);
  });

  it('asks the server about the session when the server closes the socket', async () => {
    await renderDashboard();
    live.server.on('GET /api/session', () => ({ body: { admin: null, dealer: null, staffIdleMinutes: 10 } }));
    live.push('disconnect', 'io server disconnect');
    await advance();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });
});

describe('chat search', () => {
  it('asks the server, and lists only matching sessions as messages arrive', async () => {
    live.server.on('GET /api/chat-sessions', ({ url }) => ({
      body: url.searchParams.get('q') === 'financing' ? [chatSession({ id: sessionId, lastMessage: 'Do you do financing?', unreadCount: 0 })] : [],
    }));
    await renderDashboard();
    await openChatTab();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Chat Messages' }), { target: { value: 'financing' } });
    await advance(400);
    expect(live.server.calls).toContain('GET /api/chat-sessions?limit=100&q=financing');
    const table = () => screen.getByRole('table', { name: 'Chat Messages' });
    expect(within(table()).getAllByRole('row')).toHaveLength(2);
    live.push('chat:message', chatMessage({ sessionId: 'session_1732200011111_other', message: 'What are your hours?' }));
    // Under a search, the server says whether a session matches it.
    await advance();
    expect(within(table()).getAllByRole('row')).toHaveLength(2);
    live.push('chat:message', chatMessage({ sessionId: 'session_1732200022222_match', message: 'Is financing available for buyers?' }));
    await advance();
    expect(within(table()).getAllByRole('row')).toHaveLength(3);
    expect(document.title).toBe('(2) Admin Dashboard · Lotwise');
  });
});
