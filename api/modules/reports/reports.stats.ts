import type { DurationStats } from '../../contract/reports';

/**
 * The `fraction` percentile of sorted values, interpolated between the two nearest ranks (as
 * PostgreSQL's percentile_cont): the median of 1, 2, 3, 4 is 2.5, their p90 3.7.
 */
export function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const position = (sorted.length - 1) * fraction;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/** Milliseconds, to seconds kept to the millisecond. */
const seconds = (milliseconds: number) => Math.round(milliseconds) / 1000;

/** Count, median and p90 of durations in milliseconds, given in seconds. */
export function durationStatsOf(durationsMs: readonly number[]): DurationStats {
  const sorted = [...durationsMs].sort((a, b) => a - b);
  const median = percentile(sorted, 0.5);
  const p90 = percentile(sorted, 0.9);
  return { count: sorted.length, medianSeconds: median === null ? null : seconds(median), p90Seconds: p90 === null ? null : seconds(p90) };
}
