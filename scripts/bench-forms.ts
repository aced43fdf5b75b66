import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { freePort } from './services/free-port';
import { median } from './bench/stats';
import { startPostgres } from './services/postgres';

/**
 * `npm run bench:forms`: `POST /api/contact-submission` on the real server against its floor, a bare
 * Fastify route doing the same durable work (scripts/bench/bare-forms-server.ts: one transaction
 * inserting the lead and the job row the route promises, on the same database through the same
 * driver; the target: at least 0.7x its throughput), once per database engine. On SQLite both run as
 * their own processes on their own files with the same pragmas; on PostgreSQL (a throwaway server
 * with production settings: fsync and synchronous commit on) both write into one database the app's
 * migrations made. Each round runs every side once, the order turning from round to round, so drift
 * on a shared machine hits all; the medians of the rounds are compared. BENCH_ENGINES picks the
 * engines (default "sqlite,postgres"); BENCH_VARIANTS="name:ENV=value;ENV=value,..." adds app processes
 * started with more environment (CWD=DIR: the app of another checkout, say main's, for a before and
 * after), measured in the same rounds. BENCH_SERVER_FLAGS adds node flags to the app's processes (a CPU profile).
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const target = 0.7;
/** BENCH_SERVER_FLAGS: extra node flags for the app's processes, not the floor's (e.g. "--cpu-prof --cpu-prof-dir=DIR"). */
const serverNodeFlags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];
type Engine = 'sqlite' | 'postgres';
const variants: [string, Record<string, string>][] = (process.env.BENCH_VARIANTS ?? '')
  .split(',')
  .filter(Boolean)
  .map((variant) => {
    const [name, ...settings] = variant.split(':');
    return [name!, Object.fromEntries(settings.join(':').split(';').map((setting) => setting.split('=') as [string, string]))];
  });

/** How many job rows the app wrote for how many leads (on PostgreSQL the floor's share is told apart by its kind of row). */
async function jobsPerLead(databaseUrl: string | undefined, path: string): Promise<{ leads: number; jobs: number } | undefined> {
  if (databaseUrl) return undefined;
  const { default: SQLite } = await import('better-sqlite3');
  const sqlite = new SQLite(path, { readonly: true });
  try {
    const count = (table: string) => (sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    return { leads: count('contact_submissions'), jobs: count('jobs') };
  } finally {
    sqlite.close();
  }
}

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
  /** The process's CPU time (user + system) per answered request in each round, in µs. */
  cpuPerRequest: number[];
}

/** A process's CPU time so far (user + system), in µs, from /proc (Linux's clock ticks of 10 ms). */
function cpuMicros(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function start(label: string, script: string, path: string, env: Record<string, string>): Promise<Side> {
  const port = await freePort();
  // A variant's CWD: the app of another checkout (another commit), measured in the same rounds.
  const { CWD: cwd, ...rest } = env;
  const child = spawn(process.execPath, [...(label === 'floor' ? [] : serverNodeFlags), '--import', 'tsx', script], {
    ...(cwd ? { cwd } : {}),
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...rest },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}${path}`;
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        if (response.status === 201) break;
        // A busy machine: the app's pressure guard may answer 503 while it starts.
        const error = new Error(`${label} answered ${response.status}: ${await response.text()}`);
        if (response.status !== 503) throw Object.assign(error, { final: true });
        throw error;
      } catch (error) {
        if (attempt > 300 || (error as { final?: boolean }).final) throw error;
        await sleep(100);
      }
    }
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { label, url, child, throughput: [], p99: [], cpuPerRequest: [] };
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
    const appEnv = (name: string): Record<string, string> => ({
      DATA_DIR: join(dir, name),
      ...database(name),
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      // Thousands of strangers an hour: the mail policy's site-wide cap would withhold their
      // confirmations past 2,000, and the bench measures every lead confirmed.
      MAIL_UNVERIFIED_PER_HOUR: '0',
      ADMIN_EMAIL: 'bench@lotwise.example',
      ADMIN_PASSWORD: 'bench-password-123',
    });
    const api = await start('api', 'api/server.ts', '/api/contact-submission', appEnv('api'));
    sides.push(api);
    const apps = [api];
    for (const [name, extra] of variants) {
      const variant = await start(name, 'api/server.ts', '/api/contact-submission', { ...appEnv(name), ...extra });
      sides.push(variant);
      apps.push(variant);
    }
    // On PostgreSQL the bare route writes into the tables the app's migrations made.
    const bare = await start('floor', 'scripts/bench/bare-forms-server.ts', '/bare/contact-submission', database('bare'));
    sides.push(bare);
    const measured = [...apps, bare];

    console.log(`bench:forms on ${engine}: ${rounds} rounds of ${seconds} s per side, ${connections} connections, interleaved`);
    // Warm each up until the JIT has settled, so round 1 measures the same code as round 5.
    for (const side of measured) await load(side, warmupSeconds);
    for (let round = 1; round <= rounds; round += 1) {
      // The order turns each round: each side goes first, and last, as often as the others.
      const order = measured.map((_, index) => measured[(index + round - 1) % measured.length]!);
      if (round % 2 === 0) order.reverse();
      for (const side of order) {
        const cpuBefore = cpuMicros(side.child);
        const result = await load(side, seconds);
        side.cpuPerRequest.push((cpuMicros(side.child) - cpuBefore) / Math.max(1, result.requests.total));
        side.throughput.push(result.requests.average);
        side.p99.push(result.latency.p99);
      }
      console.log(`  round ${round}: ${measured.map((side) => `${side.label} ${side.throughput.at(-1)!.toFixed(0)} req/s p99 ${side.p99.at(-1)} ms`).join(' | ')}`);
    }

    let met = true;
    for (const side of apps) {
      const ratio = median(side.throughput) / median(bare.throughput);
      // Each round's pair ran seconds apart, so its ratio is the least disturbed by load elsewhere.
      const roundRatios = side.throughput.map((value, index) => value / bare.throughput[index]!);
      console.log(`  ${side.label} per-round ratios to the floor: ${roundRatios.map((value) => value.toFixed(2)).join(' ')} (median ${median(roundRatios).toFixed(2)})`);
      console.log(`  ${side.label} POST /api/contact-submission: median ${median(side.throughput).toFixed(0)} req/s, p99 ${median(side.p99)} ms, server CPU ${median(side.cpuPerRequest).toFixed(0)} µs per request`);
      console.log(`  ${engine} ${side.label}: throughput ratio to the floor ${ratio.toFixed(2)} (target >= ${target}) ${ratio >= target ? 'OK' : 'BELOW TARGET'}`);
      if (side === api) met = ratio >= target;
    }
    console.log(`  floor (lead + its job, one transaction): median ${median(bare.throughput).toFixed(0)} req/s, p99 ${median(bare.p99)} ms, server CPU ${median(bare.cpuPerRequest).toFixed(0)} µs per request`);
    const jobs = await jobsPerLead(databaseUrl, join(dir, 'api', 'app.db'));
    if (jobs) console.log(`  api: ${jobs.jobs} job rows for ${jobs.leads} leads\n`);
    return met;
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
