import { sql } from 'kysely';
import type { Db } from '../../db/client';
import { type PreparedQuery, prepareQuery } from '../../db/prepared';
import { claimsThroughFunctions, lockedForUpdate } from '../../db/query-helpers';
import type { JobRow } from '../../db/schema';
import type { JobClass } from './classes';

/** Work to do later: a kind with a handler (api/jobs/runner.ts), and its payload of ids. */
export interface JobRequest {
  kind: string;
  payload: Record<string, unknown>;
  /** When it is due (epoch ms); now when absent. */
  runAt?: number;
  /**
   * At most one pending job has this key: enqueuing it again while one waits changes nothing (a timer
   * set twice, a notice promised twice). A finished job's key is taken over by the new one.
   */
  dedupeKey?: string;
  /** With `dedupeKey`: a key a finished job still holds adds nothing either (at most one job per key while its row is kept). */
  once?: boolean;
}

type InsertedJob = { kind: string; class: string; payload: string; runAt: number; dedupeKey: string | null; createdAt: number };

const insertJob = prepareQuery(
  (db: Db, job: InsertedJob) =>
    db
      .insertInto('jobs')
      .values({ kind: job.kind, class: job.class, payload: job.payload, runAt: job.runAt, dueAt: job.runAt, dedupeKey: job.dedupeKey, createdAt: job.createdAt })
      .onConflict((conflict) =>
        conflict
          .column('dedupeKey')
          .doUpdateSet((eb) => ({
            kind: eb.ref('excluded.kind'),
            class: eb.ref('excluded.class'),
            payload: eb.ref('excluded.payload'),
            state: 'pending',
            runAt: eb.ref('excluded.runAt'),
            dueAt: eb.ref('excluded.dueAt'),
            attempts: 0,
            lockedUntil: null,
            lockedBy: null,
            lastError: null,
            createdAt: eb.ref('excluded.createdAt'),
            finishedAt: null,
          }))
          .where('jobs.state', '<>', 'pending'),
      ),
);

const insertJobOnce = prepareQuery(
  (db: Db, job: InsertedJob) =>
    db
      .insertInto('jobs')
      .values({ kind: job.kind, class: job.class, payload: job.payload, runAt: job.runAt, dueAt: job.runAt, dedupeKey: job.dedupeKey, createdAt: job.createdAt })
      .onConflict((conflict) => conflict.column('dedupeKey').doNothing()),
);

/** The class of a kind of job, as its definition names it (the runner's `classOf`). */
export type ClassOfKind = (kind: string) => JobClass;

/**
 * Inserts the jobs in the transaction of `db`: they commit with the write that promises them. Each
 * row is written with the class of its kind (`classOf`), which the runner claims by. Answers how many
 * rows were added or taken over: none when each was already promised (a dedupe key held).
 */
export async function insertJobs(db: Db, jobs: readonly JobRequest[], now: number, classOf: ClassOfKind): Promise<number> {
  let added = 0;
  for (const job of jobs) {
    added += await (job.once ? insertJobOnce : insertJob).run(db, {
      kind: job.kind,
      class: classOf(job.kind),
      payload: JSON.stringify(job.payload),
      runAt: job.runAt ?? now,
      dedupeKey: job.dedupeKey ?? null,
      createdAt: now,
    });
  }
  return added;
}

type Claim = {
  node: string;
  /** The claiming node's clock: jobs with `run_at` up to it are due. */
  now: number;
  leaseMs: number;
  limit: number;
};

/**
 * Now by the clock leases are reckoned by: on PostgreSQL the database's (nodes' clocks may differ by
 * more than a lease; the database's is the one they share), on SQLite (one process) the runner's.
 */
function leaseNow(db: Db, now: number) {
  return claimsThroughFunctions(db) ? sql<number>`lotwise_database_now()` : sql<number>`${now}`;
}

/** When the next pending job of one class is due (its kinds this runner knows); a job whose lease runs on counts once it ends. */
function nextDueOfClass(db: Db, jobClass: JobClass, kinds: readonly string[], now: number) {
  if (claimsThroughFunctions(db)) {
    // Planned without sorting (2026-12-23T0000_job_classes): one step into the class's pending index.
    return sql<number | null>`lotwise_next_class_due(${jobClass}, ${sql.val(kinds)})`;
  }
  return db
    .selectFrom('jobs')
    .select('runAt')
    .where('state', '=', 'pending')
    .where('class', '=', jobClass)
    .where('kind', 'in', kinds)
    .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<=', now)]))
    .orderBy('runAt')
    .orderBy('id')
    .limit(1);
}

/**
 * Claims up to `limit` due jobs of one class, oldest due first: each counts an attempt and is held
 * for `leaseMs`. The claim walks the class's pending index in order however many jobs of it (or of
 * another class) wait; on PostgreSQL rows another runner is claiming are skipped, and the lease is
 * reckoned by the database's clock (2026-12-23T0000_job_classes).
 */
function claimQuery(db: Db, claim: Claim, jobClass: JobClass, kinds: readonly string[]) {
  if (claimsThroughFunctions(db)) {
    return db
      .selectFrom(
        sql<JobRow>`lotwise_claim_class_jobs(${jobClass}, ${sql.val(kinds)}, ${claim.node}, ${claim.now}, ${claim.leaseMs}, ${claim.limit})`.as('claimed'),
      )
      .selectAll();
  }
  const due = db
    .selectFrom('jobs')
    .select('id')
    .where('state', '=', 'pending')
    .where('class', '=', jobClass)
    .where('kind', 'in', kinds)
    .where('runAt', '<=', claim.now)
    .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<=', claim.now)]))
    .orderBy('runAt')
    .orderBy('id')
    .limit(claim.limit);
  return db
    .updateTable('jobs')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), lockedBy: claim.node, lockedUntil: eb(eb.val(claim.now), '+', eb.val(claim.leaseMs)) }))
    .where('id', 'in', due)
    .returningAll();
}

/**
 * A runner's queries on the jobs table for the kinds it knows, by class, each built once: a busy node
 * claims many times a second, and building the claim cost more than running it.
 */
export function jobQueriesFor(kindsByClass: ReadonlyMap<JobClass, readonly string[]>) {
  const classes = [...kindsByClass.keys()];
  // One statement, one index step per class: `select (next of access) as c0, (next of mail) as c1, ...`.
  const nextDue = prepareQuery((db: Db, params: { now: number }) =>
    db.selectNoFrom(() => classes.map((jobClass, index) => sql<number | null>`(${nextDueOfClass(db, jobClass, kindsByClass.get(jobClass)!, params.now)})`.as(`c${index}`))),
  );
  const claims = new Map(classes.map((jobClass) => [jobClass, prepareQuery((db: Db, params: Claim) => claimQuery(db, params, jobClass, kindsByClass.get(jobClass)!))]));
  return {
    /**
     * When the next pending job of each class is due (epoch ms; absent: none), in one read: an idle
     * runner costs no write.
     */
    async nextDueByClass(db: Db, now: number): Promise<Map<JobClass, number>> {
      const due = new Map<JobClass, number>();
      if (classes.length === 0) return due;
      const row = (await nextDue.first(db, { now })) as Record<string, unknown> | undefined;
      classes.forEach((jobClass, index) => {
        const at = row?.[`c${index}`];
        if (at !== null && at !== undefined) due.set(jobClass, Number(at));
      });
      return due;
    },
    /** Claims up to `limit` due jobs of `jobClass` for `node`, in one statement. */
    async claimDueJobs(db: Db, jobClass: JobClass, params: Claim): Promise<JobRow[]> {
      const claim = claims.get(jobClass);
      return claim ? claim.all(db, params) : [];
    },
  };
}

/** The claim of `node` on jobs `ids`: a runner whose lease ran out (and was taken over) changes nothing. */
function ownJobs(db: Db, ids: readonly number[], node: string) {
  return db.updateTable('jobs').where('id', 'in', ids).where('lockedBy', '=', node).where('state', '=', 'pending');
}

/** The statement marking `count` jobs done, by count: each built once (at most a runner's concurrency of them). */
const markDoneQueries = new Map<number, PreparedQuery<Record<string, number | string>, unknown>>();

/** Marks done the jobs `ids` that `node` holds, in one statement; a job whose lease was taken over is left alone. */
export async function markDone(db: Db, ids: readonly number[], node: string, now: number): Promise<void> {
  const count = ids.length;
  if (count === 0) return;
  let query = markDoneQueries.get(count);
  if (!query) {
    query = prepareQuery((builder: Db, params: Record<string, number | string>) =>
      ownJobs(
        builder,
        Array.from({ length: count }, (_, index) => params[`id${index}`] as number),
        params.node as string,
      ).set({ state: 'done', finishedAt: params.now as number, lockedUntil: null, lockedBy: null }),
    );
    markDoneQueries.set(count, query);
  }
  const params: Record<string, number | string> = { node, now };
  ids.forEach((id, index) => (params[`id${index}`] = id));
  await query.run(db, params);
}

/** Due again at `runAt`, its error kept; `attempts` carries on. For periodic work, `resetAttempts` starts it afresh. */
export async function markRetry(db: Db, id: number, node: string, retry: { runAt: number; error: string | null; resetAttempts?: boolean }): Promise<void> {
  await ownJobs(db, [id], node)
    .set({
      runAt: retry.runAt,
      lastError: retry.error,
      lockedUntil: null,
      lockedBy: null,
      ...(retry.resetAttempts ? { attempts: 0, dueAt: retry.runAt } : {}),
    })
    .execute();
}

/** Put off until `runAt` by its handler (api/jobs/runner.ts `JobDeferral`): the attempt its claim counted is given back. */
export async function markDeferred(db: Db, id: number, node: string, runAt: number): Promise<void> {
  await ownJobs(db, [id], node)
    .set((eb) => ({ runAt, attempts: eb('attempts', '-', 1), lockedUntil: null, lockedBy: null }))
    .execute();
}

export async function markDead(db: Db, id: number, node: string, failure: { error: string; now: number }): Promise<void> {
  await ownJobs(db, [id], node).set({ state: 'dead', lastError: failure.error, finishedAt: failure.now, lockedUntil: null, lockedBy: null }).execute();
}

/**
 * Pending jobs of kinds no runner here knows, due since before `dueBefore`, end dead with that error:
 * a kind whose code is gone (or misspelt) must not wait forever. The grace lets a node with newer
 * code take a new kind first during a rolling deploy.
 */
export async function killUnknownKinds(db: Db, known: readonly string[], dueBefore: number, now: number): Promise<number> {
  let query = db
    .updateTable('jobs')
    .set({ state: 'dead', finishedAt: now, lastError: sql<string>`${'no handler for job kind '} || ${sql.ref('kind')}` })
    .where('state', '=', 'pending')
    .where('runAt', '<', dueBefore)
    .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<=', leaseNow(db, now))]));
  if (known.length > 0) query = query.where('kind', 'not in', known);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** How many jobs of these kinds first due in `[from, to)` came before job `beforeId` (by id, in any state). */
export async function countJobsDueBefore(db: Db, query: { kinds: readonly string[]; from: number; to: number; beforeId: number }): Promise<number> {
  if (query.kinds.length === 0) return 0;
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('kind', 'in', query.kinds)
    .where('dueAt', '>=', query.from)
    .where('dueAt', '<', query.to)
    .where('id', '<', query.beforeId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A batch job: one job gathering many items (api/jobs: `gatherInBatch`). */
export interface BatchRequest {
  kind: string;
  /** Names the batch: its jobs are `key`, then `key:2`, `key:3`, ... */
  key: string;
  /** The batch job's payload besides its `items`. */
  payload: Record<string, unknown>;
  item: unknown;
  /** When the batch is due (epoch ms). */
  runAt: number;
}

/** Past this many closed batches of one key, something is wrong: the adding write fails and is retried. */
const maxBatchesPerKey = 50;

/**
 * Adds `item` to the open batch of `key`: the pending job of `kind` gathering items (its payload is
 * `{ ...payload, items }`) until a runner first claims it. A batch claimed once is closed (a retry
 * must send what the first try sent), so a later item opens the next one, `key:2`, `key:3` ... An
 * item a batch of `key` already holds is not added again: adding is safe to repeat after an unknown
 * outcome. In the caller's write; on PostgreSQL the writers of one batch wait for each other.
 */
export async function addToBatch(db: Db, batch: BatchRequest & { class: JobClass }, now: number): Promise<void> {
  const itemText = JSON.stringify(batch.item);
  for (let number = 1; number <= maxBatchesPerKey; number += 1) {
    const dedupeKey = number === 1 ? batch.key : `${batch.key}:${number}`;
    const payload = JSON.stringify({ ...batch.payload, items: [] });
    await db
      .insertInto('jobs')
      .values({ kind: batch.kind, class: batch.class, payload, runAt: batch.runAt, dueAt: batch.runAt, dedupeKey, createdAt: now })
      .onConflict((conflict) => conflict.column('dedupeKey').doNothing())
      .execute();
    const job = await lockedForUpdate(db, db.selectFrom('jobs').select(['id', 'kind', 'payload', 'state', 'attempts', 'lockedBy']).where('dedupeKey', '=', dedupeKey)).executeTakeFirstOrThrow();
    const stored = parsePayloadObject(job.payload);
    const items = Array.isArray(stored.items) ? (stored.items as unknown[]) : [];
    if (job.kind === batch.kind && items.some((each) => JSON.stringify(each) === itemText)) return;
    const open = job.kind === batch.kind && job.state === 'pending' && job.attempts === 0 && job.lockedBy === null;
    if (!open) continue;
    await db
      .updateTable('jobs')
      .set({ payload: JSON.stringify({ ...stored, items: [...items, batch.item] }) })
      .where('id', '=', job.id)
      .execute();
    return;
  }
  throw new Error(`no open batch for ${batch.key} among ${maxBatchesPerKey}`);
}

function parsePayloadObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Takes the dedupe key off job `id`: enqueuing that key again adds a new job, even while this one runs. */
export async function releaseDedupeKey(db: Db, id: number): Promise<void> {
  await db.updateTable('jobs').set({ dedupeKey: null }).where('id', '=', id).execute();
}

export function findJob(db: Db, id: number): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Dead jobs, newest first, for an admin. */
export function listDeadJobs(db: Db, limit: number): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('state', '=', 'dead').orderBy('finishedAt', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * A dead job due again now, with fresh attempts (an admin's retry), in the class its kind has now
 * (`classOf`: the runner's definitions). False when it is not dead.
 */
export async function retryDeadJob(db: Db, id: number, now: number, classOf: ClassOfKind): Promise<boolean> {
  const job = await db.selectFrom('jobs').select('kind').where('id', '=', id).where('state', '=', 'dead').executeTakeFirst();
  if (!job) return false;
  const result = await db
    .updateTable('jobs')
    .set({ state: 'pending', class: classOf(job.kind), runAt: now, dueAt: now, attempts: 0, finishedAt: null })
    .where('id', '=', id)
    .where('state', '=', 'dead')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes done jobs finished before `before`; dead ones stay until an admin acts. */
export async function pruneDoneJobs(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('jobs').where('state', '=', 'done').where('finishedAt', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Jobs by state, for health and tests. */
export async function countJobs(db: Db): Promise<Record<'pending' | 'done' | 'dead', number>> {
  const rows = await db.selectFrom('jobs').select(['state', (eb) => eb.fn.countAll<number>().as('count')]).groupBy('state').execute();
  const counts = { pending: 0, done: 0, dead: 0 };
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}
