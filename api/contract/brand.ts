/**
 * Brand values and business constants, in one place for the api and the web.
 * A deployer changes the brand here, once for the web app and the server; the timings are the product's own.
 */
export const brand = {
  product: 'Lotwise',
  phone: '(512) 555-0147',
  phoneHref: 'tel:+15125550147',
  supportEmail: 'support@lotwise.example',
  feedExportDestinations: ['CarGurus', 'Cars.com', 'AutoTrader', 'Facebook Marketplace'],
  businessHours: ['Monday-Friday 8:00 AM-6:00 PM CST', 'Saturday 9:00 AM-2:00 PM CST'],
  legalLastUpdated: 'July 21, 2025',
  copyrightYear: 2025,
} as const;

export const timings = {
  chatPollMs: 3000,
  chatButtonDelayMs: 2000,
  chatPanelAnimationMs: 200,
  staffIdleCheckMs: 30_000,
  countdownRefreshMs: 1000,
  dealerLoginRedirectMs: 1000,
  getStartedRedirectMs: 1500,
  toastDurationMs: 5000,
  toastSwipeThresholdPx: 50,
  /** A typist who stops for this long has stopped typing. */
  typingIdleMs: 3000,
  /** The other side shows "typing..." at most this long without a word (a closed tab says nothing). */
  typingShownMaxMs: 6000,
  /** While the staff socket cannot connect (a network that blocks WebSockets), the dashboard reads its lists this often. */
  staffOfflineRefreshMs: 5000,
} as const;

/** The staff idle limit when STAFF_IDLE_MINUTES is not set. */
export const defaultStaffIdleMinutes = 10;

export const chatLimits = {
  messageMaxLength: 2000,
  sessionIdShownChars: 8,
  adminReplyRows: 3,
  /** Pages of the visit the widget keeps and sends with a conversation's first message. */
  pagesPerVisit: 20,
  /** Page views kept per conversation (the first message's pages and each later `chat:page`). */
  pageViewsPerSession: 50,
  pageUrlMaxLength: 2000,
  /**
   * What is kept of a page address (each page view, and a session's page and referrer): an address
   * longer than this is cut, ending in "…". A path past it tells staff nothing more, and 50 views of
   * 2000 characters per anonymous conversation is storage a stranger could fill for free.
   */
  pageTextStoredMaxLength: 300,
  /** The optional comment with a rating ("How did we do?"). */
  ratingCommentMaxLength: 1000,
} as const;

/** Opening and closing wall-clock times ("HH:MM", 24-hour) of one day, in the schedule's time zone; closed at `closes`. */
export interface DayHours {
  opens: string;
  closes: string;
}

export interface BusinessHoursSchedule {
  /** IANA time zone the hours and the closed dates are in. */
  timeZone: string;
  /** Hours by weekday, Sunday first (as Date.getDay counts); null is closed all day. */
  weekly: readonly [DayHours | null, DayHours | null, DayHours | null, DayHours | null, DayHours | null, DayHours | null, DayHours | null];
  /** Days closed whatever the weekday, as YYYY-MM-DD in the schedule's time zone. */
  closedDates: readonly string[];
}

/**
 * When staff answer the chat (DESIGN 10); the widget's away state and its "Back ..." are read from it
 * by api/contract/business-hours.ts. The same hours as brand.businessHours says in words.
 */
export const businessHoursSchedule: BusinessHoursSchedule = {
  timeZone: 'America/Chicago',
  weekly: [
    null,
    { opens: '08:00', closes: '18:00' },
    { opens: '08:00', closes: '18:00' },
    { opens: '08:00', closes: '18:00' },
    { opens: '08:00', closes: '18:00' },
    { opens: '08:00', closes: '18:00' },
    { opens: '09:00', closes: '14:00' },
  ],
  // US federal holidays we close on, and the weekday a weekend holiday is observed on.
  closedDates: [
    '2026-01-01', // New Year's Day
    '2026-05-25', // Memorial Day
    '2026-07-03', // Independence Day, observed
    '2026-07-04', // Independence Day
    '2026-09-07', // Labor Day
    '2026-11-26', // Thanksgiving
    '2026-12-25', // Christmas Day
    '2027-01-01', // New Year's Day
    '2027-05-31', // Memorial Day
    '2027-07-05', // Independence Day, observed
    '2027-09-06', // Labor Day
    '2027-11-25', // Thanksgiving
    '2027-12-24', // Christmas Day, observed
    '2027-12-25', // Christmas Day
    '2028-01-01', // New Year's Day
  ],
};
