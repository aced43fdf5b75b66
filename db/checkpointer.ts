import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

const require = createRequire(import.meta.url);
const defaultEveryMs = 1000;
/** Checkpoints failing in a row before the main connection takes them back (SQLite's own autocheckpoint). */
const failuresBeforeFallBack = 3;
/** The WAL is cut back to this after a checkpoint resets it, whatever size a burst grew it to. */
export const walSizeLimitBytes = 16 * 1024 * 1024;

// Plain JavaScript: a worker started from `eval` needs no TypeScript loader.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
// Lowest CPU priority for this thread (Linux, best effort): a checkpoint can wait, requests cannot.
try {
  const os = require('node:os');
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0) os.setPriority(tid, 19);
} catch {}
const Database = require(workerData.driverPath);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
let failing = false;
let lastSize = -1;
const timer = setInterval(() => {
  try {
    const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
    if (failing) { failing = false; parentPort.postMessage({ recovered: true }); }
    // Idle (nothing written since the last look, all of it copied): empty the WAL file. Never waits:
    // a writer or reader that comes along meanwhile wins, and the next idle second tries again.
    if (log > 0 && checkpointed === log && log === lastSize) {
      db.pragma('busy_timeout = 0');
      try { db.pragma('wal_checkpoint(TRUNCATE)'); lastSize = 0; } catch {} finally { db.pragma('busy_timeout = 5000'); }
    } else {
      lastSize = log;
    }
  } catch (error) {
    failing = true;
    parentPort.postMessage({ error: String(error) });
  }
}, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/** What the checkpointer says of itself (the server's log). */
export interface CheckpointerLog {
  warn(details: { error: string }, message: string): void;
  error(details: { failures: number }, message: string): void;
  info(message: string): void;
}

type WorkerMessage = { error: string } | { recovered: true };

/**
 * Moves WAL checkpoints off the event loop. SQLite checkpoints inside a commit once the WAL is
 * large, and a checkpoint waits for fsync: on a busy disk that froze every socket and request for
 * hundreds of milliseconds. Here the main connection never checkpoints; a worker thread with its
 * own connection does, every second, without blocking writers (PASSIVE), and empties the WAL file
 * once the database is idle. On Linux the thread runs at the lowest CPU priority: copying a second's
 * worth of frames took the second core from whatever served or measured requests beside it
 * (bench:chat's relay slices showed it).
 *
 * A failed checkpoint is logged; after three in a row, or if the worker stops, the main connection
 * checkpoints again by itself (SQLite's autocheckpoint), so the WAL never grows without bound.
 */
export function startCheckpointer(
  sqlite: SQLite.Database,
  path: string,
  options: { everyMs?: number; log?: CheckpointerLog } = {},
): { stop(): Promise<void> } {
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { path, everyMs: options.everyMs ?? defaultEveryMs, driverPath: require.resolve('better-sqlite3') },
  });
  sqlite.pragma('wal_autocheckpoint = 0');
  sqlite.pragma(`journal_size_limit = ${walSizeLimitBytes}`);
  let stopping = false;
  let fellBack = false;
  let failures = 0;
  const fallBack = () => {
    if (stopping || fellBack || !sqlite.open) return;
    fellBack = true;
    sqlite.pragma('wal_autocheckpoint = 1000');
  };
  worker.on('message', (message: WorkerMessage) => {
    if ('recovered' in message) {
      if (failures > 0) options.log?.info('WAL checkpoints work again');
      failures = 0;
      return;
    }
    failures += 1;
    options.log?.warn({ error: message.error }, 'WAL checkpoint failed');
    if (failures === failuresBeforeFallBack) {
      options.log?.error({ failures }, 'WAL checkpoints keep failing: the main connection checkpoints by itself from now on');
      fallBack();
      worker.postMessage('stop');
    }
  });
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  worker.unref();
  return {
    async stop() {
      stopping = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 2000).unref())]);
      if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
    },
  };
}
