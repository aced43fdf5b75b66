import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | NodeJS.Signals | null>;
}

/** The test runner's environment without its NODE_ENV=test: child processes run as a user runs them. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { NODE_ENV: _testMode, ...inherited } = process.env;
  return { ...inherited, ...env };
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Runs a command of the repository (`node --import tsx <script>`) as a user would. */
export function runScript(script: string, args: string[], env: Record<string, string>, stdin?: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: childEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin ?? '');
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

/** The real server (`node --import tsx api/server.ts`), started and answering its health check. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    env: childEnv({ LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await sleep(100);
  }
  return { child, baseUrl, output: () => output, exited };
}
