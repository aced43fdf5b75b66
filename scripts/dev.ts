import { type ChildProcess, spawn } from 'node:child_process';

/**
 * `npm run dev`: the API under `node --watch` and the Vite dev server, whose proxy sends `/api` and
 * `/socket.io` to the API (API_PORT). Ctrl-C, or either one exiting, stops both.
 */
const apiPort = process.env.API_PORT ?? process.env.PORT ?? '3000';
const environment = { ...process.env, PORT: apiPort, API_PORT: apiPort, NODE_ENV: process.env.NODE_ENV ?? 'development' };

const children: ChildProcess[] = [
  spawn(process.execPath, ['--watch', '--import', 'tsx', 'api/server.ts'], { stdio: 'inherit', env: environment }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit', env: environment }),
];

let stopping = false;
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  // Give both a moment to close with grace, then leave.
  setTimeout(() => process.exit(code), 3000).unref();
  void Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null))))).then(() =>
    process.exit(code),
  );
}

for (const child of children) child.once('exit', (code) => stop(code ?? 1));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
