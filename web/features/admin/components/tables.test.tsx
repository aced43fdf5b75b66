import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssigneeFilter } from '../../../../api/contract/assignment';
import type { ChatSessionStatus } from '../../../../api/contract/chat';
import type { LeadKind, LeadStatus } from '../../../../api/contract/leads';
import { useAssigneeFilter } from '../stores/assignee-filter-store';
import { useChatUi } from '../stores/chat-ui-store';
import { useListFilters } from '../stores/list-filters-store';
import { freshQueryClient, renderWithQueries as render, seedChatSessions, seedCounts, seedLeads, testQueryClient } from '../test/query-cache';
import { createInboxController } from '../inbox-controller';
import { chatSession, contactRow, emptyCounts, fakeServer, type FakeServer, getStartedRow, ticketRow } from '../test/fake-server';
import { ChatSessionsTable } from './chat-sessions-table';
import { CountCards } from './count-cards';
import { LeadTable } from './lead-table';

beforeEach(() => {
  freshQueryClient();
  useListFilters.getState().reset();
  useChatUi.getState().reset();
  seedCounts(emptyCounts());
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function headers(table: HTMLElement): string[] {
  return within(table)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent ?? '');
}

const seed = seedLeads;

/** The rows the contact list shows, from the table. */
function shownLeadIds(): number[] {
  return [...screen.getByRole('table', { name: 'Contact Forms' }).querySelectorAll('[data-row-key]')].map((row) => Number(row.getAttribute('data-row-key')));
}

describe('lead tables', () => {
  it('shows the spec columns of each tab, then Status and Note', () => {
    const expected: Record<LeadKind, string[]> = {
      contact: ['Name', 'Email', 'Company', 'Subject', 'Date'],
      support: ['Name', 'Email', 'Priority', 'Category', 'Subject', 'Date'],
      demo: ['Name', 'Email', 'Company', 'Phone', 'Date'],
      'get-started': ['Name', 'Email', 'Dealership', 'Phone', 'Inventory Size', 'Launch Date', 'Date Submitted'],
    };
    for (const kind of Object.keys(expected) as LeadKind[]) {
      const { unmount } = render(<LeadTable kind={kind} title={kind} />);
      expect(headers(screen.getByRole('table', { name: kind }))).toEqual([...expected[kind], 'Assignee', 'Status', 'Note']);
      unmount();
    }
  });

  it('renders a contact row with the subject label and an en-US short date', () => {
    seed('contact', [contactRow({ name: 'Jane Doe', subject: 'pricing', createdAt: '2026-11-20T15:30:00.000Z' })]);
    render(<LeadTable kind="contact" title="Contact Forms" />);
    const row = screen.getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Jane Doe');
    expect(row).toHaveTextContent('jane@dealer.example');
    expect(row).toHaveTextContent('Doe Motors');
    expect(row).toHaveTextContent('Pricing Information');
    const expectedDate = new Date('2026-11-20T15:30:00.000Z').toLocaleString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    expect(row).toHaveTextContent(expectedDate);
    expect(expectedDate).toMatch(/^Nov 2[01], 2026/);
  });

  it('colours priority badges: low green, medium yellow, high red, urgent purple', () => {
    seed('support', [
      ticketRow({ name: 'Low Lou', priority: 'low' }),
      ticketRow({ name: 'Med Meg', priority: 'medium' }),
      ticketRow({ name: 'High Hal', priority: 'high' }),
      ticketRow({ name: 'Urgent Una', priority: 'urgent' }),
    ]);
    render(<LeadTable kind="support" title="Support Tickets" />);
    const badge = (label: string) => screen.getByText(label).parentElement!;
    expect(badge('Low').className).toMatch(/bg-green-100/);
    expect(badge('Medium').className).toMatch(/bg-yellow-100/);
    expect(badge('High').className).toMatch(/bg-red-100/);
    expect(badge('Urgent').className).toMatch(/bg-purple-100/);
    expect(screen.getAllByText('Billing Question')).toHaveLength(4);
  });

  it('shows get-started names as first plus last, with the option labels', () => {
    seed('get-started', [getStartedRow()]);
    render(<LeadTable kind="get-started" title="Get Started Requests" />);
    const row = screen.getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Ava Stone');
    expect(row).toHaveTextContent('Stone Pre-Owned');
    expect(row).toHaveTextContent('50-99 vehicles');
    expect(row).toHaveTextContent('As soon as possible');
  });

  it('renders only a window of 50,000 loaded rows', () => {
    const createdAt = '2026-11-20T15:30:00.000Z';
    seed(
      'contact',
      Array.from({ length: 50_000 }, (_, index) => contactRow({ id: index + 1, name: `Lead ${index}`, createdAt })),
      true,
    );
    render(<LeadTable kind="contact" title="Contact Forms" />);
    const table = screen.getByRole('table', { name: 'Contact Forms' });
    expect(table).toHaveAttribute('aria-rowcount', '50001');
    const drawn = table.querySelectorAll('tr[data-row-index]');
    expect(drawn.length).toBeGreaterThan(5);
    expect(drawn.length).toBeLessThan(60);
    expect(screen.getByText('Lead 0')).toBeInTheDocument();
    expect(screen.queryByText('Lead 49999')).not.toBeInTheDocument();
  });

  it('asks for the next page with the keyset cursor of the last row when scrolled near the end', async () => {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    const rows = Array.from({ length: 100 }, (_, index) =>
      contactRow({ id: 1000 - index, name: `Lead ${index}`, createdAt: '2026-11-20T15:30:00.000Z' }),
    );
    seed('contact', rows, true);
    server.on('GET /api/contact-submissions', () => ({ body: [contactRow({ id: 5, name: 'Older lead' })] }));
    render(<LeadTable kind="contact" title="Contact Forms" />);
    const scroller = screen.getByTestId('virtual-table-scroller');
    await act(async () => {
      scroller.scrollTop = 100 * 52 - 600;
      fireEvent.scroll(scroller);
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(server.calls).toContain(`GET /api/contact-submissions?limit=100&before=${encodeURIComponent('2026-11-20T15:30:00.000Z,901')}`);
    expect(screen.getByRole('table', { name: 'Contact Forms' })).toHaveAttribute('aria-rowcount', '102');
  });

  it('searches on the server after typing pauses, and exports what the tab shows', async () => {
    vi.useFakeTimers();
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    server.on('GET /api/contact-submissions', ({ url }) => ({
      body: url.searchParams.get('q') === 'doe' ? [contactRow({ name: 'Jane Doe' })] : [],
    }));
    seed('contact', []);
    render(<LeadTable kind="contact" title="Contact Forms" />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Contact Forms' }), { target: { value: 'd' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Contact Forms' }), { target: { value: 'doe' } });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(400);
    });
    expect(server.calls.filter((call) => call.startsWith('GET /api/contact-submissions'))).toEqual([
      'GET /api/contact-submissions?limit=100&q=doe',
    ]);
    expect(screen.getByRole('table', { name: 'Contact Forms' })).toHaveTextContent('Jane Doe');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/contact-submissions?format=csv&q=doe');
  });

  it('filters by status with counts, keeps the search, pages and exports under the filter', async () => {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    const closed = contactRow({ id: 11, name: 'Closed Carl', status: 'closed', createdAt: '2026-11-20T15:30:00.000Z' });
    server.on('GET /api/contact-submissions', () => ({ body: [contactRow({ id: 12, name: 'New Nina' }), closed] }));
    seedCounts(emptyCounts({ contact: 40, byStatus: { ...emptyCounts().byStatus, contact: { new: 12, contacted: 20, closed: 8 } } }));
    useListFilters.getState().setLeadFilter('contact', { q: 'carl' });
    seed('contact', [], false, { q: 'carl', status: null });
    render(<LeadTable kind="contact" title="Contact Forms" />);
    const filter = screen.getByRole('group', { name: 'Filter Contact Forms by status' });
    const option = (name: RegExp) => within(filter).getByRole('button', { name });
    expect(within(filter).getAllByRole('button').map((button) => button.textContent)).toEqual(['All 40', 'New 12', 'Contacted 20', 'Closed 8']);
    expect(option(/^All/)).toHaveAttribute('aria-pressed', 'true');

    fireEvent.click(option(/^Closed/));
    // The read answers when it answers (a busy machine): wait for its rows, not for a fixed tick.
    const table = screen.getByRole('table', { name: 'Contact Forms' });
    await waitFor(() => expect(table).toHaveTextContent('Closed Carl'));
    expect(server.calls).toEqual(['GET /api/contact-submissions?limit=100&q=carl&status=closed']);
    expect(option(/^Closed/)).toHaveAttribute('aria-pressed', 'true');
    expect(option(/^All/)).toHaveAttribute('aria-pressed', 'false');
    expect(table).not.toHaveTextContent('New Nina');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/contact-submissions?format=csv&q=carl&status=closed');

    // A full page asks for the next under the same filter and search.
    await act(async () => {
      seed('contact', Array.from({ length: 100 }, (_, index) => contactRow({ id: 1000 - index, status: 'closed', createdAt: '2026-11-20T15:30:00.000Z' })), true, { q: 'carl', status: 'closed' });
    });
    const scroller = screen.getByTestId('virtual-table-scroller');
    await act(async () => {
      scroller.scrollTop = 100 * 52 - 600;
      fireEvent.scroll(scroller);
    });
    await waitFor(() =>
      expect(server.calls.at(-1)).toBe(`GET /api/contact-submissions?limit=100&before=${encodeURIComponent('2026-11-20T15:30:00.000Z,901')}&q=carl&status=closed`),
    );
  });

  it('keeps a live list to its status filter: a new lead stays out of Closed, a lead moved out of it leaves', async () => {
    fakeServer({ admin: 'staff@lotwise.example' });
    vi.useFakeTimers();
    const carl = contactRow({ id: 21, name: 'Closed Carl', status: 'closed' });
    seedCounts(emptyCounts({ contact: 1, byStatus: { ...emptyCounts().byStatus, contact: { new: 0, contacted: 0, closed: 1 } } }));
    useListFilters.getState().setLeadFilter('contact', { status: 'closed' });
    seed('contact', [carl], false, { q: '', status: 'closed' });
    render(<LeadTable kind="contact" title="Contact Forms" />);
    const inbox = createInboxController(testQueryClient, () => undefined);
    const figures = () => within(screen.getByRole('group', { name: 'Filter Contact Forms by status' })).getAllByRole('button').map((button) => button.textContent);
    await act(async () => {
      inbox.push({ event: 'submission:new', payload: { kind: 'contact', item: contactRow({ id: 22, name: 'Fresh Fay' }) } });
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(shownLeadIds()).toEqual([21]);
    // Counted all the same: the total and the New figure.
    expect(figures()).toEqual(['All 2', 'New 1', 'Contacted 0', 'Closed 1']);

    await act(async () => {
      inbox.push({ event: 'lead:updated', payload: { kind: 'contact', item: { ...carl, status: 'contacted' } } });
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(shownLeadIds()).toEqual([]);
    expect(figures()).toEqual(['All 2', 'New 1', 'Contacted 1', 'Closed 0']);
    expect(screen.getByText('No closed contact forms.')).toBeInTheDocument();
    inbox.dispose();
  });

  it('changes a lead status and note in place through PATCH', async () => {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    const row = contactRow({ name: 'Jane Doe' });
    seed('contact', [row]);
    let stored = row;
    server.on(`PATCH /api/leads/contact/${row.id}`, ({ body }) => {
      stored = { ...stored, ...(body as object) };
      return { body: stored };
    });
    render(<LeadTable kind="contact" title="Contact Forms" />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Status of Jane Doe' }), { target: { value: 'contacted' } });
    const note = screen.getByRole('textbox', { name: 'Note for Jane Doe' });
    fireEvent.focus(note);
    fireEvent.change(note, { target: { value: 'Called, wants a demo Friday' } });
    await act(async () => {
      fireEvent.blur(note);
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(server.bodies.filter((entry) => entry.call.startsWith('PATCH')).map((entry) => entry.body)).toEqual([
      { status: 'contacted' },
      { note: 'Called, wants a demo Friday' },
    ]);
    expect(screen.getByRole('textbox', { name: 'Note for Jane Doe' })).toHaveValue('Called, wants a demo Friday');
    expect(screen.getByRole('combobox', { name: 'Status of Jane Doe' })).toHaveValue('contacted');
  });
});

/** A phone's screen for matchMedia: `(max-width: 639px)` and narrower queries match. */
function stubPhoneScreen(): void {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(max-width: 639px)',
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

describe('an empty lead list', () => {
  afterEach(() => useAssigneeFilter.getState().reset());

  it('says what is empty under its assignee and status filters; "yet" only for no lead at all', () => {
    const cases: { assignee: AssigneeFilter; status: LeadStatus | null; text: string }[] = [
      { assignee: 'all', status: null, text: 'No contact forms yet.' },
      { assignee: 'mine', status: null, text: 'No contact forms assigned to you.' },
      { assignee: 'unassigned', status: 'closed', text: 'No closed unassigned contact forms.' },
    ];
    for (const { assignee, status, text } of cases) {
      useAssigneeFilter.getState().setAssignee(assignee);
      useListFilters.getState().setLeadFilter('contact', { status });
      seed('contact', [], false, { q: '', status, assignee });
      const { unmount } = render(<LeadTable kind="contact" title="Contact Forms" />);
      expect(screen.getByRole('table', { name: 'Contact Forms' }).parentElement?.querySelector('[data-empty-table]'), `${assignee} ${status}`).toHaveTextContent(text);
      unmount();
    }
  });
});

describe('lead tables on a phone', () => {
  it('show each row as a card of labelled cells that fits the screen; the row still opens its lead and its status changes', async () => {
    stubPhoneScreen();
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    const row = contactRow({ name: 'Jane Doe' });
    seed('contact', [row]);
    server.on(`PATCH /api/leads/contact/${row.id}`, ({ body }) => ({ body: { ...row, ...(body as object) } }));
    const opened: number[] = [];
    render(<LeadTable kind="contact" title="Contact Forms" onOpen={(_kind, id) => opened.push(id)} />);
    const table = screen.getByRole('table', { name: 'Contact Forms' });
    // No least width of all the columns side by side: the card takes the screen's width.
    expect(table.style.minWidth).toBe('');
    const card = within(table).getAllByRole('row')[1]!;
    const cells = within(card).getAllByRole('cell');
    expect(cells.map((cell) => cell.querySelector('[aria-hidden="true"]')?.textContent)).toEqual([
      'Name',
      'Email',
      'Company',
      'Subject',
      'Date',
      'Assignee',
      'Status',
      'Note',
    ]);
    fireEvent.click(within(card).getByText('jane@dealer.example'));
    expect(opened).toEqual([row.id]);
    fireEvent.change(within(card).getByRole('combobox', { name: 'Status of Jane Doe' }), { target: { value: 'contacted' } });
    await act(async () => {});
    expect(server.bodies.filter((entry) => entry.call.startsWith('PATCH')).map((entry) => entry.body)).toEqual([{ status: 'contacted' }]);
    expect(opened).toEqual([row.id]);
  });

  it('show the columns side by side on a wider screen', () => {
    seed('contact', [contactRow({ name: 'Jane Doe' })]);
    render(<LeadTable kind="contact" title="Contact Forms" />);
    const table = screen.getByRole('table', { name: 'Contact Forms' });
    expect(table.style.minWidth).not.toBe('');
    const cells = within(table).getAllByRole('cell');
    expect(cells).toHaveLength(8);
    expect(cells.some((cell) => cell.querySelector('[aria-hidden="true"]'))).toBe(false);
  });
});

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
