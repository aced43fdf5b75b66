import type { Db } from './client';
import { sql } from 'kysely';
import { directSavepoint, directTransaction, plainKysely, supportsDirectQueries, TransactionLost } from './prepared';

/**
 * How a write reaches the database, whatever the dialect: `work` runs in a transaction with the
 * executor it is given, and the promise settles once that transaction is committed (or its work
 * undone). Modules never call it: they write through `app.write` (api/events/write.ts), which adds
 * the write's events on top. Nothing outside db/ opens a transaction or knows the dialect.
 */
export interface Transactions {
  run<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /**
   * A write of exactly one statement, which is atomic on its own: SQLite's joins the group commit
   * like any; PostgreSQL's runs on the pool with no BEGIN and COMMIT around it, a round trip instead
   * of three (the job runner's claims and outcomes, many a second under load).
   */
  single<T>(statement: (db: Db) => Promise<T>): Promise<T>;
  /**
   * When the last transaction committed (`performance.now()`): its writes settle right after, in the
   * same turn, so a write's live listeners can tell how long after its commit they run (metrics).
   */
  readonly lastCommitAt?: number;
  /** Tells `observer` how long each committed transaction took, from its first statement to its commit (metrics). */
  observe?(observer: (durationMs: number) => void): void;
}

/** A write waiting for the next group commit. */
interface PendingWrite {
  work: (db: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Bounds one group commit, so a huge burst is committed in steps. */
const maxWritesPerTransaction = 200;

/** Where a batch that held the connection too long is told of (tests: `slowBatchMs`). */
export interface SlowBatchLog {
  warn(details: { writes: number; heldMs: number }, message: string): void;
}

/** The guard on SQLite's group commit: a batch holding the connection past `slowBatchMs` is logged. */
export interface SlowBatchGuard {
  log?: SlowBatchLog;
  slowBatchMs?: number;
}

/**
 * The rule every SQLite write keeps: **a `write()` awaits nothing but the database.** A batch holds
 * SQLite's one connection from its BEGIN to its COMMIT, so a write that awaits anything else inside
 * (a fetch, a password hash, a timer, another write) holds every other write and the readers of the
 * event loop with it. Read, hash and call out before `app.write`, and do after it what needs its
 * outcome. Under test (`slowBatchMs`, 50 ms) a batch that holds the connection longer is logged.
 *
 * Group commit: every write that arrives while the previous batch commits waits for the next one, and
 * a batch is committed as one transaction. A commit (its WAL written and flushed) costs more than the
 * statements before it, so under load the batches grow and the cost per write falls instead of a queue
 * building up. Each write still resolves only once its transaction is committed, so nothing is
 * acknowledged before it is stored. SQLite's below; PostgreSQL does better without (PostgresTransactions).
 */
abstract class GroupCommit implements Transactions {
  constructor(private readonly guard: SlowBatchGuard) {}

  private pendingWrites: PendingWrite[] = [];
  private flushScheduled = false;
  lastCommitAt = 0;
  private batchStartedAt = 0;
  private observer: ((durationMs: number) => void) | undefined;

  observe(observer: (durationMs: number) => void): void {
    this.observer = observer;
  }

  /** Called by a dialect once a transaction committed, before its writes are settled. */
  protected committed(writes: number): void {
    this.lastCommitAt = performance.now();
    const heldMs = this.lastCommitAt - this.batchStartedAt;
    this.observer?.(heldMs);
    const { log, slowBatchMs } = this.guard;
    if (log && slowBatchMs !== undefined && heldMs > slowBatchMs) {
      log.warn({ writes, heldMs: Math.round(heldMs) }, `a write batch held the database connection over ${slowBatchMs} ms: does a write await something besides the database?`);
    }
  }

  single<T>(statement: (db: Db) => Promise<T>): Promise<T> {
    return this.run(statement);
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
    this.batchStartedAt = performance.now();
    void this.commit(batch).then(() => {
      if (this.pendingWrites.length > 0) setImmediate(this.flush);
      else this.flushScheduled = false;
    });
  };

  /** Commits the batch and settles each of its writes; never rejects. */
  protected abstract commit(batch: PendingWrite[]): Promise<void>;
}

function settle(batch: PendingWrite[], outcomes: { ok: boolean; value: unknown }[]): void {
  batch.forEach((item, index) => {
    const outcome = outcomes[index]!;
    if (outcome.ok) item.resolve(outcome.value);
    else item.reject(outcome.value);
  });
}

/**
 * SQLite's group commit. A batch holds SQLite's one connection (db/prepared's directTransaction): its
 * writes run one after the other, their prepared queries straight on the connection, and no other
 * query interleaves. Each write runs under a savepoint of its own: one that fails (a refusal, a broken
 * constraint, a bug) is undone and rejected alone, and the other writes of its batch commit as if it
 * had never run. A savepoint costs nothing but a few instructions here.
 */
export class SqliteGroupCommit extends GroupCommit {
  constructor(
    private readonly db: Db,
    guard: SlowBatchGuard = {},
  ) {
    super(guard);
    if (!supportsDirectQueries(db)) throw new Error('Group commit needs the SQLite database opened by db/client.ts');
  }

  protected async commit(batch: PendingWrite[]): Promise<void> {
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
    this.committed(batch.length);
    settle(batch, outcomes);
  }
}

/** SQLite's group commit through Kysely's own transaction, savepoints and queries (measuring: LOTWISE_PLAIN_KYSELY). */
export class KyselyGroupCommit extends GroupCommit {
  constructor(
    private readonly db: Db,
    guard: SlowBatchGuard = {},
  ) {
    super(guard);
  }

  protected async commit(batch: PendingWrite[]): Promise<void> {
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      await this.db.transaction().execute(async (tx) => {
        if (batch.length === 1) {
          outcomes.push({ ok: true, value: await batch[0]!.work(tx) });
          return;
        }
        for (const item of batch) {
          await sql`savepoint write`.execute(tx);
          try {
            const value = await item.work(tx);
            await sql`release write`.execute(tx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            await sql`rollback to write`.execute(tx);
            await sql`release write`.execute(tx);
            outcomes.push({ ok: false, value: error });
          }
        }
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    this.committed(batch.length);
    settle(batch, outcomes);
  }
}

/**
 * PostgreSQL's side: a transaction of its own per write, on its pool connection, many at once. A
 * group commit here (one batch at a time on one connection) measured no faster with one statement a
 * write and half as fast with two (bench:forms): PostgreSQL already flushes the WAL of concurrent
 * commits together, and parallel connections beat one connection's round trips one after another.
 */
export class PostgresTransactions implements Transactions {
  lastCommitAt = 0;
  private observer: ((durationMs: number) => void) | undefined;

  constructor(private readonly db: Db) {}

  observe(observer: (durationMs: number) => void): void {
    this.observer = observer;
  }

  run<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return this.timed(() => this.db.transaction().execute(work));
  }

  single<T>(statement: (db: Db) => Promise<T>): Promise<T> {
    return this.timed(() => statement(this.db));
  }

  private async timed<T>(commit: () => Promise<T>): Promise<T> {
    const startedAt = performance.now();
    const value = await commit();
    this.lastCommitAt = performance.now();
    this.observer?.(this.lastCommitAt - startedAt);
    return value;
  }
}

/** The transactions of `db`: SQLite's group commit, or PostgreSQL's transaction per write. */
export function transactionsFor(db: Db, guard: SlowBatchGuard = {}): Transactions {
  if (plainKysely && supportsDirectQueries(db)) return new KyselyGroupCommit(db, guard);
  return supportsDirectQueries(db) ? new SqliteGroupCommit(db, guard) : new PostgresTransactions(db);
}
