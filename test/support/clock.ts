import type { Clock } from '../../api/lib/clock';

export interface ManualClock extends Clock {
  /** Moves time on by `ms`, running every timer that falls due, in order. */
  advance(ms: number): void;
  /** Moves time to `at` (epoch ms), running the timers due by then. */
  set(at: number): void;
}

/** A clock that moves only when the test says so: given to buildTestServer({ ... }, { clock }). */
export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  const runDue = () => {
    for (;;) {
      const due = [...timers].filter(([, timer]) => timer.at <= now).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) return;
      timers.delete(due[0]);
      due[1].run();
    }
  };
  return {
    now: () => now,
    after(ms, run) {
      const id = (nextId += 1);
      timers.set(id, { at: now + Math.max(0, ms), run });
      return () => {
        timers.delete(id);
      };
    },
    advance(ms) {
      now += ms;
      runDue();
    },
    set(at) {
      now = at;
      runDue();
    },
  };
}
