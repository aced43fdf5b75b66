import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/ui/toast';
import { AdminRoute } from './test/admin-route';
import { chatSession, contactRow, emptyCounts, fakeServer, type FakeServer } from './test/fake-server';
import { advance, conversationPane, freshDashboard, openChatTab, queryConversationPane } from './test/dashboard';
import type { FakeAdminSocket } from './test/fake-socket';

vi.mock('./api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

const me = 1;
const dana = 2;
const staffEmail = 'staff@lotwise.example';
const mine = contactRow({ name: 'Mine Lead', email: 'mine@dealer.example', assigneeId: me, assigneeName: 'staff' });
const danas = contactRow({ name: 'Dana Lead', email: 'dana@dealer.example', assigneeId: dana, assigneeName: 'Dana' });
const nobodys = contactRow({ name: 'Open Lead', email: 'open@dealer.example', assigneeId: null, assigneeName: null });
const sessionOf = (id: string, assigneeId: number | null) => chatSession({ id, assigneeId, assigneeName: assigneeId === me ? 'staff' : assigneeId === dana ? 'Dana' : null });

let server: FakeServer;
let socket: FakeAdminSocket;

beforeEach(() => {
  socket = freshDashboard();
  server = fakeServer({ admin: staffEmail });
  server.on('GET /api/assignees', () => ({
    body: { me, staff: [{ id: me, name: 'staff', role: 'admin', online: true }, { id: dana, name: 'Dana', role: 'agent', online: false }] },
  }));
  // The server's filter, as the API applies it.
  const byAssignee = <Row extends { assigneeId?: number | null }>(rows: Row[], url: URL) => {
    const assignee = url.searchParams.get('assignee') ?? 'all';
    return rows.filter((row) => (assignee === 'all' ? true : assignee === 'mine' ? row.assigneeId === me : (row.assigneeId ?? null) === null));
  };
  server.on('GET /api/contact-submissions', ({ url }) => ({ body: byAssignee([mine, danas, nobodys], url) }));
  server.on('GET /api/chat-sessions', ({ url }) => ({
    body: byAssignee([sessionOf('session_1732200000000_mineaaaa', me), sessionOf('session_1732200000001_danabbbb', dana)], url),
  }));
  server.on('GET /api/admin/counts', ({ url }) => {
    const assignee = url.searchParams.get('assignee');
    return { body: emptyCounts(assignee === 'mine' ? { contact: 1, chatSessions: 1, unreadChats: 1 } : assignee === 'unassigned' ? { contact: 1 } : { contact: 3, chatSessions: 2, unreadChats: 2 }) };
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function renderPage(at = '/admin'): Promise<void> {
  render(
    <>
      <AdminRoute at={at} />
      <Toaster />
    </>,
  );
  await advance();
}

const contactTable = () => screen.getByRole('table', { name: 'Contact Forms' });
const rowNames = (table: HTMLElement) => within(table).queryAllByRole('row').slice(1).map((row) => row.getAttribute('data-row-key'));

describe('Mine / Unassigned / All', () => {
  it('asks the server for the rows and figures of the filter chosen, for every list, and shows each row\'s assignee', async () => {
    await renderPage();
    expect(rowNames(contactTable())).toEqual([String(nobodys.id), String(danas.id), String(mine.id)]);
    expect(within(contactTable()).getByText('Dana')).toBeInTheDocument();
    expect(within(contactTable()).getAllByText('Unassigned').length).toBeGreaterThan(0);

    const filter = screen.getAllByRole('group', { name: 'Show whose work' })[0]!;
    fireEvent.click(within(filter).getByRole('button', { name: 'Mine' }));
    await advance();
    expect(within(filter).getByRole('button', { name: 'Mine' })).toHaveAttribute('aria-pressed', 'true');
    expect(rowNames(contactTable())).toEqual([String(mine.id)]);
    expect(server.calls).toContain('GET /api/contact-submissions?limit=100&assignee=mine');
    expect(server.calls).toContain('GET /api/admin/counts?assignee=mine');
    // The chat tab's badge follows: one unread conversation of mine.
    expect(screen.getByRole('tab', { name: /Chat Messages/ })).toHaveTextContent('1');

    fireEvent.click(within(filter).getByRole('button', { name: 'Unassigned' }));
    await advance();
    expect(rowNames(contactTable())).toEqual([String(nobodys.id)]);
    await openChatTab();
    // One choice for every list: the chat tab shows it too.
    const chatFilter = screen.getAllByRole('group', { name: 'Show whose work' }).find((group) => group.closest('[hidden]') === null)!;
    expect(within(chatFilter).getByRole('button', { name: 'Unassigned' })).toHaveAttribute('aria-pressed', 'true');
    expect(server.calls).toContain('GET /api/chat-sessions?limit=100&assignee=unassigned');
  });

  it('takes a conversation given to me by another staff member into Mine, and out of it when given away, as the pushes say', async () => {
    await renderPage();
    fireEvent.click(within(screen.getAllByRole('group', { name: 'Show whose work' })[0]!).getByRole('button', { name: 'Mine' }));
    await advance();
    await openChatTab();
    const table = () => screen.getByRole('table', { name: 'Chat Messages' });
    expect(rowNames(table())).toEqual(['session_1732200000000_mineaaaa']);
    socket.serverPush('chat-session:updated', { ...sessionOf('session_1732200000001_danabbbb', me), version: 5 });
    await advance(20);
    expect(rowNames(table())).toContain('session_1732200000001_danabbbb');
    socket.serverPush('chat-session:updated', { ...sessionOf('session_1732200000000_mineaaaa', dana), version: 5 });
    await advance(20);
    expect(rowNames(table())).toEqual(['session_1732200000001_danabbbb']);
  });
});

describe('the assignee picker', () => {
  it('assigns the open conversation to me, then to someone else, from its pane', async () => {
    const sessionId = 'session_1732200000001_danabbbb';
    server.on(`PUT /api/chat-sessions/${sessionId}/assignee`, ({ body }) => {
      const { assigneeId } = body as { assigneeId: number | null };
      return { body: sessionOf(sessionId, assigneeId) };
    });
    await renderPage(`/admin/chats/${sessionId}`);
    const pane = conversationPane();
    const picker = within(pane).getByTestId('assignee-picker');
    expect(within(picker).getByRole('combobox', { name: 'Assignee' })).toHaveValue(String(dana));
    fireEvent.click(within(picker).getByRole('button', { name: 'Assign this conversation to me' }));
    await advance();
    expect(server.bodies.filter((entry) => entry.call.startsWith('PUT')).map((entry) => entry.body)).toEqual([{ assigneeId: me }]);
    expect(within(picker).getByRole('combobox', { name: 'Assignee' })).toHaveValue(String(me));
    expect(within(picker).queryByRole('button', { name: /to me/ })).toBeNull();
    fireEvent.change(within(picker).getByRole('combobox', { name: 'Assignee' }), { target: { value: '' } });
    await advance();
    expect(server.bodies.filter((entry) => entry.call.startsWith('PUT')).at(-1)?.body).toEqual({ assigneeId: null });
  });
});

describe('the lists\' keys', () => {
  const press = (key: string, target: Element = document.body) => fireEvent.keyDown(target, { key });

  it('j and k move the selection along the rows, Enter opens one, Esc closes it and gives its row the focus back', async () => {
    await renderPage();
    const rows = () => within(contactTable()).getAllByRole('row').slice(1);
    press('j');
    expect(document.activeElement).toBe(rows()[0]);
    press('j');
    press('j');
    expect(document.activeElement).toBe(rows()[2]);
    press('j');
    expect(document.activeElement).toBe(rows()[2]);
    press('k');
    expect(document.activeElement).toBe(rows()[1]);
    press('Enter', rows()[1]);
    await advance();
    expect(screen.getByTestId('current-address')).toHaveTextContent(`/admin/leads/contact/${danas.id}`);
    press('Escape');
    await advance();
    expect(screen.getByTestId('current-address')).toHaveTextContent('/admin');
    expect(document.activeElement).toBe(rows()[1]);
  });

  it('does nothing while typing in a field', async () => {
    await renderPage();
    const search = screen.getByRole('searchbox', { name: 'Search Contact Forms' });
    search.focus();
    press('j', search);
    expect(document.activeElement).toBe(search);
  });

  it('moves between conversations on the chat tab and Esc closes the open one', async () => {
    await renderPage();
    await openChatTab();
    // Newest activity first: Dana's, then mine.
    press('j');
    expect(document.activeElement).toHaveAttribute('data-view-session', 'session_1732200000001_danabbbb');
    press('j');
    expect(document.activeElement).toHaveAttribute('data-view-session', 'session_1732200000000_mineaaaa');
    fireEvent.click(document.activeElement!);
    await advance();
    expect(queryConversationPane()).not.toBeNull();
    press('Escape');
    await advance();
    expect(queryConversationPane()).toBeNull();
    expect(document.activeElement).toHaveAttribute('data-view-session', 'session_1732200000000_mineaaaa');
  });
});
