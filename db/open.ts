import { claimDatabaseFile } from './backup';
import { type CheckpointerLog, startCheckpointer } from './checkpointer';
import { createDb, createPostgresDb, type Db } from './client';
import { migrateToLatest } from './migrate';
import { type SlowBatchLog, type Transactions, transactionsFor } from './writes';

/** Where the data lives: PostgreSQL at `url` when set, else the SQLite file at `path`. */
export interface DatabaseLocation {
  url?: string;
  path: string;
  /** Connections of the PostgreSQL pool. */
  poolSize: number;
}

export interface OpenDatabase {
  db: Db;
  /** How writes reach it (db/writes.ts). */
  transactions: Transactions;
  close(): Promise<void>;
}

/** Where the data lives, for messages: the file, or the URL without its password. */
export function describeDatabase(location: DatabaseLocation): string {
  if (!location.url) return location.path;
  const url = new URL(location.url);
  url.password = '';
  return url.toString();
}

/** Connects to the database of `location`, without migrating: scripts and tests. */
export function connectDatabase(location: DatabaseLocation): Db {
  return location.url ? createPostgresDb(location.url, location.poolSize) : createDb(location.path).db;
}

/**
 * Opens and migrates the app's database, with its write path; on SQLite also the WAL checkpointer
 * (db/checkpointer.ts), and the file's mark that a server uses it (db/backup.ts).
 */
export async function openDatabase(
  location: DatabaseLocation,
  options: { log?: CheckpointerLog & SlowBatchLog; slowBatchMs?: number } = {},
): Promise<OpenDatabase> {
  const sqlite = location.url ? undefined : createDb(location.path);
  const db = sqlite ? sqlite.db : connectDatabase(location);
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const onFile = sqlite && location.path !== ':memory:';
  const checkpointer = onFile ? startCheckpointer(sqlite.sqlite, location.path, { log: options.log }) : null;
  // A restore (db/backup.ts) is refused while this process has the file open.
  const release = onFile ? claimDatabaseFile(location.path) : undefined;
  return {
    db,
    transactions: transactionsFor(db, { log: options.log, slowBatchMs: options.slowBatchMs }),
    async close() {
      await checkpointer?.stop();
      await db.destroy();
      release?.();
    },
  };
}
