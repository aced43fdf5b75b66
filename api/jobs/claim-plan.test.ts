// @scaled: the PostgreSQL claim functions
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDb, type Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { freshPostgresUrl, onPostgres } from '../../test/support/database';

/**
 * PostgreSQL's planner and a queue table: without statistics (or with some taken while few jobs
 * waited) a burst looks like a handful, and the claim used to read and sort the whole backlog each
 * time, 5 to 10 ms per claim (migration 2026-12-22T0000_jobs_claim_plan). The plans of the statements inside the runner's functions are
 * read with auto_explain, which reports them to the session that ran them.
 */
describe.runIf(onPostgres)('the job claim on PostgreSQL, with a backlog no statistics have seen', () => {
  const now = Date.UTC(2026, 10, 26, 15);
  const plans: string[] = [];
  let db: Db;
  let client: pg.Client;

  // Set up in a hook: on SQLite runs the block is skipped, and there is no PostgreSQL to set up.
  beforeAll(async () => {
    const url = await freshPostgresUrl();
    db = createPostgresDb(url, 2);
    await migrateToLatest(db);
    // A new install's table, which autovacuum has not analyzed yet: 20,000 jobs done...
    await sql`insert into jobs (kind, payload, state, run_at, due_at, created_at, finished_at)
      select 'notice', '{}', 'done', ${now - 7_200_000}::bigint + g, ${now - 7_200_000}::bigint + g, ${now}, ${now} from generate_series(1, 20000) as g`.execute(db);
    // ...and a burst of 20,000 due, the oldest first due an hour ago.
    await sql`insert into jobs (kind, payload, run_at, due_at, created_at)
      select 'notice', json_build_object('n', g)::text, ${now - 3_600_000}::bigint + g, ${now - 3_600_000}::bigint + g, ${now} from generate_series(1, 20000) as g`.execute(db);

    client = new pg.Client({ connectionString: url });
    await client.connect();
    client.on('notice', (notice) => plans.push(notice.message ?? ''));
    await client.query(`load 'auto_explain'`);
    await client.query(`set auto_explain.log_min_duration = 0`);
    await client.query(`set auto_explain.log_nested_statements = on`);
    await client.query(`set auto_explain.log_level = notice`);
  });
  afterAll(async () => {
    await client?.end();
    await db?.destroy();
  });

  /** The plans of the statements run inside `call` (auto_explain reports the outer call's own plan too). */
  async function innerPlans(call: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[]; plan: string }> {
    plans.length = 0;
    const { rows } = await client.query(call, values);
    const plan = plans.filter((text) => text.includes('from jobs as due')).join('\n');
    return { rows, plan };
  }

  it('claims the oldest due jobs by walking the pending index, never sorting the backlog', async () => {
    const { rows, plan } = await innerPlans(`select id, payload, attempts, locked_by from lotwise_claim_jobs($1, $2, $3, $4, $5)`, [
      ['notice'],
      'node-a',
      now,
      now + 60_000,
      4,
    ]);
    // Claimed together, answered in no particular order.
    expect(rows.map((row) => (JSON.parse(row.payload as string) as { n: number }).n).sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
    expect(rows.every((row) => row.attempts === 1 && row.locked_by === 'node-a')).toBe(true);
    expect(plan).toContain('Index Scan using jobs_pending_run_at');
    expect(plan).not.toMatch(/Sort|Bitmap/);
  });

  it('reads when the next unclaimed job is due the same way', async () => {
    const { rows, plan } = await innerPlans(`select lotwise_next_job_due($1, $2) as run_at`, [['notice'], now]);
    // The four claimed above hold their lease: the next is the fifth.
    expect(Number(rows[0]!.run_at)).toBe(now - 3_600_000 + 5);
    expect(plan).toContain('Index Scan using jobs_pending_run_at');
    expect(plan).not.toMatch(/Sort|Bitmap|Aggregate/);
  });

  it('claims one class by its own index, a step in however large the backlog of another class (2026-12-23T0000_job_classes)', async () => {
    // The 20,000 notices above wait in the maintenance class (the column's default); a reset joins them.
    await sql`insert into jobs (kind, class, payload, run_at, due_at, created_at) values ('password-reset-mail', 'access', '{"n":0}', ${now}, ${now}, ${now})`.execute(db);
    const due = await innerPlans(`select lotwise_next_class_due($1, $2) as run_at`, ['access', ['password-reset-mail']]);
    expect(Number(due.rows[0]!.run_at)).toBe(now);
    expect(due.plan).toContain('Index Scan using jobs_pending_class_run_at');
    expect(due.plan).not.toMatch(/Sort|Bitmap|Aggregate/);
    const claim = await innerPlans(`select id, class, locked_until from lotwise_claim_class_jobs($1, $2, $3, $4, $5, $6)`, [
      'access',
      ['password-reset-mail'],
      'node-a',
      now,
      60_000,
      2,
    ]);
    expect(claim.rows.map((row) => row.class)).toEqual(['access']);
    // The lease is reckoned by the database's clock, not by the `now` the node passed.
    expect(Number(claim.rows[0]!.locked_until)).toBeGreaterThan(Date.now() + 50_000);
    expect(claim.plan).toContain('Index Scan using jobs_pending_class_run_at');
    expect(claim.plan).not.toMatch(/Sort|Bitmap/);
  });
});
