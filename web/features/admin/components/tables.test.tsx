import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AssigneeFilter } from '../../../../api/contract/assignment';
import type { LeadKind, LeadStatus } from '../../../../api/contract/leads';
import { useAssigneeFilter } from '../stores/assignee-filter-store';
import { freshTablesEachTest, headers } from '../test/tables';
import { useListFilters } from '../stores/list-filters-store';
import { renderWithQueries as render, seedCounts, seedLeads, testQueryClient } from '../test/query-cache';
import { createInboxController } from '../inbox-controller';
import { contactRow, emptyCounts, fakeServer, getStartedRow, ticketRow } from '../test/fake-server';
import { LeadTable } from './lead-table';

freshTablesEachTest();

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

