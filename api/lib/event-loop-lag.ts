import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * The event loop's lag as the load shedding and /readyz see it (api/plugins/health.ts): `buildApp`
 * takes one, so a test sets the lag it wants instead of blocking the loop and hoping the machine
 * measures it so.
 */
export interface EventLoopLag {
  /** The loop's delay over the last sample, in ms; undefined before the first sample. */
  delayMs(): number | undefined;
}

/** The histogram's own timer: its delays are measured against this period. */
const resolutionMs = 10;

/**
 * The lag this process measures, every `sampleIntervalMs`: the mean delay of a timer firing each
 * 10 ms (as @fastify/under-pressure reckons it: one long block among many quick turns is diluted),
 * or, when the loop was blocked for the whole sample and that timer never fired (no sample, a mean
 * of NaN, which @fastify/under-pressure reports as Infinity), how late the sample itself came.
 */
export function measuredEventLoopLag(sampleIntervalMs: number): EventLoopLag & { stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  let last: number | undefined;
  let dueAt = performance.now() + sampleIntervalMs;
  const timer = setTimeout(function sample() {
    const now = performance.now();
    last = histogram.count > 0 ? Math.max(0, histogram.mean / 1e6 - resolutionMs) : Math.max(0, now - dueAt);
    histogram.reset();
    dueAt = now + sampleIntervalMs;
    timer.refresh();
  }, sampleIntervalMs);
  // Never what keeps a process from exiting.
  timer.unref();
  return {
    delayMs: () => last,
    stop() {
      clearTimeout(timer);
      histogram.disable();
    },
  };
}
