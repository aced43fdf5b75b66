import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port';

/** A throwaway Redis on loopback, for tests and benches: nothing is saved to disk. */
export interface RedisServer {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

const missingMessage = "redis-server was not found: install Debian's `redis-server` package (apt-get install redis-server)";

/** True once the server at `port` answers PING. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/** Starts `redis-server` on a free loopback port (or `port`: a restart) and waits until it answers PING. */
export async function startRedis(port?: number): Promise<RedisServer> {
  port ??= await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failedToSpawn = new Promise<Error>((resolve) =>
    child.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ENOENT' ? new Error(missingMessage) : error)),
  );

  const deadline = Date.now() + 10_000;
  for (;;) {
    const failure = await Promise.race([failedToSpawn, sleep(50, undefined)]);
    if (failure) throw failure;
    if (child.exitCode !== null) throw new Error(`redis-server exited early:\n${output}`);
    if (await answersPing(port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not answer PING on port ${port} within 10 s:\n${output}`);
    }
  }

  const pid = child.pid;
  if (pid === undefined) throw new Error('redis-server started without a pid');
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(pid, 'SIGTERM');
      const killed = await Promise.race([exited.then(() => true), sleep(5000, false)]);
      if (!killed) {
        process.kill(pid, 'SIGKILL');
        await exited;
      }
    },
  };
}
