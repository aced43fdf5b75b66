import type { Db } from './client';
import { directTransaction, supportsDirectQueries } from './prepared';

/**
 * The one way the app writes what it must not lose (a form post, a chat message): `work` runs in a
 * transaction with the executor it is given, and the promise settles once that transaction is
 * committed (or rolled back). Whatever the database, the caller sees the same thing.
 */
export interface Writes {
  run<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /**
   * A write that is one statement on PostgreSQL (a form post's insert, a chat message's numbered
   * insert: db/query-helpers' chainsWrites): the same promise as `run`, but there the statement
   * commits on its own, as every single statement does, without the two extra round trips of BEGIN
   * and COMMIT. On SQLite it joins the group commit like any write, whatever its statements.
   */
  runStatement<T>(work: (db: Db) => Promise<T>): Promise<T>;
}

/** An ordinary transaction per write: PostgreSQL runs many at once, each on its pool connection. */
export class TransactionPerWrite implements Writes {
  constructor(private readonly db: Db) {}

  run<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  runStatement<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return work(this.db);
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
 * Group commit, SQLite's side of Writes: every write that arrives in the same turn of the event loop
 * is committed in one transaction. A commit (its WAL frames written to the file) costs more than the
 * statements before it, so under load the batches grow and the cost per write falls instead of a
 * queue building up. Each write still resolves only once its transaction is committed, so nothing is
 * acknowledged before it is stored.
 *
 * A batch holds SQLite's one connection (db/prepared's directTransaction): its writes run one after
 * the other, their prepared queries straight on the connection, and no other query interleaves. A
 * write refused on purpose (`isRefusal`, thrown before it writes anything) fails alone; any other
 * error rolls the whole batch back and every write of it fails with that error.
 */
export class GroupCommit implements Writes {
  private pendingWrites: PendingWrite[] = [];
  private flushScheduled = false;

  constructor(
    private readonly db: Db,
    private readonly isRefusal: (error: unknown) => boolean,
  ) {
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

  /** One statement joins the group commit like any write: its commit is shared, which is what makes it cheap. */
  runStatement<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return this.run(work);
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
    // Each write's outcome: its value, or the refusal it failed with.
    const outcomes: unknown[] = [];
    const refused = new Set<number>();
    try {
      await directTransaction(this.db, async (executor) => {
        for (const item of batch) {
          try {
            outcomes.push(await item.work(executor));
          } catch (error) {
            if (!this.isRefusal(error)) throw error;
            refused.add(outcomes.length);
            outcomes.push(error);
          }
        }
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, index) => {
      if (refused.has(index)) item.reject(outcomes[index]);
      else item.resolve(outcomes[index]);
    });
  }
}

/** The write path of `db`: group commit on SQLite, a transaction per write elsewhere. */
export function writesFor(db: Db, isRefusal: (error: unknown) => boolean): Writes {
  return supportsDirectQueries(db) ? new GroupCommit(db, isRefusal) : new TransactionPerWrite(db);
}
