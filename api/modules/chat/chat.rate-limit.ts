/**
 * A fixed-window counter per key (a visitor identity), shared by the REST and socket paths because
 * both call the one chat service. It lives in this process's memory like @fastify/rate-limit's own
 * default store; several processes would move it to the shared store (Redis) they already need.
 */
export class WindowRateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {
    this.sweepTimer = setInterval(() => this.sweep(), windowMs);
    this.sweepTimer.unref();
  }

  /** Counts one hit; refused hits do not count, so a client that waits gets through. */
  hit(key: string, now = Date.now()): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
      return { ok: true };
    }
    if (window.count >= this.max) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
    window.count += 1;
    return { ok: true };
  }

  private sweep(now = Date.now()): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }

  close(): void {
    clearInterval(this.sweepTimer);
  }
}
