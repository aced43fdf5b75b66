import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

const require = createRequire(import.meta.url);
const defaultEveryMs = 1000;

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
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage({ error: String(error) }); }
}, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/**
 * Moves WAL checkpoints off the event loop. SQLite checkpoints inside a commit once the WAL is
 * large, and a checkpoint waits for fsync: on a busy disk that froze every socket and request for
 * hundreds of milliseconds. Here the main connection never checkpoints; a worker thread with its
 * own connection does, every second, without blocking writers (PASSIVE). If the worker stops, the
 * main connection checkpoints again by itself. On Linux the thread runs at the lowest CPU priority:
 * copying a second's worth of frames took the second core from whatever served or measured
 * requests beside it (bench:chat's relay slices showed it).
 */
export function startCheckpointer(sqlite: SQLite.Database, path: string, everyMs = defaultEveryMs): { stop(): Promise<void> } {
  const worker = new Worker(workerSource, { eval: true, workerData: { path, everyMs, driverPath: require.resolve('better-sqlite3') } });
  sqlite.pragma('wal_autocheckpoint = 0');
  let stopping = false;
  const fallBack = () => {
    if (!stopping && sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  };
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
