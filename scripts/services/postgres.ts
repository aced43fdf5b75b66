import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

/** Creates a fresh, empty database on the PostgreSQL server of `superuserUrl` (tests, benches); answers its URL. */
export async function createPostgresDatabase(superuserUrl: string): Promise<string> {
  const name = `lotwise_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(superuserUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Debian's PostgreSQL 15 (`apt-get install postgresql`). */
const binDir = '/usr/lib/postgresql/15/bin';
const osUser = 'postgres';

export interface PostgresServer {
  /** Superuser URL of the `postgres` database. */
  url: string;
  port: number;
  pid: number;
  /** A fresh, empty database; answers its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server and removes its cluster. */
  stop(): Promise<void>;
  /** Stops the server and keeps its cluster, as an outage would (tests of what a node does without it). */
  halt(): Promise<void>;
  /** Starts a halted server again on the same port and cluster. */
  resume(): Promise<void>;
}

/**
 * Who the PostgreSQL binaries run as: the postgres user when we are root (initdb refuses root),
 * set on the process itself so its PID is postgres's own and a signal reaches it.
 */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', osUser]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', osUser]).toString().trim());
  return { uid, gid };
}

async function acceptsConnections(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within 30 s: ${String(error)}\n${log()}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A throwaway PostgreSQL for tests and benches: a fresh cluster in a temp folder, on 127.0.0.1 and a
 * free port, its socket in the same folder. `durable: false` (the default) turns fsync off, which
 * tests want; a bench measuring real commits asks for `durable: true`.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer> {
  if (!existsSync(join(binDir, 'postgres'))) {
    throw new Error(`PostgreSQL 15 is not installed (${binDir} is missing): install Debian's postgresql package`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-postgres-'));
  const dataDir = join(dir, 'data');
  const user = postgresUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const initArgs = ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync'];
  execFileSync(join(binDir, 'initdb'), initArgs, { stdio: 'pipe', cwd: dir, ...user });

  const port = await freePort();
  const settings = ['-c', 'listen_addresses=127.0.0.1', '-c', `port=${port}`, '-c', 'max_connections=300'];
  if (!options.durable) settings.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  const launch = () => {
    const server = spawn(join(binDir, 'postgres'), ['-D', dataDir, '-k', dir, ...settings], { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir, ...user });
    server.stdout.on('data', keep);
    server.stderr.on('data', keep);
    return { server, exited: new Promise<void>((resolve) => server.once('exit', () => resolve())) };
  };
  let { server: child, exited } = launch();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  const halt = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGINT is PostgreSQL's fast shutdown.
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };
  const stop = async () => {
    await halt();
    rmSync(dir, { recursive: true, force: true });
  };
  const resume = async () => {
    await halt();
    ({ server: child, exited } = launch());
    await acceptsConnections(url, child, () => output);
  };

  try {
    await acceptsConnections(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    port,
    // The server's pid changes with `resume`.
    get pid() {
      return child.pid!;
    },
    createDatabase: () => createPostgresDatabase(url),
    stop,
    halt,
    resume,
  };
}
