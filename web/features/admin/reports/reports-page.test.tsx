import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TeamReport } from '../../../../api/contract/reports';
import { AdminRoute } from '../test/admin-route';
import { advance, freshDashboard } from '../test/dashboard';
import { fakeServer, type FakeServer } from '../test/fake-server';
import { formatDuration, toCsv } from './report-figures';

vi.mock('../api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('../api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

beforeEach(() => {
  freshDashboard();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const report: TeamReport = {
  from: '2026-04-01',
  to: '2026-04-07',
  conversationsPerDay: [
    { day: '2026-04-01', conversations: 2 },
    { day: '2026-04-02', conversations: 0 },
    { day: '2026-04-03', conversations: 1 },
  ],
  agents: [
    { staffId: 1, name: 'Anna', firstResponse: { count: 3, medianSeconds: 120, p90Seconds: 504 }, resolution: { count: 2, medianSeconds: 4500, p90Seconds: 6660 } },
    { staffId: null, name: '=Former, "staff"', firstResponse: { count: 1, medianSeconds: 30, p90Seconds: 30 }, resolution: { count: 0, medianSeconds: null, p90Seconds: null } },
  ],
  team: { firstResponse: { count: 4, medianSeconds: 90, p90Seconds: 480 }, resolution: { count: 2, medianSeconds: 4500, p90Seconds: 6660 } },
  ratings: { good: 3, bad: 1 },
  leadsPerWeek: [{ weekStart: '2026-03-30', contact: 2, support: 1, demo: 0, getStarted: 4 }],
};

function reportServer(answer: () => { status?: number; body: unknown } = () => ({ body: report })): FakeServer {
  const server = fakeServer({ admin: 'staff@lotwise.example' });
  server.on('GET /api/reports', answer);
  return server;
}

async function openAt(address: string): Promise<void> {
  // The reports are a lazy chunk of their own: loaded here first, React.lazy's import finds it at once.
  await import('./reports-page');
  render(<AdminRoute at={address} />);
  for (let turn = 0; turn < 5; turn += 1) await advance();
  expect(screen.queryByText('Loading reports...')).toBeNull();
}

const section = (title: string) => screen.getByRole('region', { name: title });
const rowsOf = (title: string) =>
  within(within(section(title)).getByRole('table', { name: title }))
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('the reports', () => {
  it('reads the range in the address and shows each figure as a chart and a table', async () => {
    const server = reportServer();
    await openAt('/admin/reports?from=2026-04-01&to=2026-04-07');
    expect(server.calls).toContain('GET /api/reports?from=2026-04-01&to=2026-04-07');
    expect(screen.getByRole('heading', { name: 'Reports' })).toBeInTheDocument();
    expect(rowsOf('Conversations per day')).toEqual([
      ['Day', 'Conversations'],
      ['2026-04-01', '2'],
      ['2026-04-02', '0'],
      ['2026-04-03', '1'],
    ]);
    expect(rowsOf('Response and resolution times')).toEqual([
      ['Agent', 'First responses', 'First response median', 'First response p90', 'Resolved', 'Resolution median', 'Resolution p90'],
      ['Anna', '3', '2m', '8m 24s', '2', '1h 15m', '1h 51m'],
      ['=Former, "staff"', '1', '30s', '30s', '0', '–', '–'],
      ['Whole team', '4', '1m 30s', '8m', '2', '1h 15m', '1h 51m'],
    ]);
    expect(rowsOf('Ratings')).toEqual([
      ['Rating', 'Conversations', 'Share'],
      ['Good', '3', '75%'],
      ['Bad', '1', '25%'],
      ['Rated', '4', '100%'],
    ]);
    expect(within(section('Ratings')).getByText('75% good of 4 rated conversations.')).toBeInTheDocument();
    expect(rowsOf('Leads by kind per week')).toEqual([
      ['Week of', 'Contact', 'Support', 'Demo', 'Get started', 'Total'],
      ['2026-03-30', '2', '1', '0', '4', '7'],
    ]);
    // A chart beside each table (two for the times), each named for assistive technology.
    expect(screen.getAllByTestId('report-chart').map((chart) => chart.getAttribute('aria-label'))).toEqual([
      'Bar chart: conversations started each day, 3 in all',
      "Bar chart: median and p90 first response by agent; the team's median is 1m 30s",
      "Bar chart: median and p90 resolution time by agent; the team's median is 1h 15m",
      'Doughnut chart: 3 good and 1 bad ratings',
      'Stacked bar chart: leads of each kind per week',
    ]);
  });

  it('downloads a table as CSV: raw figures, seconds for times, a formula-like name defused', async () => {
    reportServer();
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), 'blob:report')), revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    await openAt('/admin/reports?from=2026-04-01&to=2026-04-07');
    fireEvent.click(screen.getByRole('button', { name: 'Download Response and resolution times as CSV' }));
    expect(clicked.map((link) => link.download)).toEqual(['response-times-2026-04-01-to-2026-04-07.csv']);
    expect(await blobs[0]!.text()).toBe(
      [
        'Agent,First responses,First response median,First response p90,Resolved,Resolution median,Resolution p90',
        'Anna,3,120,504,2,4500,6660',
        `"'=Former, ""staff""",1,30,30,0,,`,
        'Whole team,4,90,480,2,4500,6660',
        '',
      ].join('\r\n'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download Ratings as CSV' }));
    expect(await blobs[1]!.text()).toBe('Rating,Conversations,Share\r\nGood,3,0.75\r\nBad,1,0.25\r\nRated,4,1\r\n');
  });

  it('asks for the last 30 days by default, and a new range when one is chosen; a backwards one is refused before asking', async () => {
    const server = reportServer();
    await openAt('/admin/reports');
    // The fake clock's day.
    const today = '2026-11-21';
    const first = server.calls.find((call) => call.startsWith('GET /api/reports'))!;
    const asked = new URL(first.slice(4), 'http://localhost').searchParams;
    expect(asked.get('to')).toBe(today);
    expect((Date.parse(asked.get('to')!) - Date.parse(asked.get('from')!)) / 86_400_000).toBe(29);

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-04-08' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-04-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The start date must not be after the end date.');
    expect(server.calls.filter((call) => call.startsWith('GET /api/reports'))).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await advance();
    expect(server.calls).toContain('GET /api/reports?from=2026-03-01&to=2026-04-01');
    expect(screen.getByTestId('current-address')).toHaveTextContent('/admin/reports?from=2026-03-01&to=2026-04-01');
  });

  it("shows the server's reason for a range it refused", async () => {
    reportServer(() => ({ status: 400, body: { message: 'Validation failed', errors: { to: 'A report covers at most 366 days' } } }));
    await openAt('/admin/reports?from=2020-01-01&to=2026-01-01');
    expect(screen.getByRole('alert')).toHaveTextContent('A report covers at most 366 days');
  });

  it('writes times as a wait reads', () => {
    expect([null, 0, 59.4, 60, 125, 3600, 4500, 86_400, 97_200].map(formatDuration)).toEqual(['–', '0s', '59s', '1m', '2m 5s', '1h', '1h 15m', '1d', '1d 3h']);
    expect(toCsv({ name: 'x', columns: ['A', 'B'], rows: [{ key: '1', cells: [{ shown: '+1', csv: '+1' }, { shown: '2', csv: 2 }] }] })).toBe("A,B\r\n'+1,2\r\n");
  });
});
