import { create } from 'zustand';
import type { AdminCounts } from '../../../../api/contract/leads';
import { adminApi } from '../api/admin-api';

/**
 * The cards show the server's figures. A push may move a card at once, provisionally; at most this
 * long after, the server's figures replace it. One pending recheck covers every change before it
 * fires (it asks after them), so a steady stream of changes costs one request per interval.
 */
export const countsRecheckMs = 1500;

type TotalKey = Exclude<keyof AdminCounts, 'byStatus'>;
type ByStatus = AdminCounts['byStatus'];
/** One figure of the filters, as `<list>.<status>`: `contact.new`, `chatSessions.resolved`. */
export type StatusCountKey = { [L in keyof ByStatus]: `${L}.${keyof ByStatus[L] & string}` }[keyof ByStatus];
export type CountKey = TotalKey | StatusCountKey;

/** How a batch of pushes moves the cards and the filters' figures until the server's figures come. */
export type CountsChange = Partial<Record<CountKey, number>>;

/** `counts` with one figure moved by `delta`, never below 0. */
function moved(counts: AdminCounts, key: CountKey, delta: number): AdminCounts {
  const [list, status] = key.split('.') as [keyof ByStatus, string | undefined];
  if (status === undefined) {
    const total = key as TotalKey;
    return { ...counts, [total]: Math.max(0, counts[total] + delta) };
  }
  const figures = counts.byStatus[list] as Record<string, number>;
  const next = { ...figures, [status]: Math.max(0, (figures[status] ?? 0) + delta) };
  return { ...counts, byStatus: { ...counts.byStatus, [list]: next } };
}

interface CountsState {
  counts: AdminCounts | null;
  /** Reads the figures; an answer to an older read than the latest is dropped. */
  load: () => Promise<void>;
  /** Moves cards provisionally, in one update, and asks the server for its figures within countsRecheckMs. */
  adjust: (change: CountsChange) => void;
  /** Asks the server for its figures within countsRecheckMs: a change happened that a push alone cannot count. */
  recheck: () => void;
  reset: () => void;
}

/** Sums the changes of one batch, so the cards take them in one update. */
export function addCountsChanges(...changes: CountsChange[]): CountsChange {
  const sum: CountsChange = {};
  for (const change of changes) {
    for (const [key, delta] of Object.entries(change) as [CountKey, number][]) sum[key] = (sum[key] ?? 0) + delta;
  }
  return sum;
}

export const useCounts = create<CountsState>((set, get) => {
  let latestRead = 0;
  let recheck: ReturnType<typeof setTimeout> | undefined;

  function recheckSoon(): void {
    if (recheck) return;
    recheck = setTimeout(() => {
      recheck = undefined;
      // A failure keeps the figures shown; the next change or reconnect asks again.
      get()
        .load()
        .catch(() => undefined);
    }, countsRecheckMs);
  }

  return {
    counts: null,

    async load() {
      const read = ++latestRead;
      const counts = await adminApi.counts();
      if (read === latestRead) set({ counts });
    },

    adjust(change) {
      const moves = (Object.entries(change) as [CountKey, number][]).filter(([, delta]) => delta !== 0);
      if (moves.length === 0) return;
      recheckSoon();
      const { counts } = get();
      if (!counts) return;
      set({ counts: moves.reduce((next, [key, delta]) => moved(next, key, delta), counts) });
    },

    recheck: recheckSoon,

    reset() {
      latestRead++;
      clearTimeout(recheck);
      recheck = undefined;
      set({ counts: null });
    },
  };
});
