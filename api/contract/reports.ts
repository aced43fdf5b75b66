import { z } from 'zod';

/** `GET /api/reports?from=&to=` (staff): the team's figures over whole UTC days, both ends included. */
export const reportDefaultDays = 30;
/** The longest range one report reads: the per-conversation durations are ranked in memory. */
export const reportMaxDays = 366;

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
export const reportDayMessage = 'Dates must be days such as 2026-01-31';

/** A calendar day, `YYYY-MM-DD`, that exists. */
export function isReportDay(text: string): boolean {
  return dayPattern.test(text) && new Date(`${text}T00:00:00.000Z`).toISOString().startsWith(text);
}

/** `day` moved by `days` (UTC). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both counted. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / 86_400_000) + 1;
}

/** The default range: the last 30 days, today (UTC) included. */
export function defaultReportRange(now = new Date()): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  return { from: addDays(to, 1 - reportDefaultDays), to };
}

const reportDay = z.string({ error: reportDayMessage }).refine(isReportDay, reportDayMessage);

export const reportRangeMessages = {
  order: 'The start date must not be after the end date',
  length: `A report covers at most ${reportMaxDays} days`,
};

/** Either end may be left out: the end is then today (UTC), the start 30 days before the end (the server checks the range then). */
export const reportQuerySchema = z
  .object({ from: reportDay.optional(), to: reportDay.optional() })
  .refine((range) => !range.from || !range.to || range.from <= range.to, { message: reportRangeMessages.order, path: ['from'] })
  .refine((range) => !range.from || !range.to || daysBetween(range.from, range.to) <= reportMaxDays, { message: reportRangeMessages.length, path: ['to'] });
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** How long something took, over the conversations that had it: seconds, null when none did. */
export const durationStats = z.object({
  count: z.number().int(),
  medianSeconds: z.number().nullable(),
  p90Seconds: z.number().nullable(),
});
export type DurationStats = z.infer<typeof durationStats>;

export const teamReport = z.object({
  from: z.string(),
  to: z.string(),
  /** Conversations started each day of the range, every day listed. */
  conversationsPerDay: z.array(z.object({ day: z.string(), conversations: z.number().int() })),
  /**
   * Per staff member, over the conversations started in the range: first response (the first staff
   * reply after the visitor's first message, counted for its author) and resolution (resolved minus
   * started, counted for who resolved it). `staffId` null: replies and resolutions of accounts gone.
   */
  agents: z.array(z.object({ staffId: z.number().int().nullable(), name: z.string(), firstResponse: durationStats, resolution: durationStats })),
  /** The same over the whole team. */
  team: z.object({ firstResponse: durationStats, resolution: durationStats }),
  /** Ratings of the conversations started in the range. */
  ratings: z.object({ good: z.number().int(), bad: z.number().int() }),
  /** Leads sent in the range per week (weeks start on Monday, UTC), every week listed. */
  leadsPerWeek: z.array(
    z.object({ weekStart: z.string(), contact: z.number().int(), support: z.number().int(), demo: z.number().int(), getStarted: z.number().int() }),
  ),
});
export type TeamReport = z.infer<typeof teamReport>;
