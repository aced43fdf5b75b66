/**
 * `npm run bench:chat`: N visitor sockets each send one message every 5 s while one
 * staff socket receives them all, measured twice a round: while the round's N new conversations are
 * in their first seconds (each visitor's first message sent just before), then once they are warm; visitor→staff latency of a stored, pushed message, messages/s and
 * server memory, beside a bare Socket.IO relay (no storage, no checks) measured in the same run:
 * both servers up at once, the load alternating between them second by second (runPair), median
 * of the rounds. Then 10,000 idle visitor sockets and the server's RSS.
 *
 * Env: BENCH_SIZES (default "2000"), BENCH_ROUNDS (5), BENCH_SECONDS (measured seconds per server, 15),
 * BENCH_IDLE (10000; 0 skips), BENCH_LIMITS (1: the full app counts the visitors' limits, as it does for
 * anyone off RATE_LIMIT_ALLOWLIST; the visitors connect from many loopback addresses, a few to each,
 * well within the per-address limits), BENCH_SERVER_FLAGS (extra node flags for the server, e.g. "--trace-gc" or
 * "--cpu-prof --cpu-prof-dir=DIR"), BENCH_ALLOC_PROFILE=FILE (where the full server's bytes are allocated, freed ones
 * included; BENCH_ALLOC_MINOR=0 keeps only what outlived a young collection), NOTIFY_EMAIL (passed to the full server),
 * BENCH_METRICS (on, the default, as in production; off: the full server runs without /metrics and its
 * measurements), BENCH_MODES (default "bare,full"; "unmetered,full" interleaves the full app without
 * metrics and with them, rounds and slices alike, to see what the metrics cost).
 */
import type { Socket } from 'socket.io-client';
import { type Mode, startServer } from './bench/chat-server-process';
import { connectMany, connectSocket } from './bench/sockets';
import { median, percentile } from './bench/stats';

const sizes = (process.env.BENCH_SIZES ?? '2000').split(',').map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const measureSeconds = Number(process.env.BENCH_SECONDS ?? 15);
const idleSockets = Number(process.env.BENCH_IDLE ?? 10_000);
const sendEveryMs = 5000;
/**
 * One whole send cycle, unmeasured: every visitor has sent once, so each has its chat session and the
 * measured slices see the steady chat the budget describes, not 2,000 conversations starting at once.
 */
const warmupMs = sendEveryMs;

/**
 * What a round measures, one after the other on the same sockets: `new`, the 2,000 conversations
 * of the round in their first seconds (each visitor's first message sent in the unmeasured warm-up
 * just before, their next ones measured); then `warm`, the same conversations once those first
 * seconds are behind them.
 */
const phases = ['new', 'warm'] as const;
type Phase = (typeof phases)[number];

const modes = (process.env.BENCH_MODES ?? 'bare,full').split(',') as Mode[];
const countLimits = process.env.BENCH_LIMITS === '1';
/** With BENCH_LIMITS, 4 visitors to an address: 48 messages a minute at most, of the 120 an address may send. */
const visitorAddress = (index: number) => {
  const address = Math.floor(index / 4);
  return `127.1.${Math.floor(address / 250)}.${(address % 250) + 1}`;
};

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));


const mb = (bytes: number) => bytes / 1024 / 1024;

interface RunResult {
  mode: Mode;
  visitors: number;
  p50: number;
  p99: number;
  messagesPerSecond: number;
  delivered: number;
  sent: number;
  errors: number;
  rssIdleMb: number;
  rssLoadMb: number;
  kbPerSocket: number;
  loopMaxMs: number;
  cpuMicrosPerMessage: number;
  /** SQL statements the server ran per message received by staff. */
  statementsPerMessage: number;
  /** Job rows the server held at the end of the round, by kind (the full app's). */
  jobs: Record<string, number>;
}

/** One server under test, its sockets and what its staff socket has received. */
interface Target {
  mode: Mode;
  server: Awaited<ReturnType<typeof startServer>>;
  staff: Socket;
  sockets: Socket[];
  sentAt: Map<string, number>;
  latencies: number[];
  sent: number;
  delivered: number;
  errors: number;
  /** Messages received by staff, measured or not (for CPU per message). */
  received: number;
  /** How many messages this server's visitors have sent: the next one comes from visitor `sequence % N`. */
  sequence: number;
  /** Time under load in the measured slices. */
  loadedMs: number;
  /** The server's CPU time, statements and staff's `received` when measuring began. */
  atStart: { cpuMicros: number; received: number; statements: number };
  rssIdle: number;
  kbPerSocket: number;
}

/** Set while latencies count: during the measured slices (and the settling after each), not the warm-up. */
let measuring = false;

async function prepare(mode: Mode, visitors: number): Promise<Target> {
  const server = await startServer(mode);
  const base = `http://127.0.0.1:${server.ready.port}`;
  const { rss: rssBefore } = await server.read();
  const staff = await connectSocket(`${base}/admin`, server.ready.staffCookie);
  const sockets = await connectMany(base, visitors, 200, countLimits ? visitorAddress : undefined);
  const target: Target = {
    mode,
    server,
    staff,
    sockets,
    sentAt: new Map(),
    latencies: [],
    sent: 0,
    delivered: 0,
    errors: 0,
    received: 0,
    sequence: 0,
    loadedMs: 0,
    atStart: { cpuMicros: 0, received: 0, statements: 0 },
    rssIdle: 0,
    kbPerSocket: 0,
  };
  staff.on('chat:message', (message: { clientId: string | null }) => {
    target.received += 1;
    const started = message.clientId ? target.sentAt.get(message.clientId) : undefined;
    if (started === undefined) return;
    target.sentAt.delete(message.clientId!);
    if (!measuring) return;
    target.latencies.push(performance.now() - started);
    target.delivered += 1;
  });
  await pause(500);
  target.rssIdle = (await server.read()).rss;
  target.kbPerSocket = (target.rssIdle - rssBefore) / 1024 / visitors;
  return target;
}

/**
 * Both servers run at once, each with its own N visitor sockets and staff socket, and the load
 * alternates between them in short slices: at any moment one server gets N/5 messages a second, in
 * turn from each of its visitors (so each visitor sends once per 5 s of its server's load), and
 * the other idles. A burst of load elsewhere on this shared machine then hits both alike, which
 * whole runs one after the other did not ensure: their p99 ratio swung from 0.5x to 3.9x.
 *
 * One disturbance is not shared fairly: the full app's WAL checkpointer (db/checkpointer.ts, every
 * second) copies the frames of the full app's slice while the relay has its turn, on the core the
 * load generator needs. At normal priority, holding checkpoints off for a minute lowered the relay's
 * p99 from about 1.8 to 1.0 ms and raised the ratio from ~1.5x to ~2.3x (2026-11-22); the
 * checkpointer now runs at the lowest priority, which left the quiet rounds' relay p99 near 1.0-1.5
 * ms. Quiet rounds are still the least flattering: read the per-round ratios, not only their median.
 */
async function runPair(visitors: number, round: number): Promise<Record<Phase, Record<Mode, RunResult>>> {
  const targets: Target[] = [];
  try {
    for (const mode of modes) targets.push(await prepare(mode, visitors));
    const perSecond = visitors / (sendEveryMs / 1000);

    const sendFrom = (target: Target, index: number, count: number) => {
      const clientId = `v${index}m${count}`;
      target.sentAt.set(clientId, performance.now());
      if (measuring) target.sent += 1;
      const sessionId = `session_bench_${round}_${index}_${target.mode}`;
      // A conversation's first message carries what the widget sends with it: the page, the referrer, the time zone and the pages of the visit.
      const where =
        count === 1
          ? {
              pageUrl: 'https://lotwise.example/pricing',
              referrer: 'https://search.example/',
              timeZone: 'America/Chicago',
              pages: [
                { url: 'https://lotwise.example/', at: new Date(Date.now() - 60_000).toISOString() },
                { url: 'https://lotwise.example/pricing', at: new Date().toISOString() },
              ],
            }
          : {};
      const payload = { sessionId, message: `Benchmark message ${count} from visitor ${index}`, clientId, ...where };
      target.sockets[index]!.emit('chat:send', payload, (answer: { ok: boolean }) => {
        if (!answer.ok) target.errors += 1;
      });
    };

    /** Loads `target` for `ms`: N/5 messages a second, spread evenly, visitors in turn. */
    const load = async (target: Target, ms: number) => {
      const started = performance.now();
      let sentInSlice = 0;
      await new Promise<void>((done) => {
        const tick = setInterval(() => {
          const elapsed = performance.now() - started;
          const due = Math.min(Math.floor((elapsed / 1000) * perSecond), Math.floor((ms / 1000) * perSecond));
          for (; sentInSlice < due; sentInSlice += 1) {
            const sequence = target.sequence++;
            sendFrom(target, sequence % visitors, Math.floor(sequence / visitors) + 1);
          }
          if (elapsed >= ms) {
            clearInterval(tick);
            done();
          }
        }, 1);
      });
    };
    // Lets the last messages of a slice arrive before the other server's slice starts.
    const settle = () => pause(50);

    // Warm-up: every server under load for one send cycle, unmeasured.
    for (const target of targets) {
      await load(target, warmupMs);
      await settle();
    }
    const sliceMs = 1000;
    const slices = Math.max(1, Math.round(measureSeconds * 1000 / sliceMs));
    const results = {} as Record<Phase, Record<Mode, RunResult>>;
    for (const phase of phases) {
      for (const target of targets) {
        const reading = await target.server.read();
        target.atStart = { cpuMicros: reading.cpuMicros, received: target.received, statements: reading.statements };
        target.latencies = [];
        target.sent = 0;
        target.delivered = 0;
        target.errors = 0;
        target.loadedMs = 0;
      }
      for (let slice = 0; slice < slices; slice += 1) {
        // Alternate which goes first, so neither always follows the other.
        const order = slice % 2 ? [...targets].reverse() : targets;
        for (const target of order) {
          measuring = true;
          const started = performance.now();
          await load(target, sliceMs);
          target.loadedMs += performance.now() - started;
          await settle();
          measuring = false;
        }
      }
      results[phase] = {} as Record<Mode, RunResult>;
      for (const target of targets) {
        // Measuring stopped before the memory reading, whose forced garbage collection stalls the server.
        const end = await target.server.read();
        const start = target.atStart;
        const messages = Math.max(1, target.received - start.received);
        const sorted = target.latencies.sort((a, b) => a - b);
        results[phase][target.mode] = {
          mode: target.mode,
          visitors,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          messagesPerSecond: target.delivered / ((target.loadedMs || 1) / 1000),
          delivered: target.delivered,
          sent: target.sent,
          errors: target.errors,
          rssIdleMb: mb(target.rssIdle),
          rssLoadMb: mb(end.rss),
          kbPerSocket: target.kbPerSocket,
          loopMaxMs: end.loopMaxMs,
          cpuMicrosPerMessage: (end.cpuMicros - start.cpuMicros) / messages,
          statementsPerMessage: (end.statements - start.statements) / messages,
          jobs: target.mode === 'bare' ? {} : await target.server.jobs(),
        };
      }
    }
    return results;
  } finally {
    for (const target of targets) {
      for (const socket of target.sockets) socket.disconnect();
      target.staff.disconnect();
      await target.server.stop();
    }
  }
}

async function runIdle(count: number): Promise<{ rssBeforeMb: number; rssMb: number; kbPerSocket: number }> {
  const server = await startServer('full');
  const base = `http://127.0.0.1:${server.ready.port}`;
  try {
    const { rss: rssBefore } = await server.read();
    const sockets = await connectMany(base, count, 250);
    await pause(2000);
    const { rss } = await server.read();
    for (const socket of sockets) socket.disconnect();
    return { rssBeforeMb: mb(rssBefore), rssMb: mb(rss), kbPerSocket: (rss - rssBefore) / 1024 / count };
  } finally {
    await server.stop();
  }
}

const fixed = (value: number, digits = 2) => value.toFixed(digits);

/** What /metrics costs: the full app with it against the same app without, round by round (target within 5%). */
function metricsCost(visitors: number, off: RunResult[], on: RunResult[]): string {
  const perRound = (pick: (result: RunResult) => number) => on.map((run, index) => pick(run) / pick(off[index]!));
  const change = (ratio: number) => `${ratio >= 1 ? '+' : ''}${fixed((ratio - 1) * 100, 1)}%`;
  const p99Ratios = perRound((result) => result.p99);
  const cpuRatios = perRound((result) => result.cpuMicrosPerMessage);
  const rateRatios = perRound((result) => result.messagesPerSecond);
  return (
    `N=${visitors} metrics on vs off: p99 ${fixed(median(on.map((r) => r.p99)))} vs ${fixed(median(off.map((r) => r.p99)))} ms ` +
    `(per round ${p99Ratios.map(change).join(' ')}, median ${change(median(p99Ratios))}); ` +
    `server CPU per message ${fixed(median(on.map((r) => r.cpuMicrosPerMessage)), 0)} vs ${fixed(median(off.map((r) => r.cpuMicrosPerMessage)), 0)} µs ` +
    `(per round ${cpuRatios.map(change).join(' ')}, median ${change(median(cpuRatios))}); ` +
    `msg/s median ${change(median(rateRatios))} (target: within 5%)`
  );
}

async function main(): Promise<void> {
  console.log(
    `bench:chat: sizes ${sizes.join(', ')}; ${rounds} interleaved rounds of ${modes.join(' vs ')}; ${measureSeconds} s measured each` +
      (countLimits ? '; limits counted' : '; loopback allowlisted (BENCH_LIMITS=1 counts the limits)'),
  );
  const summary: string[] = [];
  for (const visitors of sizes) {
    const none = (): Record<Mode, RunResult[]> => ({ bare: [], full: [], unmetered: [] });
    const results: Record<Phase, Record<Mode, RunResult[]>> = { new: none(), warm: none() };
    for (let round = 1; round <= rounds; round += 1) {
      const pair = await runPair(visitors, round);
      for (const phase of phases) {
        for (const mode of modes) {
          const result = pair[phase][mode];
          results[phase][mode].push(result);
          const jobs = Object.entries(result.jobs).map(([kind, count]) => `${kind} ${count}`).join(', ');
          console.log(
            `  N=${visitors} round ${round} ${phase.padEnd(4)} ${mode.padEnd(4)}: p50 ${fixed(result.p50)} ms, p99 ${fixed(result.p99)} ms, ` +
              `${fixed(result.messagesPerSecond, 0)} msg/s while loaded (${result.delivered}/${result.sent} delivered, ${result.errors} errors), ` +
              `server CPU ${fixed(result.cpuMicrosPerMessage, 0)} µs and ${fixed(result.statementsPerMessage, 1)} SQL statements per message, ` +
              `RSS ${fixed(result.rssIdleMb, 0)} MB idle / ${fixed(result.rssLoadMb, 0)} MB under load, ${fixed(result.kbPerSocket, 1)} KB per socket, longest event-loop stall ${fixed(result.loopMaxMs, 0)} ms` +
              (mode === 'bare' ? '' : `; job rows: ${jobs || 'none'}`),
          );
        }
      }
    }
    for (const phase of phases) {
      const of = results[phase];
      if (modes.includes('unmetered')) summary.push(`${phase}: ${metricsCost(visitors, of.unmetered, of.full)}`);
      if (!modes.includes('bare')) continue;
      const p99 = { bare: median(of.bare.map((r) => r.p99)), full: median(of.full.map((r) => r.p99)) };
      // Each round's pair ran back to back, so its ratio is the least disturbed by load elsewhere on the machine.
      const roundRatios = of.full.map((run, index) => run.p99 / (of.bare[index]?.p99 ?? Number.NaN));
      const p50 = { bare: median(of.bare.map((r) => r.p50)), full: median(of.full.map((r) => r.p50)) };
      summary.push(
        `N=${visitors} ${phase} conversations: full p50 ${fixed(p50.full)} ms / p99 ${fixed(p99.full)} ms; bare p50 ${fixed(p50.bare)} ms / p99 ${fixed(p99.bare)} ms; ` +
          `p99 ratio full/bare ${fixed(p99.full / p99.bare)}x (target p99 < 10 ms and <= 1.5x), ` +
          `per round ${roundRatios.map((ratio) => fixed(ratio)).join(' ')} (median ${fixed(median(roundRatios))}x); ` +
          `${fixed(median(of.full.map((r) => r.messagesPerSecond)), 0)} msg/s; ` +
          `server CPU per message ${fixed(median(of.full.map((r) => r.cpuMicrosPerMessage)), 0)} µs (bare ${fixed(median(of.bare.map((r) => r.cpuMicrosPerMessage)), 0)} µs); ` +
          `${fixed(median(of.full.map((r) => r.statementsPerMessage)), 1)} SQL statements per message; ` +
          `server RSS ${fixed(median(of.full.map((r) => r.rssLoadMb)), 0)} MB (bare ${fixed(median(of.bare.map((r) => r.rssLoadMb)), 0)} MB), ` +
          `${fixed(median(of.full.map((r) => r.kbPerSocket)), 1)} KB per socket (bare ${fixed(median(of.bare.map((r) => r.kbPerSocket)), 1)} KB)`,
      );
    }
  }
  if (idleSockets > 0) {
    const idle = await runIdle(idleSockets);
    summary.push(
      `${idleSockets} idle visitor sockets: server RSS ${fixed(idle.rssMb, 0)} MB (${fixed(idle.rssBeforeMb, 0)} MB before), ` +
        `${fixed(idle.kbPerSocket, 1)} KB per socket (target < 400 MB)`,
    );
  }
  console.log('\nsummary (medians):');
  for (const line of summary) console.log(`  ${line}`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
