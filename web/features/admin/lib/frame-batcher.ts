/**
 * How many pushes of one frame apply the moment they come, one by one: a conversation's few
 * events (a message, its session update, typing) show without waiting for the frame.
 */
export const pushesAppliedAtOncePerFrame = 4;
/** Where animation frames do not run (a hidden tab), a frame ends after this long anyway. */
export const frameFallbackMs = 100;
/** A burst goes on while pushes come within this long of its last batch: they queue from the first. */
export const burstQuietMs = 500;

export interface FrameBatcher<T> {
  push(item: T): void;
  /** Resolves once what is queued now has been applied: at once when nothing waits. */
  drained(): Promise<void>;
  /** Drops what is still queued and cancels the pending frame. */
  dispose(): void;
}

/**
 * Coalesces pushes so that a burst is applied at most once per animation frame: the first few of
 * a frame apply at once, later ones queue, and the frame's end applies the queue in one call, in
 * the order they came. Once a burst is on, every push queues until it has been quiet a moment.
 */
export function createFrameBatcher<T>(apply: (items: T[]) => void): FrameBatcher<T> {
  let queue: T[] = [];
  let frameOpen = false;
  let pushesThisFrame = 0;
  let animationFrame: number | undefined;
  let fallback: ReturnType<typeof setTimeout> | undefined;
  let lastBatchAt = Number.NEGATIVE_INFINITY;
  let waiting: (() => void)[] = [];

  function release(): void {
    const waiters = waiting;
    waiting = [];
    for (const done of waiters) done();
  }

  function cancelFrame(): void {
    if (animationFrame !== undefined) cancelAnimationFrame(animationFrame);
    clearTimeout(fallback);
    animationFrame = undefined;
    fallback = undefined;
    frameOpen = false;
  }

  function endFrame(): void {
    cancelFrame();
    if (queue.length === 0) return;
    const items = queue;
    queue = [];
    try {
      apply(items);
    } finally {
      lastBatchAt = performance.now();
      release();
    }
  }

  function openFrame(): void {
    frameOpen = true;
    pushesThisFrame = 0;
    // Browsers pause animation frames in hidden tabs: the timeout applies the pushes there.
    if (typeof requestAnimationFrame === 'function') animationFrame = requestAnimationFrame(endFrame);
    fallback = setTimeout(endFrame, frameFallbackMs);
  }

  return {
    push(item) {
      if (!frameOpen) openFrame();
      pushesThisFrame += 1;
      const burstGoesOn = performance.now() - lastBatchAt < burstQuietMs;
      // Once one push waits, the later ones wait behind it: the order is kept.
      if (queue.length > 0 || burstGoesOn || pushesThisFrame > pushesAppliedAtOncePerFrame) queue.push(item);
      else apply([item]);
    },
    drained() {
      if (queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => waiting.push(resolve));
    },
    dispose() {
      cancelFrame();
      queue = [];
      release();
    },
  };
}
