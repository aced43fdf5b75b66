import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ChartConfiguration } from 'chart.js';
import { ArrowLeft } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { daysBetween, defaultReportRange, isReportDay, reportMaxDays, reportRangeMessages, type TeamReport } from '../../../../api/contract/reports';
import { ApiError } from '../../../lib/api-client';
import { adminApi } from '../api/admin-api';
import { adminHome } from '../lib/admin-paths';
import { badColor, goodColor, ReportChart, seriesColors } from './report-chart';
import { conversationsTable, type FigureTable, formatDuration, formatShare, leadsTable, ratingsTable, responseTimesTable } from './report-figures';
import { CsvButton, ReportTable } from './report-table';

type Range = { from: string; to: string };

/** The range in the address (`?from=&to=`), so a report can be reloaded and shared; else the last 30 days. */
function useRange(): [Range, (range: Range) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const fallback = defaultReportRange();
  const from = searchParams.get('from');
  const to = searchParams.get('to');
  const range = from && to && isReportDay(from) && isReportDay(to) ? { from, to } : fallback;
  return [range, (next) => setSearchParams(next, { replace: true })];
}

/** What is wrong with a range before asking: the server says the same. */
function rangeProblem({ from, to }: Range): string | null {
  if (!isReportDay(from) || !isReportDay(to)) return 'Choose a start and an end date.';
  if (from > to) return `${reportRangeMessages.order}.`;
  if (daysBetween(from, to) > reportMaxDays) return `${reportRangeMessages.length}.`;
  return null;
}

function RangeForm({ range, onChange }: { range: Range; onChange: (range: Range) => void }) {
  const [draft, setDraft] = useState(range);
  const [problem, setProblem] = useState<string | null>(null);
  const fromId = useId();
  const toId = useId();
  const problemId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = rangeProblem(draft);
    setProblem(found);
    if (!found) onChange(draft);
  };
  const input = 'mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm';
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-describedby={problem ? problemId : undefined}>
      <div>
        <label htmlFor={fromId} className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
          From
        </label>
        <input id={fromId} type="date" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} className={input} />
      </div>
      <div>
        <label htmlFor={toId} className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
          To
        </label>
        <input id={toId} type="date" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} className={input} />
      </div>
      <button type="submit" className="rounded-md bg-brand px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-dark">
        Show
      </button>
      {problem ? (
        <p id={problemId} role="alert" className="basis-full text-sm text-red-700">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

/** One figure: its title, a line on what it counts, the CSV, then the chart with its table beside it (below it on a phone). */
function ReportSection({
  title,
  note,
  table,
  range,
  chart,
  wide = false,
}: {
  title: string;
  note: string;
  table: FigureTable;
  range: Range;
  chart: ReactNode;
  /** A table too wide to stand beside its chart: below it, the full width. */
  wide?: boolean;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="rounded-lg border border-slate-200 bg-white p-4 sm:p-5">
      <div className="mb-3 flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="text-base font-semibold text-slate-900">
            {title}
          </h3>
          <p className="text-sm text-slate-500">{note}</p>
        </div>
        <CsvButton table={table} range={range} label={title} />
      </div>
      <div className={`grid min-w-0 gap-4 ${wide ? '' : 'lg:grid-cols-2'}`}>
        {chart}
        <ReportTable table={table} caption={title} />
      </div>
    </section>
  );
}

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayLabel = (day: string) => shortDay.format(new Date(`${day}T00:00:00.000Z`));

/** The unit a chart of waits counts in: the largest that keeps its longest bar at 2 or more. */
function durationUnit(seconds: (number | null)[]): { name: string; seconds: number } {
  const longest = Math.max(0, ...seconds.map((value) => value ?? 0));
  if (longest >= 2 * 86_400) return { name: 'days', seconds: 86_400 };
  if (longest >= 2 * 3600) return { name: 'hours', seconds: 3600 };
  if (longest >= 2 * 60) return { name: 'minutes', seconds: 60 };
  return { name: 'seconds', seconds: 1 };
}

function charts(report: TeamReport) {
  const agentNames = report.agents.map((agent) => agent.name);
  const timesOf = (pick: 'firstResponse' | 'resolution', title: string): ChartConfiguration => {
    const medians = report.agents.map((agent) => agent[pick].medianSeconds);
    const p90s = report.agents.map((agent) => agent[pick].p90Seconds);
    const unit = durationUnit([...medians, ...p90s]);
    const inUnit = (values: (number | null)[]) => values.map((value) => (value === null ? null : value / unit.seconds));
    return {
      type: 'bar',
      data: {
        labels: agentNames,
        datasets: [
          { label: 'Median', data: inUnit(medians), backgroundColor: seriesColors[0] },
          { label: 'p90', data: inUnit(p90s), backgroundColor: seriesColors[1] },
        ],
      },
      options: {
        plugins: {
          title: { display: true, text: title },
          tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${formatDuration(item.parsed.y === null ? null : item.parsed.y * unit.seconds)}` } },
        },
        scales: { y: { beginAtZero: true, title: { display: true, text: unit.name } } },
      },
    };
  };
  const kinds = [
    ['Contact', 'contact'],
    ['Support', 'support'],
    ['Demo', 'demo'],
    ['Get started', 'getStarted'],
  ] as const;
  return {
    conversations: {
      type: 'bar',
      data: {
        labels: report.conversationsPerDay.map((row) => dayLabel(row.day)),
        datasets: [{ label: 'Conversations', data: report.conversationsPerDay.map((row) => row.conversations), backgroundColor: seriesColors[0] }],
      },
      options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    } satisfies ChartConfiguration,
    firstResponse: timesOf('firstResponse', 'First response'),
    resolution: timesOf('resolution', 'Resolution'),
    ratings: {
      type: 'doughnut',
      data: { labels: ['Good', 'Bad'], datasets: [{ data: [report.ratings.good, report.ratings.bad], backgroundColor: [goodColor, badColor] }] },
    } satisfies ChartConfiguration,
    leads: {
      type: 'bar',
      data: {
        labels: report.leadsPerWeek.map((week) => `Week of ${dayLabel(week.weekStart)}`),
        datasets: kinds.map(([label, key], index) => ({ label, data: report.leadsPerWeek.map((week) => week[key]), backgroundColor: seriesColors[index] })),
      },
      options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
    } satisfies ChartConfiguration,
  };
}

function Report({ report, range }: { report: TeamReport; range: Range }) {
  const drawn = useMemo(() => charts(report), [report]);
  const tables = useMemo(
    () => ({ conversations: conversationsTable(report), times: responseTimesTable(report), ratings: ratingsTable(report), leads: leadsTable(report) }),
    [report],
  );
  const total = report.conversationsPerDay.reduce((sum, row) => sum + row.conversations, 0);
  const rated = report.ratings.good + report.ratings.bad;
  const noAgents = report.agents.length === 0;
  return (
    <div className="space-y-4">
      <ReportSection
        title="Conversations per day"
        note={`${total.toLocaleString('en-US')} started in these days (UTC).`}
        table={tables.conversations}
        range={range}
        chart={<ReportChart config={drawn.conversations} label={`Bar chart: conversations started each day, ${total} in all`} />}
      />
      <ReportSection
        title="Response and resolution times"
        note="First response: the first staff reply after the visitor's first message, counted for whoever sent it. Resolution: from the start until resolved, counted for whoever resolved it."
        table={tables.times}
        range={range}
        wide
        chart={
          noAgents ? (
            <p className="text-sm text-slate-500">No replies or resolutions in these days.</p>
          ) : (
            <div className="grid min-w-0 gap-4 lg:grid-cols-2">
              <ReportChart config={drawn.firstResponse} label={`Bar chart: median and p90 first response by agent; the team's median is ${formatDuration(report.team.firstResponse.medianSeconds)}`} />
              <ReportChart config={drawn.resolution} label={`Bar chart: median and p90 resolution time by agent; the team's median is ${formatDuration(report.team.resolution.medianSeconds)}`} />
            </div>
          )
        }
      />
      <ReportSection
        title="Ratings"
        note={rated === 0 ? 'No conversation started in these days was rated.' : `${formatShare(report.ratings.good, rated)} good of ${rated} rated conversations.`}
        table={tables.ratings}
        range={range}
        chart={
          rated === 0 ? (
            <p className="text-sm text-slate-500">No ratings yet.</p>
          ) : (
            <ReportChart config={drawn.ratings} label={`Doughnut chart: ${report.ratings.good} good and ${report.ratings.bad} bad ratings`} />
          )
        }
      />
      <ReportSection
        title="Leads by kind per week"
        note="Forms sent in these days, by the week they fall in (weeks start on Monday)."
        table={tables.leads}
        range={range}
        chart={<ReportChart config={drawn.leads} label="Stacked bar chart: leads of each kind per week" />}
      />
    </div>
  );
}

/** Why the server refused the range (a 400 names the field's problem), or undefined for any other failure. */
function refusal(error: Error): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  return Object.values(error.body?.errors ?? {})[0] ?? error.serverMessage;
}

/** `/admin/reports`: the team's figures over a date range, charts with their tables and CSVs. */
export function ReportsPage() {
  const [range, setRange] = useRange();
  const query = useQuery({
    queryKey: ['report', range.from, range.to] as const,
    queryFn: () => adminApi.report(range),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="space-y-4">
      <Link to={adminHome} className="inline-flex items-center gap-1.5 text-sm font-medium text-brand hover:underline">
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to the dashboard
      </Link>
      <div className="flex flex-wrap items-end justify-between gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-5">
        <div>
          <h2 id={titleId} className="text-xl font-bold text-slate-900">
            Reports
          </h2>
          <p className="text-sm text-slate-500">
            {range.from} to {range.to}, whole days in UTC
          </p>
        </div>
        <RangeForm key={`${range.from}_${range.to}`} range={range} onChange={setRange} />
      </div>
      {query.data ? (
        <div aria-busy={query.isFetching}>
          <Report report={query.data} range={{ from: query.data.from, to: query.data.to }} />
        </div>
      ) : query.isError ? (
        <div role="alert" className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">
          {refusal(query.error) ?? 'Could not load the reports.'}{' '}
          <button type="button" onClick={() => void query.refetch()} className="font-medium text-brand hover:underline">
            Try again
          </button>
        </div>
      ) : (
        <p className="text-sm text-slate-500" aria-busy="true">
          Loading reports...
        </p>
      )}
    </section>
  );
}
