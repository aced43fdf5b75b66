import type { Db } from '../../db/client';

/** The job table's state now, for /metrics: each figure one indexed query. */
export interface JobGauges {
  /** Pending, due by now and claimed by no live lease: waiting for a runner. */
  due: number;
  /** Pending and held by a runner's lease. */
  running: number;
  /** Failed for good, kept for an admin. */
  dead: number;
  /** When the longest-waiting due job was due (epoch ms); undefined when none is. */
  oldestDueAt: number | undefined;
}

export async function jobGauges(db: Db, now: number): Promise<JobGauges> {
  const [due, running, dead] = await Promise.all([
    db
      .selectFrom('jobs')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('runAt').as('oldest')])
      .where('state', '=', 'pending')
      .where('runAt', '<=', now)
      .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<=', now)]))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('state', '=', 'pending')
      .where('lockedUntil', '>', now)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('state', '=', 'dead')
      .executeTakeFirstOrThrow(),
  ]);
  return {
    due: Number(due.count),
    running: Number(running.count),
    dead: Number(dead.count),
    oldestDueAt: due.oldest == null ? undefined : Number(due.oldest),
  };
}
