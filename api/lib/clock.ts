/**
 * The time as the server's in-memory bounds (the typing relay, the anonymous daily budget), staff idle
 * expiry (a sign-in's last activity, the sweep of idle dashboards' sockets) and the job runner see it
 * (a job's run and due times, the runner's waits, a job's deadline): `buildApp`
 * takes one, so a test moves time on instead of sleeping. Never for promised work itself: that is a
 * job (DESIGN.md 14); a timer here may be lost in a crash, and nothing is owed if it is.
 */
export interface Clock {
  now(): number;
  /** Runs `run` after `ms` of this clock's time; answers a function that cancels it. */
  after(ms: number, run: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    // Never what keeps a process from exiting.
    timer.unref();
    return () => clearTimeout(timer);
  },
};
