import { type BusinessHoursSchedule, businessHoursSchedule } from './brand';

/**
 * The hours clock, shared by the server and the widget: whether staff hours are open at an instant,
 * when they next open, and that opening as a visitor reads it in their own time zone. Pure (the
 * instant is always passed in) and built on Intl alone, so daylight saving changes come from the
 * platform's time zone data.
 */

/** Open now until `closesAt`, or closed until `opensAt` (null: no opening within a year). */
export type HoursState = { open: true; closesAt: Date } | { open: false; opensAt: Date | null };

/** How far ahead the clock looks for an opening: a schedule closed longer than this is closed for good. */
const searchDays = 366;

interface CivilDate {
  year: number;
  month: number;
  day: number;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();
function partFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partFormats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock reading of `instant` in `timeZone`. */
function wallClock(instant: number, timeZone: string): CivilDate & { hour: number; minute: number; second: number } {
  const parts: Record<string, number> = {};
  for (const part of partFormat(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const wall = wallClock(instant, timeZone);
  const wallAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return wallAsUtc - (instant - (((instant % 1000) + 1000) % 1000));
}

/**
 * The instant `timeZone`'s wall clock reads `date` at `hour:minute`: the offset at a first guess, checked
 * once at the instant it gives (right across a daylight saving change; the hours here lie far from the
 * 2 AM hour a change skips or repeats).
 */
function instantOfWallTime(date: CivilDate, hour: number, minute: number, timeZone: string): number {
  const wallAsUtc = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  const firstGuess = wallAsUtc - offsetAt(wallAsUtc, timeZone);
  return wallAsUtc - offsetAt(firstGuess, timeZone);
}

function addDays(date: CivilDate, days: number): CivilDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

function isoDay(date: CivilDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

function clockTime(text: string): { hour: number; minute: number } {
  const [hour, minute] = text.split(':').map(Number);
  return { hour: hour ?? 0, minute: minute ?? 0 };
}

/** The open periods of the days from the schedule's calendar day of `instant` on, in order. */
function* openPeriods(instant: number, schedule: BusinessHoursSchedule): Generator<{ opensAt: number; closesAt: number }> {
  const { timeZone } = schedule;
  const today = wallClock(instant, timeZone);
  const closed = new Set(schedule.closedDates);
  for (let offset = 0; offset <= searchDays; offset += 1) {
    const date = addDays(today, offset);
    const hours = schedule.weekly[new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay()];
    if (!hours || closed.has(isoDay(date))) continue;
    const opens = clockTime(hours.opens);
    const closes = clockTime(hours.closes);
    yield {
      opensAt: instantOfWallTime(date, opens.hour, opens.minute, timeZone),
      closesAt: instantOfWallTime(date, closes.hour, closes.minute, timeZone),
    };
  }
}

/** Whether the hours are open at `now`, and until when; or when they open next. */
export function hoursAt(now: Date, schedule: BusinessHoursSchedule = businessHoursSchedule): HoursState {
  const instant = now.getTime();
  for (const { opensAt, closesAt } of openPeriods(instant, schedule)) {
    if (instant < opensAt) return { open: false, opensAt: new Date(opensAt) };
    if (instant < closesAt) return { open: true, closesAt: new Date(closesAt) };
  }
  return { open: false, opensAt: null };
}

export function isOpenAt(now: Date, schedule: BusinessHoursSchedule = businessHoursSchedule): boolean {
  return hoursAt(now, schedule).open;
}

/** The first opening after `now` (while open, the one after this period); null when none is within a year. */
export function nextOpeningAt(now: Date, schedule: BusinessHoursSchedule = businessHoursSchedule): Date | null {
  const instant = now.getTime();
  for (const { opensAt } of openPeriods(instant, schedule)) {
    if (opensAt > instant) return new Date(opensAt);
  }
  return null;
}

/** The time zone this runtime is in (the visitor's, in a browser). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

// Some ICU versions put a narrow no-break space before AM/PM: one plain space reads and tests the same everywhere.
const oddSpaces = /[\u202f\u00a0]/g;

function dayNumber(instant: number, timeZone: string): number {
  const wall = wallClock(instant, timeZone);
  return Date.UTC(wall.year, wall.month - 1, wall.day) / 86_400_000;
}

/**
 * `opening` as the visitor reads it on their own clock, from `now`: "today at 9:00 AM",
 * "tomorrow at 8:00 AM", "Monday at 8:00 AM", or beyond the coming week "Monday, January 4 at 8:00 AM".
 */
export function formatOpening(opening: Date, now: Date, timeZone: string = localTimeZone()): string {
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' }).format(opening).replace(oddSpaces, ' ');
  const days = dayNumber(opening.getTime(), timeZone) - dayNumber(now.getTime(), timeZone);
  if (days <= 0) return `today at ${time}`;
  if (days === 1) return `tomorrow at ${time}`;
  const day = new Intl.DateTimeFormat('en-US', days < 7 ? { timeZone, weekday: 'long' } : { timeZone, weekday: 'long', month: 'long', day: 'numeric' }).format(opening);
  return `${day.replace(oddSpaces, ' ')} at ${time}`;
}
