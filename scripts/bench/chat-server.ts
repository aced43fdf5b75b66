/**
 * The server side of `npm run bench:chat` and `bench:poll`, in its own process so its RSS is its own.
 * `full`: the real app (storage, checks, rooms) on a fresh SQLite file. `bare`: a Socket.IO relay that
 * only forwards each visitor message to the staff socket and acks it: the cost floor.
 * Talks to the parent over IPC: `{ ready, port, staffCookie?, visitorCookie? }`, and answers `rss`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { Server } from 'socket.io';
import { buildApp } from '../../api/app';
import { parseConfig } from '../../api/config';
import { sessionCookieName, visitorCookieName } from '../../api/plugins/session';

/** `unmetered`: the full app without /metrics and its measurements, to compare with `full` (BENCH_MODES=unmetered,full). */
type Mode = 'full' | 'bare' | 'poll' | 'unmetered';
const mode = (process.argv[2] ?? 'full') as Mode;
const send = (message: object) => process.send?.(message);

/**
 * BENCH_ALLOC_PROFILE=FILE: V8's sampling heap profiler over the whole run, counting the objects that
 * young and old collections freed too (node's --heap-prof keeps only the survivors), written on SIGTERM:
 * where the bytes a message allocates come from.
 */
const allocProfileFile = process.env.BENCH_ALLOC_PROFILE;
const inspector = allocProfileFile ? new Session() : undefined;
if (inspector) {
  inspector.connect();
  inspector.post('HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: process.env.BENCH_ALLOC_MINOR !== '0' });
}

// A clean exit, so a --cpu-prof profile gets written.
process.on('SIGTERM', () => {
  if (!inspector || !allocProfileFile) process.exit(0);
  inspector.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) writeFileSync(allocProfileFile, JSON.stringify(result.profile));
    process.exit(0);
  });
});

// How long the event loop stalled: a blocking call (an fsync, a long GC) shows here.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();

/**
 * SQL statements the full app ran so far (every better-sqlite3 run, get, all and iterate, through
 * Kysely or not): counted to see what a message costs the database, new conversation or not.
 */
let statements = 0;
function countStatements(sqlite: SQLite.Database): void {
  const statement = Object.getPrototypeOf(sqlite.prepare('select 1')) as Record<'run' | 'get' | 'all' | 'iterate', (...args: unknown[]) => unknown>;
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = statement[method];
    statement[method] = function (this: unknown, ...args: unknown[]) {
      statements += 1;
      return original.apply(this, args);
    };
  }
}
/** The full app's job rows by kind, when asked. */
let jobsByKind: () => Promise<Record<string, number>> = async () => ({});

process.on('message', (message: { type: string }) => {
  if (message.type === 'rss') {
    // CPU and stalls first: the forced collection below is the benchmark's, not the server's.
    const cpu = process.cpuUsage();
    const loopMaxMs = loopDelay.max / 1e6;
    global.gc?.();
    send({ type: 'rss', rss: process.memoryUsage().rss, loopMaxMs, cpuMicros: cpu.user + cpu.system, statements });
    loopDelay.reset();
  }
  if (message.type === 'jobs') void jobsByKind().then((jobs) => send({ type: 'jobs', jobs }));
});

async function startBare(): Promise<void> {
  const server = createServer();
  const io = new Server(server, { path: '/socket.io', serveClient: false });
  const staff = io.of('/admin');
  let id = 0;
  io.on('connection', (socket) => {
    socket.on('chat:send', (payload: { sessionId: string; message: string; clientId?: string }, ack: (answer: object) => void) => {
      id += 1;
      const row = { id, sessionId: payload.sessionId, message: payload.message, senderEmail: null, senderName: null, isFromUser: true, clientId: payload.clientId ?? null, createdAt: new Date().toISOString() };
      staff.emit('chat:message', row);
      ack({ ok: true, message: row });
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    send({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
  });
}

async function startFull(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-bench-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const parsed = parseConfig({
    NODE_ENV: 'production',
    DATABASE_PATH: join(dir, 'app.db'),
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    // The job runner's settings pass through (JOBS_POLL_MS, JOBS_CONCURRENCY), to see what its polling costs.
    ...(process.env.JOBS_POLL_MS ? { JOBS_POLL_MS: process.env.JOBS_POLL_MS } : {}),
    // NOTIFY_EMAIL passes through: each visitor message then adds its escalation job (one upsert, a no-op while one waits).
    ...(process.env.NOTIFY_EMAIL ? { NOTIFY_EMAIL: process.env.NOTIFY_EMAIL } : {}),
    // BENCH_LIMITS=1: the visitors' limits are counted (the load spreads them over loopback addresses).
    RATE_LIMIT_ALLOWLIST: process.env.BENCH_LIMITS === '1' ? '' : '127.0.0.1',
    // BENCH_METRICS=off: without /metrics and its measurements (on, as in production, by default).
    METRICS: mode === 'unmetered' || process.env.BENCH_METRICS === 'off' ? 'off' : 'on',
    // A known staff account, so start does not print a generated one.
    ADMIN_EMAIL: 'bench-admin@lotwise.example',
    ADMIN_PASSWORD: 'bench-admin-password',
  });
  const app = await buildApp({ ...parsed, sessionSecret: 'bench-session-secret-that-is-long-enough-0123456789' }, { webRoot: join(dir, 'no-web') });
  await app.ready();
  const counted = new SQLite(join(dir, 'count.db'));
  countStatements(counted);
  counted.close();
  jobsByKind = async () => {
    const rows = await app.db.selectFrom('jobs').select(['kind', (eb) => eb.fn.countAll<number>().as('count')]).groupBy('kind').execute();
    return Object.fromEntries(rows.map((row) => [row.kind, Number(row.count)]));
  };

  // A staff sign-in, as admin-login would leave it in the session store.
  const now = new Date().toISOString();
  const { id: adminId } = await app.db.insertInto('admins').values({ email: 'bench@lotwise.example', passwordHash: 'bench', createdAt: now }).returning('id').executeTakeFirstOrThrow();
  const sid = 'bench-staff-session-0001';
  const lifetimeMs = 24 * 60 * 60 * 1000;
  await app.db
    .insertInto('sessions')
    .values({
      sid,
      expiresAt: Date.now() + lifetimeMs,
      adminId,
      data: JSON.stringify({
        cookie: { originalMaxAge: lifetimeMs, expires: new Date(Date.now() + lifetimeMs).toISOString(), httpOnly: true, path: '/', sameSite: 'lax' },
        adminId,
        adminEmail: 'bench@lotwise.example',
        staffLastActiveAt: Date.now(),
        adminCredentialVersion: 0,
      }),
    })
    .execute();

  const visitorId = 'bench-visitor-0001';
  if (mode === 'poll') {
    // 10,000 chat sessions of a few messages each, owned by the visitor the load test plays.
    const sessions = Number(process.env.BENCH_SESSIONS ?? 10_000);
    // Through Kysely, a few hundred rows per statement: the same seeding whatever the database.
    const rowsPerInsert = 300;
    await app.db.transaction().execute(async (trx) => {
      for (let first = 0; first < sessions; first += rowsPerInsert) {
        const ids = Array.from({ length: Math.min(rowsPerInsert, sessions - first) }, (_, index) => `session_bench_${first + index}`);
        await trx
          .insertInto('chatSessions')
          .values(ids.map((id) => ({ id, visitorId, status: 'open', lastSeq: 3, lastMessageAt: now, createdAt: now })))
          .execute();
        await trx
          .insertInto('chatMessages')
          .values(
            ids.flatMap((sessionId, index) => [
              { sessionId, message: `Hello, question number ${first + index}`, isFromUser: 1, kind: 'visitor', seq: 1, createdAt: now },
              { sessionId, message: 'Thanks for asking! Here is the answer.', isFromUser: 0, kind: 'staff', seq: 2, createdAt: now },
              { sessionId, message: 'Great, thank you.', isFromUser: 1, kind: 'visitor', seq: 3, createdAt: now },
            ]),
          )
          .execute();
      }
    });
  }

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();

  // The poll's baseline: a bare Fastify route running the same select with no session, checks or schemas.
  let barePort = 0;
  if (mode === 'poll') {
    // The bare baseline is better-sqlite3 itself: a connection of its own to the same file.
    const bare = Fastify({ logger: false });
    const sqlite = new SQLite(parsed.database.path, { readonly: true });
    bare.addHook('onClose', async () => sqlite.close());
    const select = sqlite.prepare('select * from chat_messages where session_id = ? order by seq');
    bare.get<{ Params: { sessionId: string } }>('/api/chat-messages/:sessionId', async (request) => select.all(request.params.sessionId));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareAddress = bare.server.address();
    barePort = typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0;
  }
  send({
    type: 'ready',
    port: typeof address === 'object' && address ? address.port : 0,
    barePort,
    staffCookie: `${sessionCookieName}=${encodeURIComponent(app.signCookie(sid))}`,
    visitorCookie: `${visitorCookieName}=${encodeURIComponent(app.signCookie(visitorId))}`,
  });
}

(mode === 'bare' ? startBare() : startFull()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
