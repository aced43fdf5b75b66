/**
 * Loaded into bench:cluster's app nodes (`node --import` it): once a second, the longest
 * event-loop stall of that second on stderr as `loop-stall <ms>`, for the bench to read back. A stall
 * is time the node could not answer: its own work, a collection, or the cores busy elsewhere.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
setInterval(() => {
  process.stderr.write(`loop-stall ${(delay.max / 1e6).toFixed(1)}\n`);
  delay.reset();
}, 1000).unref();
