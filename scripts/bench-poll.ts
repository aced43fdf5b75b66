/**
 * `npm run bench:poll` (target 5,000 req/s): the widget's fallback poll, `GET /api/chat-messages/:sessionId`
 * by the session's owner, with 10,000 chat sessions stored (3 messages each), each request for a
 * random session. Target: at least 5,000 requests/s. The server runs in its own process.
 *
 * Beside it, interleaved, a bare Fastify route running the same select without session, checks or
 * schemas: the machine's ceiling. Env: BENCH_SESSIONS (10000), BENCH_SECONDS (8), BENCH_CONNECTIONS (50), BENCH_ROUNDS (3).
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { median } from './bench/stats';

const sessions = Number(process.env.BENCH_SESSIONS ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

async function main(): Promise<void> {
  const child = fork(resolve('scripts/bench/chat-server.ts'), ['poll'], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    env: { ...process.env, BENCH_SESSIONS: String(sessions) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ port: number; barePort: number; visitorCookie: string }>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`bench server exited with ${code}`)));
    child.on('message', (message: { type: string; port: number; barePort: number; visitorCookie: string }) => message.type === 'ready' && done(message));
  });
  child.removeAllListeners('exit');
  const run = (duration: number, port = ready.port) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      duration,
      headers: { cookie: ready.visitorCookie },
      requests: [
        {
          method: 'GET',
          setupRequest: (request) => ({ ...request, path: `/api/chat-messages/session_bench_${Math.floor(Math.random() * sessions)}` }),
        },
      ],
    });

  await run(2); // warm-up: JIT, statement cache, page cache
  await run(2, ready.barePort);
  // Interleaved A/B rounds; the medians are reported.
  const app: autocannon.Result[] = [];
  const bare: autocannon.Result[] = [];
  for (let round = 0; round < rounds; round += 1) {
    app.push(await run(seconds));
    bare.push(await run(seconds, ready.barePort));
  }
  await new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });

  const appRate = median(app.map((result) => result.requests.average));
  const bareRate = median(bare.map((result) => result.requests.average));
  const failures = app.reduce((sum, result) => sum + result.non2xx + result.errors, 0);
  console.log(`bench:poll: GET /api/chat-messages/:sessionId, ${sessions} sessions stored, ${connections} connections, ${rounds} x ${seconds} s interleaved`);
  for (const [index, result] of app.entries()) {
    console.log(`  round ${index + 1}: app ${Math.round(result.requests.average)} req/s (p99 ${result.latency.p99} ms), bare ${Math.round(bare[index]!.requests.average)} req/s (p99 ${bare[index]!.latency.p99} ms)`);
  }
  console.log(
    `  median: app ${Math.round(appRate)} req/s, bare Fastify + same select ${Math.round(bareRate)} req/s, ratio ${(appRate / bareRate).toFixed(2)}; ` +
      `${failures} non-2xx or errors (target >= 5,000 req/s)`,
  );
  process.exit(failures > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
