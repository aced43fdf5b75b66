/**
 * `npm run bench:poll` (DESIGN section 8): the widget's fallback poll, `GET /api/chat-messages/:sessionId`
 * by the session's owner, with 10,000 chat sessions stored (3 messages each), each request for a
 * random session. Target: at least 5,000 requests/s. The server runs in its own process.
 *
 * Env: BENCH_SESSIONS (10000), BENCH_SECONDS (10), BENCH_CONNECTIONS (50).
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import autocannon from 'autocannon';

const sessions = Number(process.env.BENCH_SESSIONS ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function main(): Promise<void> {
  const child = fork(resolve('scripts/bench/chat-server.ts'), ['poll'], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_SESSIONS: String(sessions) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ port: number; visitorCookie: string }>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`bench server exited with ${code}`)));
    child.on('message', (message: { type: string; port: number; visitorCookie: string }) => message.type === 'ready' && done(message));
  });
  child.removeAllListeners('exit');
  const url = `http://127.0.0.1:${ready.port}`;

  const run = (duration: number) =>
    autocannon({
      url,
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
  const result = await run(seconds);
  child.kill('SIGTERM');

  const non2xx = result.non2xx;
  console.log(`bench:poll: GET /api/chat-messages/:sessionId, ${sessions} sessions stored, ${connections} connections, ${seconds} s`);
  console.log(
    `  ${Math.round(result.requests.average)} req/s (median ${Math.round(result.requests.p50)}), latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `${non2xx} non-2xx, ${result.errors} errors (target >= 5,000 req/s)`,
  );
  process.exit(non2xx > 0 || result.errors > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
