// @scaled: job claims and leases, statements per dialect
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/support/database';
import { transactionsFor } from '../../db/writes';
import { addToBatch, type BatchRequest, jobQueriesFor, markRetry } from './jobs.repository';

/** Batch jobs (a digest of many promises) on the real database: SQLite, and PostgreSQL on the scaled run. */
describe('batch jobs', async () => {
  const db = await testDatabase('jobs-batch');
  const transactions = transactionsFor(db);
  const add = (key: string, item: unknown, runAt = Date.now() + 60_000) =>
    transactions.run((tx) => addToBatch(tx, { kind: 'test-batch', class: 'mail', key, payload: { window: 7 }, item, runAt } satisfies BatchRequest & { class: 'mail' }, Date.now()));
  const batchesOf = async (key: string) => {
    const rows = await db.selectFrom('jobs').select(['dedupeKey', 'payload', 'state']).where('kind', '=', 'test-batch').where('dedupeKey', 'like', `${key}%`).orderBy('id').execute();
    return rows.map((row) => ({ key: row.dedupeKey, ...(JSON.parse(row.payload) as { window: number; items: unknown[] }) }));
  };
  const claim = (node: string) => {
    // As a runner that knows this kind claims.
    const request = { node, now: Date.now(), leaseMs: 60_000, limit: 100 };
    return transactions.run((tx) => jobQueriesFor(new Map([['mail', ['test-batch']]])).claimDueJobs(tx, 'mail', request));
  };

  it('gathers items into one pending job, each item once', async () => {
    await add('gather', { id: 1 });
    await add('gather', { id: 2 });
    await add('gather', { id: 1 });
    expect(await batchesOf('gather')).toEqual([{ key: 'gather', window: 7, items: [{ id: 1 }, { id: 2 }] }]);
  });

  it('closes a batch once claimed: a new item opens the next one, an item it holds is not added again', async () => {
    await add('closing', { id: 1 }, Date.now());
    const [claimed] = (await claim('node-a')).filter((job) => job.dedupeKey === 'closing');
    expect(claimed).toBeDefined();
    await add('closing', { id: 2 });
    await add('closing', { id: 1 });
    // A failed try frees the job for its retry, which must send what the first try sent: still closed.
    await transactions.run((tx) => markRetry(tx, claimed!.id, 'node-a', { runAt: Date.now() + 60_000, error: 'SMTP 451' }));
    await add('closing', { id: 3 });
    expect(await batchesOf('closing')).toEqual([
      { key: 'closing', window: 7, items: [{ id: 1 }] },
      { key: 'closing:2', window: 7, items: [{ id: 2 }, { id: 3 }] },
    ]);
  });

  it('puts each item in exactly one batch when many writes add at once while runners claim', async () => {
    const items = Array.from({ length: 40 }, (_, id) => ({ id }));
    let adding = true;
    const claiming = (async () => {
      while (adding) {
        await claim('node-b');
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    // Due at once, so the claims race the adds; each item added twice, as a retried adder would.
    await Promise.all([...items, ...items].map((item) => add('race', item, Date.now())));
    adding = false;
    await claiming;
    const batches = await batchesOf('race');
    const held = batches.flatMap((batch) => batch.items as { id: number }[]).map((item) => item.id);
    expect(held.sort((a, b) => a - b)).toEqual(items.map((item) => item.id));
  });
});
