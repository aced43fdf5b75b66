import { act, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssigneeFilter } from '../../../../api/contract/assignment';
import type { ChatSessionStatus } from '../../../../api/contract/chat';
import { useAssigneeFilter } from '../stores/assignee-filter-store';
import { freshTablesEachTest, headers } from '../test/tables';
import { useListFilters } from '../stores/list-filters-store';
import { renderWithQueries as render, seedChatSessions, seedCounts } from '../test/query-cache';
import { chatSession, emptyCounts, fakeServer, type FakeServer } from '../test/fake-server';
import { ChatSessionsTable } from './chat-sessions-table';
import { CountCards } from './count-cards';

freshTablesEachTest();

/** The rows the contact list shows, from the table. */

describe('chat sessions table', () => {
  it('shows the short id, the sender fallback, the Customer badge and the unread count', () => {
    seedChatSessions([
      chatSession({ id: 'session_1732200000001_aaaa', senderEmail: 'buyer@lot.example', unreadCount: 3 }),
      chatSession({ id: 'session_1732200000002_bbbb', senderName: 'Pat', senderEmail: null, unreadCount: 0 }),
      chatSession({ id: 'session_1732200000003_cccc', hasCustomerMessage: false, unreadCount: 0, messageCount: 4 }),
    ]);
    render(
      <MemoryRouter>
        <ChatSessionsTable />
      </MemoryRouter>,
    );
    expect(headers(screen.getByRole('table', { name: 'Chat Messages' }))).toEqual([
      'Session',
      'Sender',
      'Last Message',
      'Messages',
      'Last Activity',
      'Assignee',
      'Status',
      'Actions',
    ]);
    const [first, second, third] = screen.getAllByRole('row').slice(1);
    // The last 8 characters: the first 8 would be `session_` on every row.
    expect(within(first!).getByText('001_aaaa')).toBeInTheDocument();
    expect(within(second!).getByText('002_bbbb')).toBeInTheDocument();
    expect(first).not.toHaveTextContent('session_');
    expect(first).toHaveTextContent('buyer@lot.example');
    expect(within(first!).getByText('Customer')).toBeInTheDocument();
    expect(within(first!).getByLabelText('3 unread')).toBeInTheDocument();
    expect(second).toHaveTextContent('Pat');
    expect(within(second!).queryByLabelText(/unread/)).not.toBeInTheDocument();
    expect(third).toHaveTextContent('Anonymous');
    expect(within(third!).queryByText('Customer')).not.toBeInTheDocument();
    expect(third).toHaveTextContent('4');
    expect(within(third!).getByRole('button', { name: /View & Reply/ })).toBeInTheDocument();
  });
});

describe('an empty chat list', () => {
  afterEach(() => useAssigneeFilter.getState().reset());

  it('says what is empty under each filter: whose, which status, which search; "yet" only for no chat at all', () => {
    const cases: { assignee: AssigneeFilter; status: ChatSessionStatus | null; q: string; text: string }[] = [
      { assignee: 'all', status: null, q: '', text: 'No chat sessions yet.' },
      { assignee: 'mine', status: null, q: '', text: 'No chat sessions assigned to you.' },
      { assignee: 'unassigned', status: null, q: '', text: 'No unassigned chat sessions.' },
      { assignee: 'all', status: 'open', q: '', text: 'No open chat sessions.' },
      { assignee: 'mine', status: 'open', q: '', text: 'No open chat sessions assigned to you.' },
      { assignee: 'unassigned', status: 'resolved', q: '', text: 'No resolved unassigned chat sessions.' },
      { assignee: 'mine', status: null, q: 'ford', text: 'No chat sessions assigned to you match "ford".' },
    ];
    for (const { assignee, status, q, text } of cases) {
      useAssigneeFilter.getState().setAssignee(assignee);
      useListFilters.getState().setChatFilter({ status, q });
      seedChatSessions([], { q, status, assignee });
      const { unmount } = render(
        <MemoryRouter>
          <ChatSessionsTable />
        </MemoryRouter>,
      );
      expect(screen.getByRole('table', { name: 'Chat Messages' }).parentElement?.querySelector('[data-empty-table]'), `${assignee} ${status} ${q}`).toHaveTextContent(text);
      unmount();
    }
  });
});

describe('resolving a chat', () => {
  const unreadId = 'session_1732200000001_aaaa';
  const readId = 'session_1732200000002_bbbb';

  function renderSessions() {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    for (const id of [unreadId, readId]) {
      server.on(`PATCH /api/chat-sessions/${id}`, ({ body }) => ({ body: chatSession({ id, ...(body as object) }) }));
    }
    seedChatSessions([
      chatSession({ id: unreadId, senderName: 'Dana', unreadCount: 2 }),
      chatSession({ id: readId, senderEmail: 'pat@dealer.example', unreadCount: 0 }),
    ]);
    render(
      <MemoryRouter>
        <ChatSessionsTable />
      </MemoryRouter>,
    );
    return server;
  }

  const statusOf = (short: string) => screen.getByRole('combobox', { name: `Status of chat ${short}` });
  const patches = (server: FakeServer) => server.bodies.filter((entry) => entry.call.startsWith('PATCH '));

  it('asks first when the conversation has an unread visitor message: Cancel leaves it open', async () => {
    const server = renderSessions();
    fireEvent.change(statusOf('001_aaaa'), { target: { value: 'resolved' } });
    const dialog = screen.getByRole('dialog', { name: 'Resolve with 2 unread messages?' });
    expect(dialog).toHaveTextContent('Dana sent 2 messages nobody has read yet.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await act(async () => {});
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(statusOf('001_aaaa')).toHaveValue('open');
    expect(patches(server)).toEqual([]);
  });

  it('resolves the conversation with an unread message when Resolve is chosen', async () => {
    const server = renderSessions();
    fireEvent.change(statusOf('001_aaaa'), { target: { value: 'resolved' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Resolve' }));
    await act(async () => {});
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(patches(server)).toEqual([{ call: `PATCH /api/chat-sessions/${unreadId}`, body: { status: 'resolved' } }]);
    expect(statusOf('001_aaaa')).toHaveValue('resolved');
  });

  it('resolves a conversation with nothing unread at once, and reopens without asking', async () => {
    const server = renderSessions();
    fireEvent.change(statusOf('002_bbbb'), { target: { value: 'resolved' } });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await act(async () => {});
    expect(statusOf('002_bbbb')).toHaveValue('resolved');
    act(() => seedChatSessions([chatSession({ id: unreadId, senderName: 'Dana', unreadCount: 2, status: 'resolved' }), chatSession({ id: readId, unreadCount: 0, status: 'resolved' })]));
    fireEvent.change(statusOf('001_aaaa'), { target: { value: 'open' } });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await act(async () => {});
    expect(patches(server)).toEqual([
      { call: `PATCH /api/chat-sessions/${readId}`, body: { status: 'resolved' } },
      { call: `PATCH /api/chat-sessions/${unreadId}`, body: { status: 'open' } },
    ]);
  });
});

describe('count cards', () => {
  it('show the five totals the server counted', () => {
    seedCounts(emptyCounts({ contact: 50_000, support: 7, demo: 3, getStarted: 2, chatSessions: 9 }));
    render(<CountCards onShow={() => undefined} />);
    expect(within(screen.getByTestId('count-contact')).getByText('50,000')).toBeInTheDocument();
    expect(within(screen.getByTestId('count-support')).getByText('7')).toBeInTheDocument();
    expect(within(screen.getByTestId('count-demo')).getByText('3')).toBeInTheDocument();
    expect(within(screen.getByTestId('count-getStarted')).getByText('2')).toBeInTheDocument();
    expect(within(screen.getByTestId('count-chatSessions')).getByText('9')).toBeInTheDocument();
  });
});
