import { describe, expect, it } from 'vitest';
import { type BusinessHoursSchedule, businessHoursSchedule } from './brand';
import { formatOpening, hoursAt, isOpenAt, nextOpeningAt } from './business-hours';

/** An instant written as Chicago's wall clock with its UTC offset, e.g. at('2026-11-23T07:59', -6). */
function at(wall: string, offsetHours: number): Date {
  const sign = offsetHours < 0 ? '-' : '+';
  return new Date(`${wall}:00${sign}${String(Math.abs(offsetHours)).padStart(2, '0')}:00`);
}
const cst = (wall: string) => at(wall, -6);
const cdt = (wall: string) => at(wall, -5);

describe('the hours clock (America/Chicago)', () => {
  it('opens at 8:00 and closes at 18:00 on a weekday, to the minute', () => {
    // Monday, November 23, 2026 (standard time).
    expect(isOpenAt(cst('2026-11-23T07:59'))).toBe(false);
    expect(isOpenAt(cst('2026-11-23T08:00'))).toBe(true);
    expect(isOpenAt(cst('2026-11-23T17:59'))).toBe(true);
    expect(isOpenAt(cst('2026-11-23T18:00'))).toBe(false);
    expect(isOpenAt(new Date(cst('2026-11-23T18:00').getTime() - 1))).toBe(true);
    expect(hoursAt(cst('2026-11-23T07:59'))).toEqual({ open: false, opensAt: cst('2026-11-23T08:00') });
    expect(hoursAt(cst('2026-11-23T12:00'))).toEqual({ open: true, closesAt: cst('2026-11-23T18:00') });
    // After closing, the next opening is the next morning.
    expect(hoursAt(cst('2026-11-23T18:00'))).toEqual({ open: false, opensAt: cst('2026-11-24T08:00') });
  });

  it('keeps Saturday 9:00-14:00 and is closed all Sunday', () => {
    // Saturday, November 21, 2026.
    expect(isOpenAt(cst('2026-11-21T08:30'))).toBe(false);
    expect(nextOpeningAt(cst('2026-11-21T08:30'))).toEqual(cst('2026-11-21T09:00'));
    expect(isOpenAt(cst('2026-11-21T09:00'))).toBe(true);
    expect(isOpenAt(cst('2026-11-21T13:59'))).toBe(true);
    expect(isOpenAt(cst('2026-11-21T14:00'))).toBe(false);
    // Saturday afternoon and all Sunday wait for Monday 8:00.
    expect(nextOpeningAt(cst('2026-11-21T14:00'))).toEqual(cst('2026-11-23T08:00'));
    expect(isOpenAt(cst('2026-11-22T12:00'))).toBe(false);
    expect(hoursAt(cst('2026-11-22T12:00'))).toEqual({ open: false, opensAt: cst('2026-11-23T08:00') });
  });

  it('stays closed on the closed dates and opens on the next working day', () => {
    // Thanksgiving, Thursday November 26, 2026: closed at noon, back Friday 8:00.
    expect(isOpenAt(cst('2026-11-26T12:00'))).toBe(false);
    expect(nextOpeningAt(cst('2026-11-25T18:30'))).toEqual(cst('2026-11-27T08:00'));
    // Christmas Day is a Friday: back Saturday at 9:00.
    expect(nextOpeningAt(cst('2026-12-24T19:00'))).toEqual(cst('2026-12-26T09:00'));
    // New Year's Day 2027 is a Friday too; Independence Day 2026 a Saturday, observed Friday: back Monday.
    expect(isOpenAt(cst('2027-01-01T10:00'))).toBe(false);
    expect(nextOpeningAt(cdt('2026-07-02T18:00'))).toEqual(cdt('2026-07-06T08:00'));
    // Memorial Day and Labor Day are Mondays.
    expect(isOpenAt(cdt('2026-05-25T10:00'))).toBe(false);
    expect(isOpenAt(cdt('2026-09-07T10:00'))).toBe(false);
    expect(isOpenAt(cdt('2026-09-08T10:00'))).toBe(true);
  });

  it('keeps the wall-clock hours across the spring-forward weekend (March 8, 2026)', () => {
    // Saturday before: standard time, 9:00 CST = 15:00 UTC.
    expect(isOpenAt(new Date('2026-03-07T15:00:00Z'))).toBe(true);
    expect(isOpenAt(new Date('2026-03-07T14:59:00Z'))).toBe(false);
    // The Monday after opens at 8:00 CDT = 13:00 UTC, an hour earlier in UTC than the week before.
    expect(nextOpeningAt(new Date('2026-03-07T20:00:00Z'))).toEqual(new Date('2026-03-09T13:00:00Z'));
    expect(isOpenAt(new Date('2026-03-09T12:59:00Z'))).toBe(false);
    expect(isOpenAt(new Date('2026-03-09T13:00:00Z'))).toBe(true);
    expect(hoursAt(new Date('2026-03-09T13:00:00Z'))).toEqual({ open: true, closesAt: new Date('2026-03-09T23:00:00Z') });
    // During the skipped hour itself (2:30 AM would be; 8:00 UTC is 3:00 CDT) it is a closed Sunday.
    expect(hoursAt(new Date('2026-03-08T08:00:00Z'))).toEqual({ open: false, opensAt: new Date('2026-03-09T13:00:00Z') });
  });

  it('keeps the wall-clock hours across the fall-back weekend (November 1, 2026)', () => {
    // Saturday before: daylight time, 9:00-14:00 CDT = 14:00-19:00 UTC.
    expect(isOpenAt(new Date('2026-10-31T14:00:00Z'))).toBe(true);
    expect(isOpenAt(new Date('2026-10-31T19:00:00Z'))).toBe(false);
    // The hour 1:00-2:00 happens twice on Sunday; both are closed, and Monday opens at 8:00 CST = 14:00 UTC.
    expect(hoursAt(new Date('2026-11-01T06:30:00Z'))).toEqual({ open: false, opensAt: new Date('2026-11-02T14:00:00Z') });
    expect(hoursAt(new Date('2026-11-01T07:30:00Z'))).toEqual({ open: false, opensAt: new Date('2026-11-02T14:00:00Z') });
    expect(isOpenAt(new Date('2026-11-02T13:59:00Z'))).toBe(false);
    expect(isOpenAt(new Date('2026-11-02T14:00:00Z'))).toBe(true);
  });

  it('gives the opening after this period while open, and null for a schedule that never opens', () => {
    expect(nextOpeningAt(cst('2026-11-23T08:00'))).toEqual(cst('2026-11-24T08:00'));
    const never: BusinessHoursSchedule = { ...businessHoursSchedule, weekly: [null, null, null, null, null, null, null] };
    expect(hoursAt(cst('2026-11-23T12:00'), never)).toEqual({ open: false, opensAt: null });
    expect(nextOpeningAt(cst('2026-11-23T12:00'), never)).toBeNull();
  });

  it('reads a schedule in another time zone the same way', () => {
    const london: BusinessHoursSchedule = { ...businessHoursSchedule, timeZone: 'Europe/London', closedDates: [] };
    // Monday November 23, 2026: London is on UTC, so 8:00 there is 8:00 UTC.
    expect(isOpenAt(new Date('2026-11-23T07:59:00Z'), london)).toBe(false);
    expect(isOpenAt(new Date('2026-11-23T08:00:00Z'), london)).toBe(true);
  });
});

describe('an opening as the visitor reads it', () => {
  // Friday November 27, 2026, 7:00 PM in Chicago: closed; back Saturday 9:00 AM Chicago (15:00 UTC).
  const fridayEvening = cst('2026-11-27T19:00');
  const saturdayOpening = nextOpeningAt(fridayEvening)!;

  it('says "tomorrow" in Chicago, and the visitor’s own clock time elsewhere', () => {
    expect(saturdayOpening).toEqual(new Date('2026-11-28T15:00:00Z'));
    expect(formatOpening(saturdayOpening, fridayEvening, 'America/Chicago')).toBe('tomorrow at 9:00 AM');
    expect(formatOpening(saturdayOpening, fridayEvening, 'America/Los_Angeles')).toBe('tomorrow at 7:00 AM');
    // In Berlin it is already 2 AM Saturday: the opening is later the same day.
    expect(formatOpening(saturdayOpening, fridayEvening, 'Europe/Berlin')).toBe('today at 4:00 PM');
    // In Tokyo it is 10 AM Saturday; the opening is at midnight, the start of Sunday there.
    expect(formatOpening(saturdayOpening, fridayEvening, 'Asia/Tokyo')).toBe('tomorrow at 12:00 AM');
  });

  it('names the weekday for an opening later in the week, and the date beyond it', () => {
    // Saturday 3 PM Chicago: back Monday 8:00 AM.
    const saturdayAfternoon = cst('2026-11-28T15:00');
    const monday = nextOpeningAt(saturdayAfternoon)!;
    expect(formatOpening(monday, saturdayAfternoon, 'America/Chicago')).toBe('Monday at 8:00 AM');
    expect(formatOpening(monday, saturdayAfternoon, 'America/Los_Angeles')).toBe('Monday at 6:00 AM');
    // Tokyo is already at Sunday 6 AM: Monday is tomorrow there.
    expect(formatOpening(monday, saturdayAfternoon, 'Asia/Tokyo')).toBe('tomorrow at 11:00 PM');
    expect(formatOpening(monday, saturdayAfternoon, 'Europe/Berlin')).toBe('Monday at 3:00 PM');
    expect(formatOpening(cst('2026-12-07T08:00'), saturdayAfternoon, 'America/Chicago')).toBe('Monday, December 7 at 8:00 AM');
  });

  it('says "today" for a morning opening seen before it', () => {
    const early = cst('2026-11-23T06:15');
    expect(formatOpening(nextOpeningAt(early)!, early, 'America/Chicago')).toBe('today at 8:00 AM');
  });
});
