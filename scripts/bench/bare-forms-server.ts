import Fastify from 'fastify';
import pg from 'pg';
import { createDb } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';

/**
 * The floor of `npm run bench:forms`: a bare Fastify route doing the same durable work as
 * `POST /api/contact-submission`, and nothing else (no validation, session, security headers, events
 * or push): one transaction that inserts the lead and the job row the route promises with it (the
 * confirmation mail, `once` per address and window, as the app writes it), on the same database
 * through the same driver. On SQLite, better-sqlite3 on a file opened by the same `createDb` (same
 * WAL and `synchronous` setting); with DATABASE_URL, a plain `pg` pool of the app's default size into
 * the app's own tables (BEGIN, two inserts, COMMIT).
 */
const port = Number(process.env.PORT);
const columns = ['name', 'email', 'company', 'phone', 'subject', 'message'] as const;
type Row = Record<(typeof columns)[number], string>;

const confirmationWindowMs = 10 * 60_000;

const leadSql = (placeholders: string[]) =>
  `insert into contact_submissions (name, email, company, phone, subject, message, status, note, assignee_id, created_at, updated_at)
   values (${placeholders.slice(0, 6).join(', ')}, 'new', '', null, ${placeholders[6]}, ${placeholders[6]}) returning id`;
const jobSql = (placeholders: string[]) =>
  `insert into jobs (kind, class, payload, run_at, due_at, dedupe_key, created_at)
   values ('lead-confirmation-mail', 'mail', ${placeholders[0]}, ${placeholders[1]}, ${placeholders[1]}, ${placeholders[2]}, ${placeholders[1]})
   on conflict (dedupe_key) do nothing`;

/** The job row's values, as the app writes them for a lead. */
function job(id: number, email: string, now: number) {
  const window = Math.floor(now / confirmationWindowMs);
  return { payload: JSON.stringify({ kind: 'contact', id }), now, dedupeKey: `lead-confirmation-mail:${email.toLowerCase()}:${window}` };
}

async function sqliteWrite(): Promise<(row: Row) => Promise<number>> {
  const { db, sqlite } = createDb(process.env.DATABASE_PATH ?? '');
  await migrateToLatest(db);
  const lead = sqlite.prepare(leadSql(['@name', '@email', '@company', '@phone', '@subject', '@message', '@createdAt']));
  const promised = sqlite.prepare(jobSql(['@payload', '@now', '@dedupeKey']));
  const write = sqlite.transaction((row: Row) => {
    const now = Date.now();
    const { id } = lead.get({ ...row, createdAt: new Date(now).toISOString() }) as { id: number };
    promised.run(job(id, row.email, now));
    return id;
  });
  return async (row) => write(row);
}

function postgresWrite(url: string): (row: Row) => Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const $ = (count: number) => Array.from({ length: count }, (_, index) => `$${index + 1}`);
  const leadText = leadSql($(7));
  const jobText = jobSql($(3));
  return async (row) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const now = Date.now();
      const result = await client.query<{ id: number }>(leadText, [...columns.map((column) => row[column]), new Date(now).toISOString()]);
      const id = Number(result.rows[0]!.id);
      const promised = job(id, row.email, now);
      await client.query(jobText, [promised.payload, promised.now, promised.dedupeKey]);
      await client.query('commit');
      return id;
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  };
}

const write = process.env.DATABASE_URL ? postgresWrite(process.env.DATABASE_URL) : await sqliteWrite();
const app = Fastify({ logger: false });
app.post('/bare/contact-submission', async (request, reply) => {
  const id = await write(request.body as Row);
  return reply.code(201).send({ id });
});
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
