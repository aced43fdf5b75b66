export interface CoalescedRequest {
  /** Asks for a run that starts after this call. */
  ask(): void;
  /** No run starts after this; one under way finishes unheard of. */
  dispose(): void;
}

/**
 * A request many callers ask for, made one at a time: the first ask starts a run once the current
 * task ends (the asks of one task share it), and asks while a run is under way make one more run
 * when it ends. However many asks come, one run is in flight and one is pending at most, and the
 * last run starts after the last ask. A failed run is dropped: the next ask tries again.
 */
export function coalesceRequests(run: () => Promise<void>): CoalescedRequest {
  let phase: 'idle' | 'scheduled' | 'running' = 'idle';
  let askedAgain = false;
  let disposed = false;

  function start(): void {
    if (disposed) return;
    phase = 'running';
    askedAgain = false;
    void run()
      .catch(() => undefined)
      .finally(() => {
        phase = 'idle';
        if (askedAgain) ask();
      });
  }

  function ask(): void {
    if (disposed) return;
    if (phase === 'running') askedAgain = true;
    else if (phase === 'idle') {
      phase = 'scheduled';
      queueMicrotask(start);
    }
  }

  return {
    ask,
    dispose() {
      disposed = true;
    },
  };
}
