import type { Db } from './client';
import { canRunNow, supportsDirectQueries, transactionNow } from './prepared';

/** A write waiting for the next group commit. */
interface PendingWrite {
  work: (db: Db) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Bounds one group commit, so a huge burst is committed in steps. */
const maxWritesPerTransaction = 200;

/**
 * Group commit for the hot writes (a form post, a chat message): every write that arrives in the
 * same turn of the event loop is committed in one transaction. A commit (its WAL frames written to
 * the file) costs more than the statements before it, so under load the batches grow and the cost
 * per write falls instead of a queue building up. Each write still resolves only once its
 * transaction is committed, so nothing is acknowledged before it is stored.
 *
 * A batch runs synchronously on the SQLite connection (db/prepared's transactionNow): no promise,
 * mutex or Kysely transaction per write, and nothing can interleave with it. A write refused on
 * purpose (`isRefusal`, thrown before it writes anything) fails alone; any other error rolls the
 * whole batch back and every write of it fails with that error.
 */
export class GroupCommit {
  private pendingWrites: PendingWrite[] = [];
  private flushScheduled = false;

  constructor(
    private readonly db: Db,
    private readonly isRefusal: (error: unknown) => boolean,
  ) {
    // The writes run synchronously on SQLite; another database needs an asynchronous write path here.
    if (!supportsDirectQueries(db)) throw new Error('Group commit needs the SQLite database opened by db/client.ts');
  }

  /** Runs `work` (synchronous, with prepared queries' `...Now` methods) in the next group commit. */
  run<T>(work: (db: Db) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pendingWrites.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  // Bound once: it is scheduled on every turn with writes.
  private readonly flush = (): void => {
    // A Kysely transaction elsewhere (a password reset) holds the connection: try again next turn.
    if (!canRunNow(this.db)) {
      setImmediate(this.flush);
      return;
    }
    const batch = this.pendingWrites.splice(0, maxWritesPerTransaction);
    // Each write's outcome: its value, or the refusal it failed with.
    const outcomes: unknown[] = [];
    const refused = new Set<number>();
    try {
      transactionNow(this.db, () => {
        for (const item of batch) {
          try {
            outcomes.push(item.work(this.db));
          } catch (error) {
            if (!this.isRefusal(error)) throw error;
            refused.add(outcomes.length);
            outcomes.push(error);
          }
        }
      });
      batch.forEach((item, index) => {
        if (refused.has(index)) item.reject(outcomes[index]);
        else item.resolve(outcomes[index]);
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
    if (this.pendingWrites.length > 0) setImmediate(this.flush);
    else this.flushScheduled = false;
  };
}
