import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port';

const repositoryRoot = resolve(import.meta.dirname, '../..');

export interface AppProcess {
  port: number;
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** A signal to the process (default SIGKILL: a node that dies); `stop()` still cleans up after it. */
  kill(signal?: NodeJS.Signals): void;
  /** SIGTERM, waits for the exit, removes the data folder it made (when `env` named none). */
  stop(): Promise<void>;
}

/**
 * One app node on a free loopback port, answering `GET /api/health`. From source through tsx
 * (`node --import tsx api/server.ts`: tests and benches need no build step), or `compiled`: the build
 * that `npm start` runs (`node dist/server/server.js`, made by `npm run build:server`). `env` goes over a
 * minimal environment (PATH, HOME, HOST, PORT, LOG_LEVEL=warn, and unless `env` names one a fresh
 * DATA_DIR with the SQLite file in it): nothing of the caller's environment leaks in (not even a test
 * runner's NODE_ENV=test). `nodeArgs` go to node before the entry point (a bench's `--import` of its own
 * probe: given in NODE_OPTIONS beside tsx's `--import`, Node 20 could hang or fail to load it). Fails
 * with everything the process printed when it exits first or does not answer within a minute (a first
 * start on a fresh machine compiles every module).
 */
export async function startAppProcess(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  from: 'source' | 'compiled' = 'source',
): Promise<AppProcess> {
  const port = await freePort();
  const ownDataDir = env.DATA_DIR === undefined ? await mkdtemp(join(tmpdir(), 'lotwise-node-')) : undefined;
  const dataDir = env.DATA_DIR ?? ownDataDir!;
  const minimal: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_PATH: join(dataDir, 'app.db'),
    LOG_LEVEL: 'warn',
    // The mark of the test run that started it (scripts/test.ts finds what a run left running by it).
    ...(process.env.LOTWISE_TEST_RUN ? { LOTWISE_TEST_RUN: process.env.LOTWISE_TEST_RUN } : {}),
  };
  const entry = from === 'source' ? ['--import', 'tsx', ...nodeArgs, 'api/server.ts'] : [...nodeArgs, 'dist/server/server.js'];
  const child = spawn(process.execPath, entry, {
    cwd: repositoryRoot,
    env: { ...minimal, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((settle) => child.once('exit', (code, signal) => settle(code ?? signal)));
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (running()) {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (running()) child.kill('SIGKILL');
      await exited;
    }
    if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!running()) {
      await stop();
      throw new Error(`app process exited early:\n${output}`);
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`app process did not answer on ${port}:\n${output}`);
    }
    await sleep(100);
  }
  return {
    port,
    url,
    pid: child.pid!,
    child,
    output: () => output,
    exited,
    kill: (signal = 'SIGKILL') => void child.kill(signal),
    stop,
  };
}
