import { spawn } from 'node:child_process';

/** The test runner's environment without its NODE_ENV=test: child processes run as a user runs them. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { NODE_ENV: _testMode, ...inherited } = process.env;
  return { ...inherited, ...env };
}

/** Runs a command of the repository (`node --import tsx <script>`) as a user would. */
export function runScript(script: string, args: string[], env: Record<string, string>, stdin?: string) {
  return runNode(['--import', 'tsx', script, ...args], env, stdin);
}

/** Runs `node <args>` (a compiled command: `dist/server/admin-create.js --email E`) as a user would. */
export function runNode(args: string[], env: Record<string, string>, stdin?: string) {
  const child = spawn(process.execPath, args, {
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
