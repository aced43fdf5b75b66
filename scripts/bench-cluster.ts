/**
 * `npm run bench:cluster`: the chat load of DESIGN section 8 (N visitor sockets each sending one
 * message every 5 s, 400 msg/s at N=2,000, one staff socket receiving them all) through nginx, on
 * three set-ups in one run:
 *   - `sqlite`: one node on an SQLite file (the embedded default);
 *   - `pg`: one node on PostgreSQL;
 *   - `pg+redis x2`: two nodes on one PostgreSQL and one Redis, visitors spread over both by nginx,
 *     the staff socket on one of them (so about half the messages cross nodes through Redis).
 * Each is a set of real processes (`node api/server.ts`, nginx rendered from deploy/nginx.conf,
 * PostgreSQL and Redis from Debian's packages), started here on loopback and stopped after.
 * Reports visitor→staff delivery p50/p99, messages lost (sent, never delivered), and the CPU time
 * per delivered message of every process involved (from /proc: app nodes, nginx, PostgreSQL, Redis).
 *
 * Env: BENCH_VISITORS (default 2000), BENCH_SECONDS (measured seconds per set-up, 20), BENCH_ROUNDS (2:
 * each round runs the set-ups in a rotated order; the summary gives medians), BENCH_SETUPS (a comma list
 * of sqlite, pg, pg-redis-2; also pg-redis-1: one node on PostgreSQL + Redis, which tells the cost of the
 * Redis adapter apart from that of a second process on the same cores).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { apiPaths } from '../api/contract/paths';
import { type AppProcess, startAppProcess } from './services/app-process';
import { startNginx } from './services/nginx';
import { startPostgres } from './services/postgres';
import { startRedis } from './services/redis';
import { type CpuGroups, cpuOf, processTree } from './bench/cpu';
import { connectMany, connectSocket } from './bench/sockets';
import { median, percentile } from './bench/stats';

type SetupName = 'sqlite' | 'pg' | 'pg-redis-1' | 'pg-redis-2';
const visitors = Number(process.env.BENCH_VISITORS ?? 2000);
const measureSeconds = Number(process.env.BENCH_SECONDS ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const setupNames = (process.env.BENCH_SETUPS ?? 'sqlite,pg,pg-redis-2').split(',') as SetupName[];
const sendEveryMs = 5000;
const perSecond = visitors / (sendEveryMs / 1000);
const staffEmail = 'bench-admin@lotwise.example';
const staffPassword = 'bench-cluster-password-7d1f';
const sessionSecret = 'bench-cluster-session-secret-long-enough-0123456789';

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Signs the bench's staff account in through `baseUrl`; answers the Cookie header. */
async function staffCookie(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}${apiPaths.staffLogin}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ username: staffEmail, password: staffPassword }),
  });
  if (!response.ok) throw new Error(`staff sign-in answered ${response.status}: ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

interface Setup {
  name: SetupName;
  url: string;
  /** Each node's `loop-stall` lines so far, by node. */
  stalls(): number[][];
  cpuGroups: CpuGroups;
  stop(): Promise<void>;
}

/** Shared services for the whole run: one PostgreSQL (durable settings, as in production) and one Redis. */
interface Services {
  postgres: Awaited<ReturnType<typeof startPostgres>>;
  redis: Awaited<ReturnType<typeof startRedis>>;
}

async function startSetup(name: SetupName, services: Services, round: number): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-bench-cluster-'));
  const common: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dir,
    SESSION_SECRET: sessionSecret,
    ADMIN_EMAIL: staffEmail,
    ADMIN_PASSWORD: staffPassword,
    // nginx on loopback is the balancer; every client of the bench is on loopback too.
    TRUST_PROXY: '127.0.0.1',
    RATE_LIMIT_ALLOWLIST: '127.0.0.1',
  };
  // Each node reports its longest event-loop stall every second (scripts/bench/loop-delay.ts).
  const probe = ['--import', resolve('scripts/bench/loop-delay.ts')];
  const nodes: AppProcess[] = [];
  try {
    if (name === 'sqlite') {
      nodes.push(await startAppProcess({ ...common, DATABASE_PATH: join(dir, 'app.db') }, probe));
    } else if (name === 'pg') {
      nodes.push(await startAppProcess({ ...common, DATABASE_URL: await services.postgres.createDatabase() }, probe));
    } else {
      const shared = {
        ...common,
        DATABASE_URL: await services.postgres.createDatabase(),
        REDIS_URL: services.redis.url,
        REDIS_KEY_PREFIX: `bench${round}:`,
      };
      // Started together, as a deployer's nodes would be: migrations and the staff account must cope.
      const count = name === 'pg-redis-2' ? 2 : 1;
      nodes.push(...(await Promise.all(Array.from({ length: count }, () => startAppProcess(shared, probe)))));
    }
    const nginx = await startNginx({ upstreamPorts: nodes.map((node) => node.port) });
    const cpuGroups: CpuGroups = {
      ...Object.fromEntries(nodes.map((node, index) => [`node ${index + 1}`, () => [node.pid]])),
      nginx: () => processTree(nginx.pid),
      // The load generator shares the cores: what it takes is shown too.
      'bench clients': () => [process.pid],
    };
    if (name !== 'sqlite') cpuGroups.postgres = () => processTree(services.postgres.pid);
    if (name.startsWith('pg-redis')) cpuGroups.redis = () => [services.redis.pid];
    return {
      name,
      url: nginx.url,
      stalls: () => nodes.map((node) => [...node.output().matchAll(/^loop-stall ([\d.]+)$/gm)].map((match) => Number(match[1]))),
      cpuGroups,
      async stop() {
        await nginx.stop();
        await Promise.all(nodes.map((node) => node.stop()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.all(nodes.map((node) => node.stop()));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

interface Result {
  name: SetupName;
  p50: number;
  p99: number;
  /** The visitor's ack: stored (and pushed), as the sender sees it. */
  ackP99: number;
  /** Per node, its longest event-loop stall of each measured second: their median, and the worst. */
  loopStallMs: { median: number; max: number }[];
  sent: number;
  delivered: number;
  lost: number;
  errors: number;
  cpuMicrosPerMessage: Record<string, number>;
}

async function measure(setup: Setup, round: number): Promise<Result> {
  const staff = await connectSocket(`${setup.url}/admin`, await staffCookie(setup.url));
  const sockets = await connectMany(setup.url, visitors);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const ackLatencies: number[] = [];
  let measuring = false;
  let sent = 0;
  let delivered = 0;
  let errors = 0;
  let received = 0;
  let answered = 0;
  staff.on('chat:message', (message: { clientId: string | null }) => {
    received += 1;
    const started = message.clientId ? sentAt.get(message.clientId) : undefined;
    if (started === undefined) return;
    sentAt.delete(message.clientId!);
    if (started < 0) return; // sent during the warm-up
    latencies.push(performance.now() - started);
    delivered += 1;
  });

  let sequence = 0;
  const load = (ms: number) =>
    new Promise<void>((done) => {
      const started = performance.now();
      let sentNow = 0;
      const total = Math.floor((ms / 1000) * perSecond);
      // Every 5 ms, the messages due by then: two at a time at 400 msg/s.
      const tick = setInterval(() => {
        const due = Math.min(Math.floor(((performance.now() - started) / 1000) * perSecond), total);
        for (; sentNow < due; sentNow += 1) {
          const index = sequence % visitors;
          const clientId = `r${round}v${index}m${Math.floor(sequence / visitors)}`;
          sequence += 1;
          // A warm-up message is marked with a negative start, so it is matched but not counted.
          sentAt.set(clientId, measuring ? performance.now() : -1);
          if (measuring) sent += 1;
          const emittedAt = measuring ? performance.now() : -1;
          sockets[index]!.emit(
            'chat:send',
            { sessionId: `session_cluster_${setup.name.replace(/\W/g, '_')}_${round}_${index}`, message: `Cluster benchmark message ${sequence}`, clientId },
            (answer: { ok: boolean }) => {
              answered += 1;
              if (!answer.ok) errors += 1;
              if (emittedAt >= 0) ackLatencies.push(performance.now() - emittedAt);
            },
          );
        }
        if (sentNow >= total) {
          clearInterval(tick);
          done();
        }
      }, 5);
    });

  try {
    // One whole send cycle, unmeasured: every visitor has its chat session before the measured load.
    await load(sendEveryMs);
    // That cycle starts every session at once (far more new chats a second than a site sees): the
    // measured load starts once all of them are answered, after a quiet second.
    const warmUpDeadline = Date.now() + 60_000;
    while (answered < sequence && Date.now() < warmUpDeadline) await pause(50);
    await pause(1000);
    const cpuBefore = cpuOf(setup.cpuGroups);
    const stallsBefore = setup.stalls().map((seconds) => seconds.length);
    const receivedBefore = received;
    measuring = true;
    await load(measureSeconds * 1000);
    measuring = false;
    // The seconds each node reported while the load was measured: the longest stall of each, median over them.
    const stalls = setup.stalls().map((seconds, node) => seconds.slice(stallsBefore[node]));
    const loopStallMs = stalls.map((seconds) => ({ median: median(seconds), max: Math.max(...seconds) }));
    // Whatever has not arrived 3 s after the load ended counts as lost.
    await pause(3000);
    const cpuAfter = cpuOf(setup.cpuGroups);
    const messages = Math.max(1, received - receivedBefore);
    const cpuMicrosPerMessage = Object.fromEntries(Object.keys(cpuAfter).map((group) => [group, (cpuAfter[group]! - cpuBefore[group]!) / messages]));
    const sorted = latencies.sort((a, b) => a - b);
    return { name: setup.name, p50: percentile(sorted, 50), p99: percentile(sorted, 99), ackP99: percentile(ackLatencies.sort((a, b) => a - b), 99), loopStallMs, sent, delivered, lost: sent - delivered, errors, cpuMicrosPerMessage };
  } finally {
    for (const socket of sockets) socket.disconnect();
    staff.disconnect();
  }
}

const fixed = (value: number, digits = 2) => value.toFixed(digits);
const describeCpu = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .map(([group, micros]) => `${group} ${fixed(micros, 0)}`)
    .join(', ');

async function main(): Promise<void> {
  console.log(
    `bench:cluster: ${visitors} visitor sockets, ${perSecond} msg/s through nginx, ${measureSeconds} s measured per set-up, ${rounds} rounds; set-ups: ${setupNames.join(', ')}`,
  );
  const services: Services = { postgres: await startPostgres({ durable: true }), redis: await startRedis() };
  const results = new Map<SetupName, Result[]>(setupNames.map((name) => [name, []]));
  try {
    for (let round = 1; round <= rounds; round += 1) {
      // Rotate the order, so no set-up always runs first (or last) on a warming machine.
      const order = setupNames.map((_, index) => setupNames[(index + round - 1) % setupNames.length]!);
      for (const name of order) {
        const setup = await startSetup(name, services, round);
        try {
          const result = await measure(setup, round);
          results.get(name)!.push(result);
          console.log(
            `  round ${round} ${name.padEnd(10)}: p50 ${fixed(result.p50)} ms, p99 ${fixed(result.p99)} ms (visitor's ack p99 ${fixed(result.ackP99)} ms), ` +
              `event-loop stall per second ${result.loopStallMs.map((stall) => `${fixed(stall.median, 0)} ms (worst ${fixed(stall.max, 0)})`).join(' / ')}, ` +
              `${result.delivered}/${result.sent} delivered, ${result.lost} lost, ${result.errors} refused; ` +
              `CPU µs per message: ${describeCpu(result.cpuMicrosPerMessage)}`,
          );
        } finally {
          await setup.stop();
        }
      }
    }
  } finally {
    await services.redis.stop();
    await services.postgres.stop();
  }
  console.log('\nsummary (medians of the rounds):');
  for (const [name, runs] of results) {
    const cpuGroups = Object.keys(runs[0]?.cpuMicrosPerMessage ?? {});
    const cpu = Object.fromEntries(cpuGroups.map((group) => [group, median(runs.map((run) => run.cpuMicrosPerMessage[group] ?? 0))]));
    const lost = runs.reduce((sum, run) => sum + run.lost, 0);
    const sent = runs.reduce((sum, run) => sum + run.sent, 0);
    const target = name === 'pg-redis-2' ? ' (target: every message delivered, p99 < 25 ms)' : '';
    console.log(
      `  ${name.padEnd(10)}: p50 ${fixed(median(runs.map((run) => run.p50)))} ms, p99 ${fixed(median(runs.map((run) => run.p99)))} ms (ack p99 ${fixed(median(runs.map((run) => run.ackP99)))} ms), ` +
        `${lost} of ${sent} lost${target}; CPU µs per message: ${describeCpu(cpu)}`,
    );
  }
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
