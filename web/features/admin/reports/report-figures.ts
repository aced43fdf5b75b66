import type { DurationStats, TeamReport } from '../../../../api/contract/reports';

/** A table of figures as the screen shows it and the CSV has it: one source for both. */
export interface FigureTable {
  /** The CSV's file name, without the range and extension. */
  name: string;
  columns: string[];
  /** Each cell: what the screen shows, and what the CSV holds (raw numbers, seconds for durations). */
  rows: { key: string; cells: { shown: string; csv: string | number }[] }[];
}

/** Seconds as a person reads a wait: 45s, 2m 5s, 1h 15m, 2d 3h. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '–';
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return whole % 60 ? `${minutes}m ${whole % 60}s` : `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours}h ${minutes % 60}m` : `${hours}h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days}d ${hours % 24}h` : `${days}d`;
}

/** A share of a whole as a whole percent; a dash when there is no whole. */
export function formatShare(part: number, whole: number): string {
  return whole === 0 ? '–' : `${Math.round((part / whole) * 100)}%`;
}

const number = (value: number) => ({ shown: value.toLocaleString('en-US'), csv: value });
const text = (value: string) => ({ shown: value, csv: value });
const duration = (seconds: number | null) => ({ shown: formatDuration(seconds), csv: seconds ?? '' });

export function conversationsTable(report: TeamReport): FigureTable {
  return {
    name: 'conversations-per-day',
    columns: ['Day', 'Conversations'],
    rows: report.conversationsPerDay.map((row) => ({ key: row.day, cells: [text(row.day), number(row.conversations)] })),
  };
}

const statCells = (stats: DurationStats) => [number(stats.count), duration(stats.medianSeconds), duration(stats.p90Seconds)];

export function responseTimesTable(report: TeamReport): FigureTable {
  return {
    name: 'response-times',
    columns: ['Agent', 'First responses', 'First response median', 'First response p90', 'Resolved', 'Resolution median', 'Resolution p90'],
    rows: [
      ...report.agents.map((agent) => ({
        key: String(agent.staffId ?? 'former'),
        cells: [text(agent.name), ...statCells(agent.firstResponse), ...statCells(agent.resolution)],
      })),
      { key: 'team', cells: [text('Whole team'), ...statCells(report.team.firstResponse), ...statCells(report.team.resolution)] },
    ],
  };
}

export function ratingsTable(report: TeamReport): FigureTable {
  const { good, bad } = report.ratings;
  const rated = good + bad;
  const share = (part: number) => ({ shown: formatShare(part, rated), csv: rated === 0 ? '' : Number((part / rated).toFixed(4)) });
  return {
    name: 'ratings',
    columns: ['Rating', 'Conversations', 'Share'],
    rows: [
      { key: 'good', cells: [text('Good'), number(good), share(good)] },
      { key: 'bad', cells: [text('Bad'), number(bad), share(bad)] },
      { key: 'rated', cells: [text('Rated'), number(rated), share(rated)] },
    ],
  };
}

export function leadsTable(report: TeamReport): FigureTable {
  return {
    name: 'leads-per-week',
    columns: ['Week of', 'Contact', 'Support', 'Demo', 'Get started', 'Total'],
    rows: report.leadsPerWeek.map((week) => ({
      key: week.weekStart,
      cells: [
        text(week.weekStart),
        number(week.contact),
        number(week.support),
        number(week.demo),
        number(week.getStarted),
        number(week.contact + week.support + week.demo + week.getStarted),
      ],
    })),
  };
}

/** A CSV cell: quoted when it must be, and text a spreadsheet would run as a formula defused with a leading '. */
function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The table as CSV (RFC 4180, CRLF line ends). */
export function toCsv(table: FigureTable): string {
  const lines = [table.columns, ...table.rows.map((row) => row.cells.map((cell) => cell.csv))];
  return `${lines.map((line) => line.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
