import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../api/test/process';

const repositoryRoot = resolve(import.meta.dirname, '../..');

export interface AppProcess {
  port: number;
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** A signal to the process (default SIGKILL: a node that dies); `stop()` still cleans up after it. */
  kill(signal?: NodeJS.Signals): void;
  /** SIGTERM, waits for the exit, removes the data folder it was given by default. */
  stop(): Promise<void>;
}

/**
 * One app node as `npm start` runs it (`node --import tsx api/server.ts`), on a free loopback port,
 * answering `GET /api/health`. `env` goes over a minimal environment (PATH, HOME, HOST, PORT, a fresh
 * DATA_DIR with the SQLite file in it, LOG_LEVEL=warn): nothing of the caller's environment leaks in.
 */
export async function startAppProcess(env: Record<string, string>): Promise<AppProcess> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'lotwise-node-'));
  const minimal: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_PATH: join(dataDir, 'app.db'),
    LOG_LEVEL: 'warn',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    cwd: repositoryRoot,
    env: { ...minimal, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((settle) => child.once('exit', () => settle()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (running()) {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (running()) child.kill('SIGKILL');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
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
    kill: (signal = 'SIGKILL') => void child.kill(signal),
    stop,
  };
}
