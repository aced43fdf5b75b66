import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startCheckpointer, walSizeLimitBytes } from './checkpointer';

const dir = mkdtempSync(join(tmpdir(), 'lotwise-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Rows in the database file itself, ignoring the WAL: what checkpoints have copied there. A copy
 * taken while a checkpoint is writing the file can be torn (SQLite says "malformed"): null then.
 */
let copies = 0;
function rowsInMainFile(path: string): number | null {
  copies += 1;
  const copy = join(dir, `copy-${copies}.db`);
  copyFileSync(path, copy); // the file alone, without its -wal
  const reader = new SQLite(copy, { readonly: true });
  try {
    return (reader.prepare('select count(*) as n from notes').get() as { n: number }).n;
  } catch (error) {
    if (error instanceof SQLite.SqliteError && error.code === 'SQLITE_CORRUPT') return null;
    throw error;
  } finally {
    reader.close();
  }
}

describe('WAL checkpoints off the event loop', () => {
  it('copies committed writes into the database file from the worker, not from the writer', async () => {
    const path = join(dir, 'app.db');
    const sqlite = new SQLite(path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.exec('create table notes (id integer primary key, text text not null)');
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    // The worker's first checkpoint comes 300 ms after its start: the first copy below is long done by then.
    const checkpointer = startCheckpointer(sqlite, path, { everyMs: 300 });
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);

    const insert = sqlite.prepare('insert into notes (text) values (?)');
    sqlite.transaction(() => {
      for (let i = 0; i < 3000; i += 1) insert.run(`note ${i} ${'x'.repeat(200)}`);
    })();
    expect(rowsInMainFile(path)).toBe(0); // still only in the WAL

    const deadline = Date.now() + 5000;
    while (rowsInMainFile(path) !== 3000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));

    await checkpointer.stop();
    expect(rowsInMainFile(path)).toBe(3000); // read with no checkpoint running: never torn
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    sqlite.close();
  });

  it.runIf(process.platform === 'linux')('checkpoints on a thread of the lowest CPU priority, leaving the event loop’s as it was', async () => {
    // The nice value in a /proc stat file (field 19; the fields after the command name in parentheses).
    const niceOf = (statPath: string) => {
      const stat = readFileSync(statPath, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const niceValues = () => readdirSync('/proc/self/task').map((tid) => niceOf(`/proc/self/task/${tid}/stat`));
    const before = niceValues().filter((nice) => nice === 19).length;
    const path = join(dir, 'priority.db');
    const sqlite = new SQLite(path);
    sqlite.pragma('journal_mode = WAL');
    const checkpointer = startCheckpointer(sqlite, path, { everyMs: 100 });
    const deadline = Date.now() + 5000;
    while (niceValues().filter((nice) => nice === 19).length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(niceValues().filter((nice) => nice === 19).length).toBe(before + 1);
    expect(String(niceOf('/proc/self/stat'))).toBe('0');
    await checkpointer.stop();
    sqlite.close();
  });

  it('empties the WAL file once the database is idle, and the main connection keeps it under its limit', async () => {
    const path = join(dir, 'idle.db');
    const sqlite = new SQLite(path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.exec('create table notes (id integer primary key, text text not null)');
    const checkpointer = startCheckpointer(sqlite, path, { everyMs: 50 });
    expect(sqlite.pragma('journal_size_limit', { simple: true })).toBe(walSizeLimitBytes);
    const insert = sqlite.prepare('insert into notes (text) values (?)');
    sqlite.transaction(() => {
      for (let i = 0; i < 2000; i += 1) insert.run(`note ${i} ${'x'.repeat(500)}`);
    })();
    const walSize = () => statSync(`${path}-wal`).size;
    expect(walSize()).toBeGreaterThan(1_000_000);
    await expect.poll(walSize, { timeout: 10_000, interval: 25 }).toBe(0);
    // Nothing was lost on the way: every row is in the file now.
    await checkpointer.stop();
    expect(rowsInMainFile(path)).toBe(2000);
    sqlite.close();
  });

  it('logs a failing checkpoint, and after three in a row gives checkpoints back to the main connection', async () => {
    const path = join(dir, 'main.db');
    const sqlite = new SQLite(path);
    sqlite.pragma('journal_mode = WAL');
    // The worker's connection opens a file that is not a database: each of its checkpoints fails.
    const broken = join(dir, 'broken.db');
    writeFileSync(broken, 'this is not a database file, whatever its name says'.repeat(100));
    const said: string[] = [];
    const log = {
      warn: (details: { error: string }, message: string) => said.push(`warn ${message}: ${details.error}`),
      error: (details: { failures: number }, message: string) => said.push(`error ${message} (${details.failures})`),
      info: (message: string) => said.push(`info ${message}`),
    };
    const checkpointer = startCheckpointer(sqlite, broken, { everyMs: 20, log });
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await expect.poll(() => sqlite.pragma('wal_autocheckpoint', { simple: true }), { timeout: 10_000, interval: 10 }).toBe(1000);
    expect(said.slice(0, 3)).toEqual(Array.from({ length: 3 }, () => expect.stringMatching(/^warn WAL checkpoint failed: .*not a database/)) as string[]);
    expect(said[3]).toBe('error WAL checkpoints keep failing: the main connection checkpoints by itself from now on (3)');
    await checkpointer.stop();
    sqlite.close();
  });
});
