import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { timings } from '../../../api/contract/brand';
import { liveDashboard, liveSessionId, messageCountShown, renderDashboard } from './test/live-dashboard';
import { chatMessage, chatSession, contactRow, ticketRow } from './test/fake-server';
import { advance, chatTab, conversationPane, fakeAudioContext, fakeNotification, openChatTab, type ShownNotification } from './test/dashboard';

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

const live = liveDashboard();
const sessionId = liveSessionId;

/** The ids of the rows a table shows. */
function shownIds(table: string): string[] {
  return [...screen.getByRole('table', { name: table }).querySelectorAll('[data-row-key]')].map((row) => row.getAttribute('data-row-key')!);
}



describe('live submissions and lead updates', () => {
  it('puts a new submission at the top of its tab and bumps its count card', async () => {
    await renderDashboard();
    expect(within(screen.getByTestId('count-contact')).getByText('1')).toBeInTheDocument();
    live.push('submission:new', { kind: 'contact', item: contactRow({ id: 2, name: 'Brand New Lead' }) });
    const rows = within(screen.getByRole('table', { name: 'Contact Forms' })).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Brand New Lead');
    expect(rows[2]).toHaveTextContent('Older Lead');
    expect(within(screen.getByTestId('count-contact')).getByText('2')).toBeInTheDocument();
    // The same push twice (a reconnect) is shown once.
    live.push('submission:new', { kind: 'contact', item: contactRow({ id: 2, name: 'Brand New Lead' }) });
    expect(within(screen.getByRole('table', { name: 'Contact Forms' })).getAllByText('Brand New Lead')).toHaveLength(1);
  });

  it("alerts staff when the site's anonymous chat traffic passes its daily limit", async () => {
    await renderDashboard();
    expect(screen.queryByText('Unusual chat traffic today')).not.toBeInTheDocument();
    live.push('alert:anonymous-budget', { day: '2026-12-23', conversations: 2001, messages: 9000, dailyConversations: 2000, dailyMessages: 20000, overToday: true });
    const alert = screen.getByText('Unusual chat traffic today').closest('[data-testid="toast"]')!;
    expect(alert).toHaveAttribute('data-variant', 'destructive');
    expect(alert).toHaveTextContent('2001 new chats and 9000 visitor messages so far today');
    expect(alert).toHaveTextContent('no mail goes out about them until tomorrow');
  });

  it('counts a submission that does not match the search without showing it in the searched list', async () => {
    await renderDashboard();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Support Tickets' }));
    await advance();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Support Tickets' }), { target: { value: 'invoice' } });
    await advance(400);
    live.push('submission:new', { kind: 'support', item: ticketRow({ id: 7, subject: 'Login broken', name: 'Other Person' }) });
    // Under a search, the server says whether a new row matches it.
    await advance(100);
    expect(shownIds('Support Tickets')).not.toContain('7');
    expect(within(screen.getByTestId('count-support')).getByText('2')).toBeInTheDocument();
    live.push('submission:new', { kind: 'support', item: ticketRow({ id: 8, subject: 'Invoice twice', name: 'Match Person' }) });
    await advance(100);
    expect(shownIds('Support Tickets')).toContain('8');
  });

  it("shows another staff member's status change and note", async () => {
    await renderDashboard();
    live.push('lead:updated', { kind: 'contact', item: contactRow({ id: 1, name: 'Older Lead', status: 'closed', note: 'Signed up' }) });
    expect(screen.getByRole('combobox', { name: 'Status of Older Lead' })).toHaveValue('closed');
    expect(screen.getByRole('textbox', { name: 'Note for Older Lead' })).toHaveValue('Signed up');
  });
});

describe('live chat inbox', () => {
  it('counts unread visitor messages per session, in the tab label and in the page title', async () => {
    await renderDashboard();
    expect(document.title).toBe('Admin Dashboard · Lotwise');
    live.push('chat:message', chatMessage({ message: 'First question' }));
    live.push('chat:message', chatMessage({ message: 'Second question' }));
    live.push('chat:message', chatMessage({ sessionId: 'session_1732200099999_zzzz', message: 'Someone new' }));
    expect(within(chatTab()).getByLabelText('2 unread')).toBeInTheDocument();
    expect(document.title).toBe('(2) Admin Dashboard · Lotwise');
    await openChatTab();
    const rows = within(screen.getByRole('table', { name: 'Chat Messages' })).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Someone new');
    expect(rows[0]).toHaveTextContent('Anonymous');
    expect(within(rows[0]!).getByLabelText('1 unread')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Second question');
    expect(within(rows[1]!).getByLabelText('2 unread')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('3');
    expect(within(screen.getByTestId('count-chatSessions')).getByText('2')).toBeInTheDocument();
  });

  it("shows a session's figures as the server counts them, not as its pushes add up", async () => {
    await renderDashboard();
    await openChatTab();
    const message = chatMessage({ message: 'Are you still there?' });
    // The server holds more of this conversation than this screen saw pushed.
    live.server.on('GET /api/chat-sessions', () => ({
      body: [chatSession({ id: sessionId, unreadCount: 4, messageCount: 9, lastMessageId: message.id, lastMessageSeq: message.seq, lastMessage: message.message, senderEmail: 'buyer@lot.example' })],
    }));
    live.push('chat:message', message);
    await advance();
    const row = within(screen.getByRole('table', { name: 'Chat Messages' })).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Are you still there?');
    expect(within(row).getByLabelText('4 unread')).toBeInTheDocument();
    expect(within(row).getAllByRole('cell')[3]).toHaveTextContent('9');
  });

  it('asks the server about a flood of new sessions with a few reads of the first page, not a request a session', async () => {
    await renderDashboard();
    const before = live.server.calls.length;
    for (let index = 0; index < 500; index++) {
      live.push('chat:message', chatMessage({ sessionId: `session_17322${String(index).padStart(8, '0')}_flood`, message: `Flood ${index}` }));
    }
    await advance(1000);
    const reads = live.server.calls.slice(before).filter((call) => call.startsWith('GET /api/chat-sessions'));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(3);
    expect(new Set(reads)).toEqual(new Set(['GET /api/chat-sessions?limit=100']));
    expect(within(screen.getByTestId('count-chatSessions')).getByText('501')).toBeInTheDocument();
  });

  it('shows a browser notification for a visitor message, not for a staff reply', async () => {
    const shown: ShownNotification[] = [];
    vi.stubGlobal('Notification', fakeNotification(shown));
    await renderDashboard();
    live.push('chat:message', chatMessage({ message: 'Do you do financing?' }));
    live.push('chat:message', chatMessage({ isFromUser: false, message: 'Yes we do' }));
    expect(shown).toEqual([{ title: 'New message from buyer@lot.example', body: 'Do you do financing?', tag: `chat-${sessionId}` }]);
  });

  it('beeps through Web Audio for a visitor message once a gesture has unlocked audio', async () => {
    const tones: number[] = [];
    vi.stubGlobal('AudioContext', fakeAudioContext(tones));
    await renderDashboard();
    fireEvent.mouseDown(document.body);
    live.push('chat:message', chatMessage({ isFromUser: false, message: 'A staff reply makes no sound' }));
    expect(tones).toEqual([]);
    live.push('chat:message', chatMessage({ message: 'Hello?' }));
    expect(tones).toEqual([880, 1320]);
  });

  it('asks for notification permission once, on the first gesture', async () => {
    const requestPermission = vi.fn(async () => 'granted');
    vi.stubGlobal('Notification', { permission: 'default', requestPermission });
    await renderDashboard();
    expect(requestPermission).not.toHaveBeenCalled();
    fireEvent.mouseDown(document.body);
    fireEvent.keyDown(document.body, { key: 'a' });
    expect(requestPermission).toHaveBeenCalledTimes(1);
  });

  it('opens a session, marks it read, and appends live messages and typing to the open conversation', async () => {
    live.server.on(`GET /api/chat-messages/${sessionId}`, () => ({
      body: [
        chatMessage({ id: 1, message: 'Hi, I run a lot in Austin', senderName: 'Dana' }),
        chatMessage({ id: 2, message: 'Welcome Dana!', isFromUser: false }),
      ],
    }));
    live.server.on(`PATCH /api/chat-sessions/${sessionId}`, () => ({
      body: chatSession({ id: sessionId, unreadCount: 0, senderEmail: 'buyer@lot.example' }),
    }));
    await renderDashboard();
    live.push('chat:message', chatMessage({ message: 'Anyone?' }));
    expect(document.title).toBe('(1) Admin Dashboard · Lotwise');
    await openChatTab();
    fireEvent.click(screen.getByRole('button', { name: /View & Reply/ }));
    await advance();
    const pane = conversationPane();
    expect(within(pane).getByRole('heading', { name: 'Chat with buyer@lot.example' })).toBeInTheDocument();
    expect(within(pane).getByText(sessionId)).toBeInTheDocument();
    const bubbles = within(pane).getAllByRole('listitem').filter((item) => item.dataset.from);
    expect(bubbles.map((item) => item.dataset.from)).toEqual(['user', 'support']);
    expect(bubbles[0]).toHaveTextContent('Dana');
    expect(bubbles[0]!.className).toMatch(/justify-start/);
    expect(bubbles[1]).toHaveTextContent('Support');
    expect(bubbles[1]!.className).toMatch(/justify-end/);
    expect(live.server.bodies).toContainEqual({ call: `PATCH /api/chat-sessions/${sessionId}`, body: { read: true } });
    expect(document.title).toBe('Admin Dashboard · Lotwise');

    live.push('chat:typing', { sessionId, typing: true });
    expect(within(pane).getByText('Visitor is typing...')).toBeInTheDocument();
    live.push('chat:message', chatMessage({ id: 3, message: 'Do you handle Facebook Marketplace?' }));
    expect(within(pane).queryByText('Visitor is typing...')).not.toBeInTheDocument();
    expect(within(pane).getByText('Do you handle Facebook Marketplace?').closest('li')?.dataset.from).toBe('user');
    expect(within(pane).getAllByText('Customer').length).toBeGreaterThan(0);
    // Seen in the open pane: no unread badge comes back.
    expect(document.title).toBe('Admin Dashboard · Lotwise');

    live.push('chat:typing', { sessionId, typing: true });
    await advance(timings.typingShownMaxMs + 100);
    expect(within(pane).queryByText('Visitor is typing...')).not.toBeInTheDocument();
  });

  it('sends a reply: disabled while empty, staff typing sent, toast Reply sent, shown on the right', async () => {
    live.server.on(`GET /api/chat-messages/${sessionId}`, () => ({ body: [chatMessage({ id: 1, message: 'Price for 60 cars?' })] }));
    live.server.on(`PATCH /api/chat-sessions/${sessionId}`, () => ({ body: chatSession({ id: sessionId, unreadCount: 0 }) }));
    live.server.on('POST /api/admin-chat-reply', ({ body }) => ({
      status: 201,
      body: chatMessage({ id: 50, isFromUser: false, message: (body as { message: string }).message }),
    }));
    await renderDashboard();
    await openChatTab();
    fireEvent.click(screen.getByRole('button', { name: /View & Reply/ }));
    await advance();
    const pane = conversationPane();
    const box = within(pane).getByRole('textbox', { name: 'Reply' });
    expect(box).toHaveAttribute('rows', '3');
    const send = within(pane).getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    fireEvent.change(box, { target: { value: '   ' } });
    expect(send).toBeDisabled();
    fireEvent.change(box, { target: { value: '  $199 a month on Professional.  ' } });
    expect(send).toBeEnabled();
    expect(live.socket.emitted).toContainEqual({ event: 'chat:typing', args: [{ sessionId, typing: true }] });
    fireEvent.click(send);
    await advance();
    expect(live.server.bodies).toContainEqual({
      call: 'POST /api/admin-chat-reply',
      body: { sessionId, message: '$199 a month on Professional.' },
    });
    expect(screen.getByText('Reply sent')).toBeInTheDocument();
    expect(box).toHaveValue('');
    expect(within(pane).getByText('$199 a month on Professional.').closest('li')?.dataset.from).toBe('support');
    expect(live.socket.emitted).toContainEqual({ event: 'chat:typing', args: [{ sessionId, typing: false }] });
    // The server's push of the same reply does not show it twice or count it twice.
    live.push('chat:message', chatMessage({ id: 50, isFromUser: false, message: '$199 a month on Professional.' }));
    expect(within(pane).getAllByText('$199 a month on Professional.')).toHaveLength(1);
    fireEvent.click(within(pane).getByRole('button', { name: 'Close' }));
    await advance(100);
    expect(messageCountShown()).toBe('2');
  });

  it('says Failed to send reply. and keeps the text when the reply fails', async () => {
    live.server.on(`GET /api/chat-messages/${sessionId}`, () => ({ body: [] }));
    live.server.on('POST /api/admin-chat-reply', () => ({ status: 500, body: { message: 'Internal Server Error' } }));
    await renderDashboard();
    await openChatTab();
    fireEvent.click(screen.getByRole('button', { name: /View & Reply/ }));
    await advance();
    const box = within(conversationPane()).getByRole('textbox', { name: 'Reply' });
    fireEvent.change(box, { target: { value: 'Are you there?' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await advance();
    expect(screen.getByText('Failed to send reply.')).toBeInTheDocument();
    expect(box).toHaveValue('Are you there?');
  });

  it('says Failed to load chat session. when the history does not load', async () => {
    live.server.on(`GET /api/chat-messages/${sessionId}`, () => ({ status: 500, body: { message: 'Internal Server Error' } }));
    await renderDashboard();
    await openChatTab();
    fireEvent.click(screen.getByRole('button', { name: /View & Reply/ }));
    await advance();
    expect(screen.getByText('Failed to load chat session.')).toBeInTheDocument();
  });

  it('resolves a session and shows a resolution pushed by another staff member', async () => {
    live.server.on(`PATCH /api/chat-sessions/${sessionId}`, ({ body }) => ({ body: chatSession({ id: sessionId, ...(body as object), unreadCount: 0 }) }));
    await renderDashboard();
    await openChatTab();
    const select = screen.getByRole('combobox', { name: 'Status of chat 0_abcdef' });
    fireEvent.change(select, { target: { value: 'resolved' } });
    await advance();
    expect(live.server.bodies).toContainEqual({ call: `PATCH /api/chat-sessions/${sessionId}`, body: { status: 'resolved' } });
    expect(select).toHaveValue('resolved');
    live.push('chat-session:updated', chatSession({ id: sessionId, status: 'open', unreadCount: 0 }));
    expect(screen.getByRole('combobox', { name: 'Status of chat 0_abcdef' })).toHaveValue('open');
  });
});

