import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { createPrivateFile, privateFileMode, privateFolderMode } from './files';

/**
 * Backups of the SQLite file (DESIGN.md 12). PostgreSQL has its own tools (`pg_dump`, see README).
 *
 * A backup is taken while the server runs, through SQLite's online backup API on a connection of its
 * own: it copies one consistent snapshot (a write by the server meanwhile restarts the copy from that
 * newer snapshot), so every write the server had acknowledged when the copy began is in it.
 *
 * A restore replaces the file, so it is refused while a server has the file open: the server records
 * its process id beside the file (`<file>.pid`, written when it opens the database, removed when it
 * closes it; one left by a process that died is ignored).
 */

export class BackupError extends Error {}

/** The file beside the database that names the server process using it. */
export function serverPidFileOf(path: string): string {
  return `${path}.pid`;
}

/** Records this process as the server of the database at `path`; the returned function forgets it. */
export function claimDatabaseFile(path: string): () => void {
  const pidFile = serverPidFileOf(path);
  writeFileSync(pidFile, `${process.pid}\n`, { mode: privateFileMode });
  return () => {
    if (runningServerOf(path) === process.pid) rmSync(pidFile, { force: true });
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process id of a live server using the database at `path`, if any. */
export function runningServerOf(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(serverPidFileOf(path), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isSafeInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

/** Copies a consistent snapshot of the database at `path` to `out` (replaced whole, private to this user). Answers its size in pages. */
export async function backupDatabase(path: string, out: string): Promise<number> {
  if (!existsSync(path)) throw new BackupError(`No database at ${path}`);
  mkdirSync(dirname(out), { recursive: true, mode: privateFolderMode });
  const partial = `${out}.partial-${process.pid}`;
  const source = new SQLite(path, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // After a first step of 100 pages, the rest in one step: one snapshot, even when writes keep coming.
    const { totalPages } = await source.backup(partial, { progress: ({ totalPages: pages }) => pages });
    chmodSync(partial, privateFileMode);
    renameSync(partial, out);
    return totalPages;
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    source.close();
  }
}

/** Checks that `file` is a whole SQLite database of this app (it has the migrations' own table). */
function checkBackup(file: string): void {
  if (!existsSync(file)) throw new BackupError(`No backup at ${file}`);
  let backup: SQLite.Database;
  try {
    backup = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch {
    throw new BackupError(`${file} is not a SQLite database`);
  }
  try {
    const check = backup.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`${file} is damaged: ${String(check)}`);
    const migrations = backup.prepare("select count(*) as count from sqlite_master where name = 'kysely_migration'").get() as { count: number };
    if (migrations.count === 0) throw new BackupError(`${file} is not a backup of this app's database`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a SQLite database`);
  } finally {
    backup.close();
  }
}

/**
 * Puts the backup `from` in place of the database at `path`, refused while a server uses it. The old
 * file's write-ahead log goes with it (its writes are the ones being undone). Migrations newer than the
 * backup run at the next start.
 */
export function restoreDatabase(path: string, from: string): void {
  const server = runningServerOf(path);
  if (server !== undefined) throw new BackupError(`A server (process ${server}) is using ${path}: stop it before restoring`);
  checkBackup(from);
  createPrivateFile(path);
  const partial = `${path}.restoring-${process.pid}`;
  try {
    writeFileSync(partial, readFileSync(from), { mode: privateFileMode, flush: true });
    for (const sidecar of ['-wal', '-shm']) rmSync(`${path}${sidecar}`, { force: true });
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
}
