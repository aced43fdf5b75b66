/**
 * bench:chat's side of its servers: starts scripts/bench/chat-server.ts (the full app, or the bare
 * relay) as a child process, and asks it over IPC for its readings and job rows.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { resolve } from 'node:path';

export type Mode = 'full' | 'bare' | 'unmetered';
export interface Ready {
  type: 'ready';
  port: number;
  staffCookie?: string;
}

/** What the server reports when asked: its RSS (after a forced collection), CPU time and longest stall. */
export interface Reading {
  rss: number;
  /** CPU time so far (user + system), read before the forced collection. */
  cpuMicros: number;
  /** The longest event-loop stall since the previous reading. */
  loopMaxMs: number;
  /** SQL statements the full app ran so far (0 for the relay). */
  statements: number;
}

const serverNodeFlags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);

export async function startServer(mode: Mode | 'full'): Promise<{ child: ChildProcess; ready: Ready; read(): Promise<Reading>; jobs(): Promise<Record<string, number>>; stop(): Promise<void> }> {
  const child = fork(resolve('scripts/bench/chat-server.ts'), [mode], {
    execArgv: ['--import', 'tsx', '--expose-gc', '--max-old-space-size=1024', ...serverNodeFlags],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`bench server exited with ${code}`)));
    child.on('message', (message: { type: string }) => message.type === 'ready' && done(message as Ready));
  });
  const read = () =>
    new Promise<Reading>((done) => {
      const listener = (message: { type: string } & Partial<Reading>) => {
        if (message.type !== 'rss') return;
        child.off('message', listener);
        done({ rss: message.rss ?? 0, cpuMicros: message.cpuMicros ?? 0, loopMaxMs: message.loopMaxMs ?? 0, statements: message.statements ?? 0 });
      };
      child.on('message', listener);
      child.send({ type: 'rss' });
    });
  /** The job rows the full app holds, by kind. */
  const jobs = () =>
    new Promise<Record<string, number>>((done) => {
      const listener = (message: { type: string; jobs?: Record<string, number> }) => {
        if (message.type !== 'jobs') return;
        child.off('message', listener);
        done(message.jobs ?? {});
      };
      child.on('message', listener);
      child.send({ type: 'jobs' });
    });
  const stop = () =>
    new Promise<void>((done) => {
      child.removeAllListeners('exit');
      child.once('exit', () => done());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  return { child, ready, read, jobs, stop };
}
