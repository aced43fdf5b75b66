import Fastify from 'fastify';
import { createDb } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';

/**
 * The baseline of `npm run bench:forms`: a bare Fastify route doing the same single-row insert as
 * `POST /api/contact-submission`, with no validation, session, security headers or push, on a
 * database opened by the same `createDb` (same WAL and `synchronous` setting).
 */
const port = Number(process.env.PORT);
const { db, sqlite } = createDb(process.env.DATABASE_PATH ?? '');
await migrateToLatest(db);
const insert = sqlite.prepare(
  `insert into contact_submissions (name, email, company, phone, subject, message, created_at, updated_at)
   values (@name, @email, @company, @phone, @subject, @message, @createdAt, @createdAt)`,
);

const app = Fastify({ logger: false });
app.post('/bare/contact-submission', async (request, reply) => {
  const body = request.body as Record<string, string>;
  const result = insert.run({
    name: body.name,
    email: body.email,
    company: body.company,
    phone: body.phone,
    subject: body.subject,
    message: body.message,
    createdAt: new Date().toISOString(),
  });
  return reply.code(201).send({ id: Number(result.lastInsertRowid) });
});
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
