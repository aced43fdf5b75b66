import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * The runner's two questions on PostgreSQL, as functions that plan them with sorting switched off.
 *
 * A queue table's statistics are always behind: taken while few jobs waited (or never, on a new
 * install), they make a burst of thousands look like a handful. The planner then read every pending
 * job and sorted them all, 5 to 10 ms for each claim of a few jobs with 20,000 waiting, so the runner
 * fell behind the forms that promised the jobs and the backlog it was sorting grew (bench:forms,
 * bench:jobs). `jobs_pending_run_at` already holds the pending jobs in the order asked for: with sorting
 * off, the only plan left walks it and stops after `claim_limit` rows, however many wait and whatever
 * the statistics say. A plpgsql function keeps its plan for the connection; `SET` holds for its own
 * statements only. SQLite needed no such thing (2026-12-12T0000_jobs_pending_index).
 */
export async function up(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create function lotwise_claim_jobs(kinds text[], node text, claim_now bigint, lease_until bigint, claim_limit integer)
    returns setof jobs language plpgsql set enable_sort = off as $$
    begin
      return query
        update jobs set attempts = jobs.attempts + 1, locked_by = node, locked_until = lease_until
        where jobs.id in (
          select due.id from jobs as due
          where due.state = 'pending' and due.kind = any(kinds) and due.run_at <= claim_now
            and (due.locked_until is null or due.locked_until <= claim_now)
          order by due.run_at, due.id
          limit claim_limit
          for update skip locked)
        returning jobs.*;
    end $$`.execute(db);
  await sql`
    create function lotwise_next_job_due(kinds text[], due_now bigint)
    returns bigint language plpgsql stable set enable_sort = off as $$
    begin
      return (
        select due.run_at from jobs as due
        where due.state = 'pending' and due.kind = any(kinds)
          and (due.locked_until is null or due.locked_until <= due_now)
        order by due.run_at, due.id
        limit 1);
    end $$`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop function lotwise_next_job_due(text[], bigint)`.execute(db);
  await sql`drop function lotwise_claim_jobs(text[], text, bigint, bigint, integer)`.execute(db);
}
