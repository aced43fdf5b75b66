import { chatLimits } from '../../../../api/contract/brand';

const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** Dates in en-US short format, with the time: staff work through the day's leads. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date);
}

/** The session countdown as m:ss; never negative. */
export function formatCountdown(remainingMs: number): string {
  const totalSeconds = Math.max(0, Math.ceil(remainingMs / 1000));
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

/**
 * The chat session id as the inbox shows it: 8 characters. Widget ids are
 * `session_<timestamp>_<random>`, so the first 8 would read `session_` on every row; the last 8 come
 * from the random part and tell sessions apart. The full id is in the row's tooltip.
 */
export function shortSessionId(id: string): string {
  return id.slice(-chatLimits.sessionIdShownChars);
}

/** The label of an option value, or the value itself when it is not in the list. */
export function optionLabel(options: readonly { value: string; label: string }[], value: string): string {
  return options.find((option) => option.value === value)?.label ?? value;
}

/** The time it is now where the visitor is, e.g. "7:04 AM CST"; null for a zone this browser does not know. */
export function formatLocalTime(timeZone: string, now: Date): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(now);
  } catch {
    return null;
  }
}
