// @scaled: the write path and its jobs, on each dialect's transaction
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { prepareQuery } from '../../db/prepared';
import { migrateToLatest } from '../../db/migrate';
import { onPostgres, testDatabaseOpener } from '../../test/support/database';
import { transactionsFor } from '../../db/writes';
import type { Lead } from '../contract/leads';
import { EventBus } from './bus';
import type { DomainEvent } from './events';
import { createWrite } from './write';

const insertAdmin = prepareQuery((db: Db, params: { email: string }) =>
  db.insertInto('admins').values({ email: params.email, passwordHash: 'hash', createdAt: new Date().toISOString() }).returning('id'),
);

const leadEvent = (id: number): DomainEvent => ({ type: 'lead.created', kind: 'contact', lead: { id } as Lead });

describe(`app.write: events and their jobs (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, async () => {
  const open = await testDatabaseOpener('events');
  const db = open();
  await migrateToLatest(db);
  // Another connection, as another process would see the database.
  const elsewhere = open();
  const logged: unknown[] = [];
  const log = { error: (details: unknown) => void logged.push(details) } as unknown as FastifyBaseLogger;
  const bus = new EventBus(log);
  const heard: { id: number; adminsVisibleElsewhere: number }[] = [];
  const adminCount = async () => Number((await elsewhere.selectFrom('admins').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  bus.on('lead.created', async ({ lead }) => void heard.push({ id: lead.id, adminsVisibleElsewhere: await adminCount() }));
  bus.react('lead.created', ({ lead }) => ({ kind: 'notice', payload: { id: lead.id }, dedupeKey: `notice:${lead.id}` }));
  const told: number[] = [];
  const write = createWrite({ transactions: transactionsFor(db), bus, onJobsAdded: (soonestAt) => void told.push(soonestAt) });
  const jobKeys = async () => (await elsewhere.selectFrom('jobs').select('dedupeKey').orderBy('id').execute()).map((row) => row.dedupeKey);

  it('adds a durable listener’s job in the write’s own transaction, and tells live listeners after the commit', async () => {
    const before = Date.now();
    await write(async (tx) => {
      await insertAdmin.first(tx.db, { email: 'one@events.example' });
      tx.emit(leadEvent(1));
      // Nothing is heard, and no job exists, while the transaction is open.
      expect(heard).toEqual([]);
      expect(await jobKeys()).toEqual([]);
    });
    await expect.poll(() => heard.length).toBe(1);
    expect(heard).toEqual([{ id: 1, adminsVisibleElsewhere: 1 }]);
    expect(await jobKeys()).toEqual(['notice:1']);
    // The job runner here is told once, of a job due now.
    expect(told).toHaveLength(1);
    expect(told[0]).toBeGreaterThanOrEqual(before);
    expect(told[0]).toBeLessThanOrEqual(Date.now());
  });

  it('promises nothing and tells no one when the write fails after its event, and other writes of that moment stand', async () => {
    const results = await Promise.allSettled([
      write(async (tx) => {
        await insertAdmin.first(tx.db, { email: 'two@events.example' });
        tx.emit(leadEvent(2));
      }),
      write(async (tx) => {
        await insertAdmin.first(tx.db, { email: 'three@events.example' });
        tx.emit(leadEvent(3));
        // Fails after its event: a unique constraint, a database error.
        await insertAdmin.first(tx.db, { email: 'three@events.example' });
      }),
      write(async (tx) => {
        tx.emit(leadEvent(4));
        tx.enqueue({ kind: 'timer', payload: {}, dedupeKey: 'timer:4', runAt: Date.now() + 60_000 });
      }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await expect.poll(() => heard.length).toBe(3);
    expect(heard.map((event) => event.id)).toEqual([1, 2, 4]);
    expect((await jobKeys()).sort()).toEqual(['notice:1', 'notice:2', 'notice:4', 'timer:4']);
    expect(await adminCount()).toBe(2);
  });

  it('keeps a write committed when a live listener fails, and logs the failure', async () => {
    bus.on('lead.updated', () => {
      throw new Error('push failed');
    });
    await expect(
      write(async (tx) => {
        await insertAdmin.first(tx.db, { email: 'four@events.example' });
        tx.emit({ type: 'lead.updated', kind: 'contact', lead: { id: 5 } as Lead });
        return 'stored';
      }),
    ).resolves.toBe('stored');
    expect(await adminCount()).toBe(3);
    expect(logged).toEqual([expect.objectContaining({ event: 'lead.updated' })]);
  });

  it('takes a live listener that answers something other than a promise (a metric counter) as finished, logging nothing', async () => {
    const counted: number[] = [];
    // prom-client's inc() answers an object: an arrow listener hands it back.
    bus.on('staff.changed', ({ staffId }) => ({ counted: counted.push(staffId) }) as unknown as void);
    bus.on('staff.changed', ({ staffId }) => void counted.push(staffId * 10));
    logged.length = 0;
    await write(async (tx) => tx.emit({ type: 'staff.changed', staffId: 7, change: 'created' }));
    expect(counted).toEqual([7, 70]);
    expect(logged).toEqual([]);
  });

  it('tells the job runner nothing when a write’s promise was already held (a dedupe key) and adds no row', async () => {
    const toldBefore = told.length;
    const keysBefore = await jobKeys();
    // Lead 1's notice still waits (nothing runs jobs here): promising it again changes nothing.
    await write(async (tx) => {
      await insertAdmin.first(tx.db, { email: 'again@events.example' });
      tx.emit(leadEvent(1));
    });
    expect(await jobKeys()).toEqual(keysBefore);
    expect(told).toHaveLength(toldBefore);
    // A new lead's notice is a new row: the runner hears of it.
    await write(async (tx) => {
      await insertAdmin.first(tx.db, { email: 'fresh@events.example' });
      tx.emit(leadEvent(9));
    });
    expect(await jobKeys()).toEqual([...keysBefore, 'notice:9']);
    expect(told).toHaveLength(toldBefore + 1);
  });
});
