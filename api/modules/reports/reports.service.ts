import { staffDisplayName } from '../../contract/auth';
import type { LeadKind } from '../../contract/leads';
import { addDays, daysBetween, defaultReportRange, reportDefaultDays, reportMaxDays, reportRangeMessages, type ReportQuery, type TeamReport } from '../../contract/reports';
import { HttpError } from '../../plugins/errors';
import type { Db } from '../../../db/client';
import * as repository from './reports.repository';
import { durationStatsOf } from './reports.stats';

/** The name of the row for replies and resolutions whose account is gone (or replies stored before authors). */
export const formerStaffName = 'Former staff';

const leadColumns: Record<LeadKind, 'contact' | 'support' | 'demo' | 'getStarted'> = {
  contact: 'contact',
  support: 'support',
  demo: 'demo',
  'get-started': 'getStarted',
};

/** The Monday (UTC) of a day's week. */
function weekStartOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

const elapsed = (from: string, to: string) => Math.max(0, Date.parse(to) - Date.parse(from));

/**
 * The team's report (DESIGN.md 11) over whole UTC days. Counting is the database's; the medians and
 * p90s rank the per-conversation durations here, at most a range of 366 days of conversations.
 */
export async function teamReport(db: Db, query: ReportQuery, now = new Date()): Promise<TeamReport> {
  // A missing end is today; a missing start, 30 days to the end.
  const to = query.to ?? defaultReportRange(now).to;
  const from = query.from ?? addDays(to, 1 - reportDefaultDays);
  if (from > to) throw new HttpError(400, reportRangeMessages.order);
  if (daysBetween(from, to) > reportMaxDays) throw new HttpError(400, reportRangeMessages.length);
  const range = { start: `${from}T00:00:00.000Z`, end: `${addDays(to, 1)}T00:00:00.000Z` };
  const [perDay, ratings, times, leadDays] = await Promise.all([
    repository.countConversationsByDay(db, range),
    repository.countRatings(db, range),
    repository.listConversationTimes(db, range),
    repository.countLeadsByDay(db, range),
  ]);
  const days = Array.from({ length: daysBetween(from, to) }, (_, index) => addDays(from, index));

  const conversationsOn = new Map(perDay.map((row) => [row.day, Number(row.n)]));
  const conversationsPerDay = days.map((day) => ({ day, conversations: conversationsOn.get(day) ?? 0 }));

  // Durations per staff id (null: an account gone), and the team's.
  const firstResponses = new Map<number | null, number[]>();
  const resolutions = new Map<number | null, number[]>();
  const add = (into: Map<number | null, number[]>, staffId: number | null, ms: number) => into.set(staffId, [...(into.get(staffId) ?? []), ms]);
  for (const row of times) {
    if (row.firstVisitorAt && row.firstResponseAt) add(firstResponses, row.responderId, elapsed(row.firstVisitorAt, row.firstResponseAt));
    if (row.status === 'resolved' && row.resolvedAt) add(resolutions, row.resolvedByStaffId, elapsed(row.createdAt, row.resolvedAt));
  }
  const ids = [...new Set([...firstResponses.keys(), ...resolutions.keys()])];
  const accounts = new Map((await repository.findStaffNames(db, ids.filter((id): id is number => id !== null))).map((row) => [row.id, row]));
  const agents = ids
    .map((id) => {
      const account = id === null ? undefined : accounts.get(id);
      return {
        staffId: account ? account.id : null,
        name: account ? staffDisplayName(account) : formerStaffName,
        firstResponse: durationStatsOf(firstResponses.get(id) ?? []),
        resolution: durationStatsOf(resolutions.get(id) ?? []),
      };
    })
    // Former staff last; the others by name.
    .sort((a, b) => (a.staffId === null ? 1 : 0) - (b.staffId === null ? 1 : 0) || a.name.localeCompare(b.name));

  const rated = new Map(ratings.map((row) => [row.rating, Number(row.n)]));

  const weeks = new Map<string, TeamReport['leadsPerWeek'][number]>();
  for (const day of days) {
    const weekStart = weekStartOf(day);
    if (!weeks.has(weekStart)) weeks.set(weekStart, { weekStart, contact: 0, support: 0, demo: 0, getStarted: 0 });
  }
  for (const row of leadDays) weeks.get(weekStartOf(row.day))![leadColumns[row.kind]] += Number(row.n);

  return {
    from,
    to,
    conversationsPerDay,
    agents,
    team: {
      firstResponse: durationStatsOf([...firstResponses.values()].flat()),
      resolution: durationStatsOf([...resolutions.values()].flat()),
    },
    ratings: { good: rated.get('good') ?? 0, bad: rated.get('bad') ?? 0 },
    leadsPerWeek: [...weeks.values()],
  };
}
