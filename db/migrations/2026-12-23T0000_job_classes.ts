import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * The class of each kind of job when this migration was written (api/jobs/runner.ts `jobClasses`;
 * each kind's definition names its own): the rows already waiting take theirs from here. A kind not
 * listed (none was) becomes `maintenance`. New rows are written with the class of their kind.
 */
const classOfKind: Record<string, string> = {
  'password-reset-mail': 'access',
  'staff-invite-mail': 'access',
  'lead-confirmation-mail': 'mail',
  'lead-notice': 'mail',
  'lead-digest': 'mail',
  'chat-escalation': 'mail',
  'chat-continuity-mail': 'mail',
  'chat-transcript-mail': 'mail',
  'chat-rating-mail': 'mail',
  'chat-auto-assignment': 'realtime',
  'chat-rating-ask': 'realtime',
  'webhook-event': 'webhook',
  'webhook-delivery': 'webhook',
  retention: 'maintenance',
  'jobs.sweep': 'maintenance',
  'sessions.prune': 'maintenance',
};

/**
 * Job classes (DESIGN 17): each class has slots of its own on every node, and its runner claims it
 * alone. `jobs_pending_class_run_at` makes that claim one step into the index for the class, however
 * many jobs of another class wait (a webhook backlog must not slow a password reset's claim).
 *
 * On PostgreSQL the claim and the next-due read become functions of a class, planned without sorting
 * as in 2026-12-22T0000_jobs_claim_plan, and a lease is reckoned by the database's clock: two nodes
 * whose clocks disagree by more than a lease must never both hold a job. A job is due by the clock
 * of the node that claims it (`due_now`), which only moves when it runs.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('class', 'text', (col) => col.notNull().defaultTo('maintenance'))
    .execute();
  const cases = Object.entries(classOfKind).map(([kind, jobClass]) => sql`when ${sql.lit(kind)} then ${sql.lit(jobClass)}`);
  await sql`update jobs set class = case kind ${sql.join(cases, sql` `)} else 'maintenance' end`.execute(db);
  await db.schema
    .createIndex('jobs_pending_class_run_at')
    .on('jobs')
    .columns(['class', 'run_at', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  if (!isPostgres(db)) return;
  await sql`
    create function lotwise_database_now() returns bigint language sql volatile as $$
      select (extract(epoch from clock_timestamp()) * 1000)::bigint
    $$`.execute(db);
  await sql`
    create function lotwise_claim_class_jobs(job_class text, kinds text[], node text, due_now bigint, lease_ms bigint, claim_limit integer)
    returns setof jobs language plpgsql set enable_sort = off as $$
    declare
      database_now bigint := lotwise_database_now();
    begin
      return query
        update jobs set attempts = jobs.attempts + 1, locked_by = node, locked_until = database_now + lease_ms
        where jobs.id in (
          select due.id from jobs as due
          where due.state = 'pending' and due.class = job_class and due.kind = any(kinds) and due.run_at <= due_now
            and (due.locked_until is null or due.locked_until <= database_now)
          order by due.run_at, due.id
          limit claim_limit
          for update skip locked)
        returning jobs.*;
    end $$`.execute(db);
  await sql`
    create function lotwise_next_class_due(job_class text, kinds text[])
    returns bigint language plpgsql volatile set enable_sort = off as $$
    declare
      database_now bigint := lotwise_database_now();
    begin
      return (
        select due.run_at from jobs as due
        where due.state = 'pending' and due.class = job_class and due.kind = any(kinds)
          and (due.locked_until is null or due.locked_until <= database_now)
        order by due.run_at, due.id
        limit 1);
    end $$`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop function lotwise_next_class_due(text, text[])`.execute(db);
    await sql`drop function lotwise_claim_class_jobs(text, text[], text, bigint, bigint, integer)`.execute(db);
    await sql`drop function lotwise_database_now()`.execute(db);
  }
  await db.schema.dropIndex('jobs_pending_class_run_at').execute();
  await db.schema.alterTable('jobs').dropColumn('class').execute();
}
