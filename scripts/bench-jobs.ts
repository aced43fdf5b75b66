/**
 * `npm run bench:jobs`: lead notices as jobs, end to end. Form posts (`POST /api/contact-submission`,
 * each lead with its own name) go to the app with NOTIFY_EMAIL set and the digest off; every node's
 * job runner mails the notices through nodemailer to an SMTP sink on loopback (scripts/bench/
 * smtp-sink.ts, its own process), which notes when each arrives. Two set-ups in one run:
 *   - `sqlite`: one node on an SQLite file;
 *   - `pg-2`: two nodes on one PostgreSQL (production settings: fsync on) and one Redis, the
 *     client's connections spread over both nodes.
 * Each set-up posts `--count` forms three times: to a bare Fastify route doing the same insert
 * (scripts/bench/bare-forms-server.ts, one per node), to the app without NOTIFY_EMAIL (no job
 * promised), and to the app with notices on. For the last it reports the form throughput while the
 * runners drain, the drain rate (mails a second at the sink, first mail to last), the time from each
 * post's `201` to its mail's arrival (p50/p99), and whether every lead got exactly one mail: the run
 * fails when one is missing or mailed twice. CPU time per lead of every process (from /proc) tells
 * where the time goes.
 *
 * Options: --count N (default 10000), --setups sqlite,pg-2, --connections C (form posts in flight,
 * default 10), --connection-per-mail (SMTP URL with `pool=false`: the mailer opens a connection per
 * mail instead of keeping a few open; smtp-server holds each new one 100 ms before its greeting),
 * --drain-timeout S (default 180: notices not at the sink by then count as missing).
 * JOBS_CONCURRENCY and JOBS_POLL_MS in the environment are passed on to the nodes; BENCH_NODE_ARGS
 * go to each node's `node` (`--cpu-prof --cpu-prof-dir=/tmp/prof` to see where a node's time goes).
 * On PostgreSQL it also counts the transactions per lead, reads included (pg_stat_database).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { leadPaths } from '../api/contract/paths';
import { freePort } from './services/free-port';
import { type CpuGroups, cpuOf, processTree } from './bench/cpu';
import type { Arrival } from './bench/smtp-sink';
import { percentile } from './bench/stats';
import { type AppProcess, startAppProcess } from './services/app-process';
import { type PostgresServer, startPostgres } from './services/postgres';
import { type RedisServer, startRedis } from './services/redis';
import { formBody, leadOf, post, postForms, type Sink, startSink } from './bench/job-load';

type SetupName = 'sqlite' | 'pg-2';
const { values: options } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    setups: { type: 'string', default: 'sqlite,pg-2' },
    connections: { type: 'string', default: '10' },
    'connection-per-mail': { type: 'boolean', default: false },
    'drain-timeout': { type: 'string', default: '180' },
  },
});
const count = Number(options.count);
const connections = Number(options.connections);
const drainTimeoutMs = Number(options['drain-timeout']) * 1000;
const setupNames = options.setups.split(',') as SetupName[];
const warmupCount = Math.min(500, count);
const notifyEmail = 'staff@lotwise.example';
const sessionSecret = 'bench-jobs-session-secret-long-enough-0123456789';
const passedOn = Object.fromEntries(
  ['JOBS_CONCURRENCY', 'JOBS_POLL_MS'].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
);

const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
const now = () => performance.timeOrigin + performance.now();
const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

// ---------- the processes of a set-up ----------

interface Services {
  postgres?: PostgresServer;
  redis?: RedisServer;
  sink: Sink;
}

/** The nodes of `setup`, on a fresh database: with notices (NOTIFY_EMAIL, SMTP to the sink) or without. */
async function startNodes(setup: SetupName, services: Services, dir: string, notices: boolean, round: string): Promise<{ nodes: AppProcess[]; databaseUrl?: string }> {
  const common: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dir,
    SESSION_SECRET: sessionSecret,
    RATE_LIMIT_ALLOWLIST: '127.0.0.1',
    NOTIFY_DIGEST_PER_MINUTE: '0',
    // Every submitter is a stranger: no site-wide cap, so each lead is confirmed, as the bench counts.
    MAIL_UNVERIFIED_PER_HOUR: '0',
    ...passedOn,
    ...(notices
      ? {
          NOTIFY_EMAIL: notifyEmail,
          SMTP_URL: `smtp://127.0.0.1:${services.sink.port}/?ignoreTLS=true${options['connection-per-mail'] ? '&pool=false' : ''}`,
        }
      : {}),
  };
  if (setup === 'sqlite') return { nodes: [await startAppProcess({ ...common, DATABASE_PATH: join(dir, 'app.db') }, nodeArgs)] };
  const databaseUrl = await services.postgres!.createDatabase();
  const shared = { ...common, DATABASE_URL: databaseUrl, REDIS_URL: services.redis!.url, REDIS_KEY_PREFIX: `benchjobs${round}:` };
  // Started together, as a deployer's nodes are: migrations must cope.
  return { nodes: await Promise.all([startAppProcess(shared, nodeArgs), startAppProcess(shared, nodeArgs)]), databaseUrl };
}

/** bench:forms's bare insert route, on `env`'s database; ready once a post is answered `201`. */
async function startBare(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/bare-forms-server.ts'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'production', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/bare/contact-submission`;
  const agent = new Agent();
  for (let attempt = 0; ; attempt += 1) {
    const status = await post(agent, new URL(url), formBody('ready', 0)).catch(() => 0);
    if (status === 201) break;
    if (child.exitCode !== null || attempt > 300) throw new Error(`bare insert server did not start (last answer ${status})`);
    await sleep(100);
  }
  agent.destroy();
  return { url, child };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

// ---------- phases ----------

/**
 * Transactions committed in the database of `url` so far (undefined on SQLite). A backend reports its
 * counts up to 10 s late while busy, and at once when it exits: read after the nodes stopped.
 */
async function commitsOf(url: string | undefined): Promise<number | undefined> {
  if (!url) return undefined;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ commits: string }>('select xact_commit as commits from pg_stat_database where datname = $1', [new URL(url).pathname.slice(1)]);
    return Number(result.rows[0]!.commits);
  } finally {
    await client.end();
  }
}

/** The commits per lead of the nodes' run since `before`: stops them first, so their counts are in. */
async function commitsPerLead(nodes: AppProcess[], url: string | undefined, before: number | undefined): Promise<number | undefined> {
  await Promise.all(nodes.map((node) => node.stop()));
  if (before === undefined) return undefined;
  await sleep(500);
  return ((await commitsOf(url))! - before) / (warmupCount + count);
}

interface Row {
  setup: string;
  phase: string;
  formsPerSecond: number;
  postP50: number;
  postP99: number;
  failures: number;
  mailsPerSecond?: number;
  noticeP50?: number;
  noticeP99?: number;
  /** Seconds from the last `201` to the last mail. */
  tailSeconds?: number;
  mailed?: number;
  missing?: number;
  duplicates?: number;
  /** CPU µs per lead, by process group. */
  cpu: Record<string, number>;
  /** PostgreSQL transactions (reads too) committed per lead, warm-up included. */
  commitsPerLead?: number;
}

function cpuPerLead(groups: CpuGroups, before: Record<string, number>): Record<string, number> {
  const after = cpuOf(groups);
  return Object.fromEntries(Object.keys(after).map((group) => [group, (after[group]! - before[group]!) / count]));
}

function cpuGroupsOf(services: Services, nodes: { pid: number }[], label = 'node'): CpuGroups {
  const groups: CpuGroups = Object.fromEntries(nodes.map((node, index) => [`${label} ${index + 1}`, () => [node.pid]]));
  if (services.postgres) groups.postgres = () => processTree(services.postgres!.pid);
  if (services.redis) groups.redis = () => [services.redis!.pid];
  groups.sink = () => [services.sink.pid];
  groups.bench = () => [process.pid];
  return groups;
}

/** Posts `count` forms after a warm-up; answers the form side of a row. */
async function formsOnly(setup: string, phase: string, urls: string[], tag: string, groups: CpuGroups): Promise<Row> {
  await postForms(urls, `w${tag}`, warmupCount, connections);
  const before = cpuOf(groups);
  const posts = await postForms(urls, tag, count, connections);
  return {
    setup,
    phase,
    formsPerSecond: (count - posts.failures) / posts.seconds,
    postP50: percentile(posts.latencies, 50),
    postP99: percentile(posts.latencies, 99),
    failures: posts.failures,
    cpu: cpuPerLead(groups, before),
  };
}

/** Waits until `expected` of the sink's mails are about leads tagged `tag`, or the drain timeout. */
async function waitForMails(sink: Sink, tag: string, expected: number, deadline: number): Promise<void> {
  const countTagged = () => sink.arrivals.reduce((sum, arrival) => sum + (leadOf(arrival.subject)?.[1] === tag ? 1 : 0), 0);
  while (countTagged() < expected && now() < deadline) await sleep(100);
}

async function withNotices(setup: string, urls: string[], tag: string, services: Services, groups: CpuGroups): Promise<Row> {
  const { sink } = services;
  // The warm-up's notices too go through the sink, and are all in before the measure starts.
  await postForms(urls, `w${tag}`, warmupCount, connections);
  await waitForMails(sink, `w${tag}`, warmupCount, now() + drainTimeoutMs);
  const before = cpuOf(groups);
  const firstArrival = sink.arrivals.length;
  const posts = await postForms(urls, tag, count, connections);
  const postsDone = now();
  await waitForMails(sink, tag, count - posts.failures, postsDone + drainTimeoutMs);
  const cpu = cpuPerLead(groups, before);
  // A second mail of one lead would come soon after the first: give it a moment to show.
  await sleep(1000);

  const mailsOf = new Map<number, Arrival[]>();
  for (const arrival of sink.arrivals.slice(firstArrival)) {
    const lead = leadOf(arrival.subject);
    if (lead?.[1] !== tag) continue;
    const index = Number(lead[2]);
    mailsOf.set(index, [...(mailsOf.get(index) ?? []), arrival]);
  }
  const delays: number[] = [];
  let missing = 0;
  let duplicates = 0;
  let first = Infinity;
  let last = -Infinity;
  for (let index = 0; index < count; index += 1) {
    const answeredAt = posts.answeredAt[index];
    if (answeredAt === undefined) continue; // the post failed: no lead, no mail owed
    const mails = mailsOf.get(index) ?? [];
    if (mails.length === 0) {
      missing += 1;
      continue;
    }
    duplicates += mails.length - 1;
    const arrivedAt = mails[0]!.at;
    delays.push(arrivedAt - answeredAt);
    first = Math.min(first, arrivedAt);
    last = Math.max(last, arrivedAt);
  }
  delays.sort((a, b) => a - b);
  return {
    setup,
    phase: 'app, notices on',
    formsPerSecond: (count - posts.failures) / posts.seconds,
    postP50: percentile(posts.latencies, 50),
    postP99: percentile(posts.latencies, 99),
    failures: posts.failures,
    mailsPerSecond: delays.length > 1 ? (delays.length - 1) / ((last - first) / 1000) : Number.NaN,
    noticeP50: percentile(delays, 50),
    noticeP99: percentile(delays, 99),
    tailSeconds: (last - postsDone) / 1000,
    mailed: delays.length,
    missing,
    duplicates,
    cpu,
  };
}

async function runSetup(setup: SetupName, services: Services): Promise<Row[]> {
  const label = setup === 'sqlite' ? 'sqlite x1' : 'pg x2';
  const tag = setup.replace(/\W/g, '');
  const rows: Row[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-bench-jobs-'));
  const run = async <T>(work: (nodes: AppProcess[], databaseUrl?: string) => Promise<T>, notices: boolean, round: string) => {
    const folder = join(dir, round);
    const { nodes, databaseUrl } = await startNodes(setup, services, folder, notices, round);
    try {
      return await work(nodes, databaseUrl);
    } finally {
      await Promise.all(nodes.map((node) => node.stop()));
    }
  };
  const path = leadPaths.contact.create;
  try {
    // The bare insert: one bare route per node, on the app's schema (on PostgreSQL the app made it).
    await run(async (nodes, databaseUrl) => {
      const before = await commitsOf(databaseUrl);
      const row = await formsOnly(label, 'app, no notices', nodes.map((node) => `${node.url}${path}`), `${tag}off`, cpuGroupsOf(services, nodes));
      rows.push({ ...row, commitsPerLead: await commitsPerLead(nodes, databaseUrl, before) });
      const bares = await Promise.all(
        nodes.map((_, index) => startBare(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_PATH: join(dir, `bare${index}.db`) })),
      );
      try {
        const groups = cpuGroupsOf(services, bares.map((bare) => ({ pid: bare.child.pid! })), 'bare');
        rows.unshift(await formsOnly(label, 'bare insert', bares.map((bare) => bare.url), `${tag}bare`, groups));
      } finally {
        await Promise.all(bares.map((bare) => stopChild(bare.child)));
      }
    }, false, 'off');
    await run(async (nodes, databaseUrl) => {
      const before = await commitsOf(databaseUrl);
      const row = await withNotices(label, nodes.map((node) => `${node.url}${path}`), `${tag}on`, services, cpuGroupsOf(services, nodes));
      rows.push({ ...row, commitsPerLead: await commitsPerLead(nodes, databaseUrl, before) });
    }, true, 'on');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

// ---------- report ----------

function printTable(rows: Row[]): void {
  const header = ['set-up', 'phase', 'forms/s', 'post p50/p99 ms', 'mails/s', '201→mail p50/p99 ms', 'tail s', 'mailed', 'missing', 'twice', 'PG xacts/lead', 'CPU ms per lead by process'];
  const lines = rows.map((row) => [
    row.setup,
    row.phase,
    fixed(row.formsPerSecond),
    `${fixed(row.postP50, 1)}/${fixed(row.postP99, 1)}`,
    row.mailsPerSecond === undefined ? '' : fixed(row.mailsPerSecond),
    row.noticeP50 === undefined ? '' : `${fixed(row.noticeP50)}/${fixed(row.noticeP99!)}`,
    row.tailSeconds === undefined ? '' : fixed(row.tailSeconds, 1),
    row.mailed === undefined ? '' : String(row.mailed),
    row.missing === undefined ? '' : String(row.missing),
    row.duplicates === undefined ? '' : String(row.duplicates),
    row.commitsPerLead === undefined ? '' : fixed(row.commitsPerLead, 2),
    Object.entries(row.cpu)
      .map(([group, micros]) => `${group} ${fixed(micros / 1000, 2)}`)
      .join(', '),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: string[]) => cells.map((cell, column) => (column < 2 || column === cells.length - 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(`\n${format(header)}`);
  for (const line of lines) console.log(format(line));
}

async function main(): Promise<number> {
  const jobs = Object.entries(passedOn).map(([name, value]) => `${name}=${value}`).join(' ') || 'job settings at their defaults';
  console.log(
    `bench:jobs: ${count} lead notices per set-up (${setupNames.join(', ')}), ${connections} posts in flight, ` +
      `SMTP ${options['connection-per-mail'] ? 'a connection per mail' : 'pooled'}, ${jobs}, digest off`,
  );
  const services: Services = { sink: await startSink() };
  const rows: Row[] = [];
  try {
    if (setupNames.includes('pg-2')) {
      services.postgres = await startPostgres({ durable: true });
      services.redis = await startRedis();
    }
    for (const setup of setupNames) {
      const started = Date.now();
      console.log(`  ${setup}: ...`);
      rows.push(...(await runSetup(setup, services)));
      console.log(`  ${setup}: done in ${fixed((Date.now() - started) / 1000)} s`);
    }
  } finally {
    await services.redis?.stop();
    await services.postgres?.stop();
    await services.sink.stop();
  }
  printTable(rows);

  const summary = setupNames.map((setup) => {
    const label = setup === 'sqlite' ? 'sqlite x1' : 'pg x2';
    const of = (phase: string) => rows.find((row) => row.setup === label && row.phase === phase)!;
    const on = of('app, notices on');
    return (
      `${label} drains ${fixed(on.mailsPerSecond!)} mails/s (201→mail p50 ${fixed(on.noticeP50! / 1000, 1)} s, p99 ${fixed(on.noticeP99! / 1000, 1)} s), ` +
      `forms while draining ${fixed(on.formsPerSecond)}/s = ${fixed(on.formsPerSecond / of('app, no notices').formsPerSecond, 2)}x no notices, ` +
      `${fixed(on.formsPerSecond / of('bare insert').formsPerSecond, 2)}x bare insert`
    );
  });
  const wrong = rows.reduce((sum, row) => sum + (row.missing ?? 0) + (row.duplicates ?? 0) + row.failures, 0);
  const onceEach = wrong === 0;
  console.log(`\nsummary: ${summary.join('; ')}; every lead mailed exactly once: ${onceEach ? 'yes' : `NO (${wrong} missing, twice or failed)`}`);
  return onceEach ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
