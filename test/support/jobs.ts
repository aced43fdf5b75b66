import type { Db } from '../../db/client';
import { waitUntil } from './wait';

/**
 * Resolves once no job of `kinds` is pending (with `dueBy`, none due by that time): each promise was
 * kept or given up. A job is done only once its work answered (a mail once the SMTP server took it), and
 * every job a write promises is a row of that write, so nothing of those kinds can follow: a test asks
 * this before saying what was not sent, instead of waiting a while for it.
 */
export async function jobsSettled(db: Db, kinds: readonly string[], options: { dueBy?: () => number; timeoutMs?: number } = {}): Promise<void> {
  const { dueBy, timeoutMs = 20_000 } = options;
  await waitUntil(
    async () => {
      let pending = db.selectFrom('jobs').select('id').where('kind', 'in', kinds).where('state', '=', 'pending');
      if (dueBy) pending = pending.where('runAt', '<=', dueBy());
      return (await pending.execute()).length === 0;
    },
    { timeoutMs, intervalMs: 50, what: `no pending job of ${kinds.join(', ')}` },
  );
}
