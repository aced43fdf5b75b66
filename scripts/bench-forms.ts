import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { freePort } from './services/free-port';
import { median } from './bench/stats';
import { startPostgres } from './services/postgres';

/**
 * `npm run bench:forms`: `POST /api/contact-submission` on the real server against a bare Fastify
 * route doing the same single-row insert (the target: at least 0.6x its throughput), once per
 * database engine. On SQLite both run as their own processes on their own files with the same
 * pragmas; on PostgreSQL (a throwaway server with production settings: fsync and synchronous
 * commit on) the bare route inserts through a plain `pg` pool of the app's default size into the
 * app's table. Rounds alternate A/B and B/A so drift on a shared machine hits both; the medians are
 * compared. BENCH_ENGINES picks the engines (default "sqlite,postgres").
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const target = 0.6;
const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];
type Engine = 'sqlite' | 'postgres';

const body = JSON.stringify({
  name: 'Sam Carter',
  email: 'sam@carter-autos.example',
  company: 'Carter Autos',
  phone: '(512) 555-0102',
  subject: 'pricing',
  message: 'How much for 80 cars on the lot?',
});

interface Side {
  label: string;
  url: string;
  child: ChildProcess;
  throughput: number[];
  p99: number[];
}

async function start(label: string, script: string, path: string, env: Record<string, string>): Promise<Side> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}${path}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (response.status === 201) break;
      throw new Error(`${label} answered ${response.status}: ${await response.text()}`);
    } catch (error) {
      if (attempt > 200 || (error instanceof Error && error.message.includes('answered'))) throw error;
      await sleep(100);
    }
  }
  return { label, url, child, throughput: [], p99: [] };
}

/** Each post from a submitter of its own, as real traffic is: every lead's confirmation mail is then a job of its own to run. */
let posted = 0;
const distinctSubmitter = (request: { body?: string | Buffer }) => {
  posted += 1;
  return { ...request, body: body.replace('sam@', `sam.${posted}@`) };
};

async function load(side: Side, duration: number): Promise<autocannon.Result> {
  const result = await autocannon({
    url: side.url,
    connections,
    duration,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, body, setupRequest: distinctSubmitter }],
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${side.label}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result;
}

/** Both sides on one engine: warm-up, then the interleaved rounds; answers whether the ratio meets the target. */
async function runEngine(engine: Engine, dir: string, sides: Side[]): Promise<boolean> {
  const postgres = engine === 'postgres' ? await startPostgres({ durable: true }) : undefined;
  try {
    const databaseUrl = await postgres?.createDatabase();
    const database = (name: string): Record<string, string> =>
      databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_PATH: join(dir, name, 'app.db') };
    const api = await start('api', 'api/server.ts', '/api/contact-submission', {
      DATA_DIR: join(dir, 'api'),
      ...database('api'),
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      // Thousands of strangers an hour: the mail policy's site-wide cap would withhold their
      // confirmations past 2,000, and the bench measures every lead confirmed.
      MAIL_UNVERIFIED_PER_HOUR: '0',
      ADMIN_EMAIL: 'bench@lotwise.example',
      ADMIN_PASSWORD: 'bench-password-123',
    });
    sides.push(api);
    // On PostgreSQL the bare route writes into the table the app's migrations made.
    const bare = await start('bare', 'scripts/bench/bare-forms-server.ts', '/bare/contact-submission', database('bare'));
    sides.push(bare);

    console.log(`bench:forms on ${engine}: ${rounds} rounds of ${seconds} s per side, ${connections} connections, A/B interleaved`);
    // Warm both up until the JIT has settled, so round 1 measures the same code as round 5.
    await load(api, warmupSeconds);
    await load(bare, warmupSeconds);
    for (let round = 1; round <= rounds; round += 1) {
      const order = round % 2 ? [api, bare] : [bare, api];
      for (const side of order) {
        const result = await load(side, seconds);
        side.throughput.push(result.requests.average);
        side.p99.push(result.latency.p99);
      }
      console.log(
        `  round ${round}: api ${api.throughput.at(-1)!.toFixed(0)} req/s p99 ${api.p99.at(-1)} ms | ` +
          `bare ${bare.throughput.at(-1)!.toFixed(0)} req/s p99 ${bare.p99.at(-1)} ms`,
      );
    }

    const ratio = median(api.throughput) / median(bare.throughput);
    // Each round's pair ran seconds apart, so its ratio is the least disturbed by load elsewhere.
    const roundRatios = api.throughput.map((value, index) => value / bare.throughput[index]!);
    console.log(`  per-round ratios: ${roundRatios.map((value) => value.toFixed(2)).join(' ')} (median ${median(roundRatios).toFixed(2)})`);
    console.log(`  POST /api/contact-submission: median ${median(api.throughput).toFixed(0)} req/s, p99 ${median(api.p99)} ms`);
    console.log(`  bare Fastify insert:          median ${median(bare.throughput).toFixed(0)} req/s, p99 ${median(bare.p99)} ms`);
    console.log(`  ${engine}: throughput ratio api/bare ${ratio.toFixed(2)} (target >= ${target}) ${ratio >= target ? 'OK' : 'BELOW TARGET'}\n`);
    return ratio >= target;
  } finally {
    for (const side of sides.splice(0)) await stop(side);
    await postgres?.stop();
  }
}

function stop(side: Side): Promise<void> {
  return new Promise((done) => {
    if (side.child.exitCode !== null) return done();
    side.child.once('exit', () => done());
    side.child.kill('SIGTERM');
    setTimeout(() => side.child.kill('SIGKILL'), 5000).unref();
  });
}

const dir = mkdtempSync(join(tmpdir(), 'lotwise-bench-'));
const sides: Side[] = [];
try {
  let allMet = true;
  for (const engine of engines) allMet = (await runEngine(engine, dir, sides)) && allMet;
  process.exitCode = allMet ? 0 : 1;
} finally {
  for (const side of sides) await stop(side);
  rmSync(dir, { recursive: true, force: true });
}
