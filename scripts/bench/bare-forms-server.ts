import Fastify from 'fastify';
import pg from 'pg';
import { createDb } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';

/**
 * The baseline of `npm run bench:forms`: a bare Fastify route doing the same single-row insert as
 * `POST /api/contact-submission`, with no validation, session, security headers or push. On SQLite,
 * on a database opened by the same `createDb` (same WAL and `synchronous` setting); with
 * DATABASE_URL, through a plain `pg` pool of the app's default size into the app's own table.
 */
const port = Number(process.env.PORT);
const columns = ['name', 'email', 'company', 'phone', 'subject', 'message'] as const;
type Row = Record<(typeof columns)[number], string>;

async function sqliteInsert(): Promise<(row: Row) => Promise<number>> {
  const { db, sqlite } = createDb(process.env.DATABASE_PATH ?? '');
  await migrateToLatest(db);
  const insert = sqlite.prepare(
    `insert into contact_submissions (name, email, company, phone, subject, message, created_at, updated_at)
     values (@name, @email, @company, @phone, @subject, @message, @createdAt, @createdAt)`,
  );
  return async (row) => Number(insert.run({ ...row, createdAt: new Date().toISOString() }).lastInsertRowid);
}

function postgresInsert(url: string): (row: Row) => Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const text = `insert into contact_submissions (name, email, company, phone, subject, message, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $7) returning id`;
  return async (row) => {
    const result = await pool.query<{ id: number }>(text, [...columns.map((column) => row[column]), new Date().toISOString()]);
    return Number(result.rows[0]!.id);
  };
}

const insert = process.env.DATABASE_URL ? postgresInsert(process.env.DATABASE_URL) : await sqliteInsert();
const app = Fastify({ logger: false });
app.post('/bare/contact-submission', async (request, reply) => {
  const id = await insert(request.body as Row);
  return reply.code(201).send({ id });
});
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
