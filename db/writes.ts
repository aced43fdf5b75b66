import type { Db } from './client';
import { directSavepoint, directTransaction, supportsDirectQueries, TransactionLost } from './prepared';

/**
 * How a write reaches the database, whatever the dialect: `work` runs in a transaction with the
 * executor it is given, and the promise settles once that transaction is committed (or its work
 * undone). Modules never call it: they write through `app.write` (api/events/write.ts), which adds
 * the write's events on top. Nothing outside db/ opens a transaction or knows the dialect.
 */
export interface Transactions {
  run<T>(work: (db: Db) => Promise<T>): Promise<T>;
}

/** An ordinary transaction per write: PostgreSQL runs many at once, each on its pool connection. */
export class TransactionPerWrite implements Transactions {
  constructor(private readonly db: Db) {}

  run<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }
}

/** A write waiting for the next group commit. */
interface PendingWrite {
  work: (db: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Bounds one group commit, so a huge burst is committed in steps. */
const maxWritesPerTransaction = 200;

/**
 * Group commit, SQLite's side of Transactions: every write that arrives in the same turn of the event
 * loop is committed in one transaction. A commit (its WAL frames written to the file) costs more than
 * the statements before it, so under load the batches grow and the cost per write falls instead of
 * a queue building up. Each write still resolves only once its transaction is committed, so nothing
 * is acknowledged before it is stored.
 *
 * A batch holds SQLite's one connection (db/prepared's directTransaction): its writes run one after
 * the other, their prepared queries straight on the connection, and no other query interleaves. Each
 * write runs under a savepoint of its own: one that fails (a refusal, a broken constraint, a bug) is
 * undone and rejected alone, and the other writes of its batch commit as if it had never run.
 */
export class GroupCommit implements Transactions {
  private pendingWrites: PendingWrite[] = [];
  private flushScheduled = false;

  constructor(private readonly db: Db) {
    if (!supportsDirectQueries(db)) throw new Error('Group commit needs the SQLite database opened by db/client.ts');
  }

  run<T>(work: (db: Db) => Promise<T>): Promise<T> {
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
    const batch = this.pendingWrites.splice(0, maxWritesPerTransaction);
    void this.commit(batch).then(() => {
      if (this.pendingWrites.length > 0) setImmediate(this.flush);
      else this.flushScheduled = false;
    });
  };

  private async commit(batch: PendingWrite[]): Promise<void> {
    // Each write's outcome: its value, or the error it failed with.
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      // A write alone in its batch needs no savepoint: its failure rolls back a transaction of its own.
      if (batch.length === 1) {
        outcomes.push({ ok: true, value: await directTransaction(this.db, (executor) => batch[0]!.work(executor)) });
      } else {
        await directTransaction(this.db, async (executor) => {
          for (const item of batch) {
            try {
              outcomes.push({ ok: true, value: await directSavepoint(executor, () => item.work(executor)) });
            } catch (error) {
              if (error instanceof TransactionLost) throw error.original;
              outcomes.push({ ok: false, value: error });
            }
          }
        });
      }
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.value);
    });
  }
}

/** The transactions of `db`: group commit on SQLite, a transaction per write elsewhere. */
export function transactionsFor(db: Db): Transactions {
  return supportsDirectQueries(db) ? new GroupCommit(db) : new TransactionPerWrite(db);
}
