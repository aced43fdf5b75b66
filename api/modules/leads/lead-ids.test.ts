// @scaled: lead ids per dialect and per process
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client';
import { migrateToLatest } from '../../../db/migrate';
import { transactionsFor } from '../../../db/writes';
import { onPostgres, testDatabaseOpener } from '../../../test/support/database';
import { contactSubmission } from '../../../test/support/factories';
import { EventBus } from '../../events/bus';
import { createWrite } from '../../events/write';
import { createLeadsService } from './leads.service';

/** A server process's leads: its own connection to the shared database and its own write path. */
function nodeOn(db: Db) {
  const bus = new EventBus();
  return { db, bus, leads: createLeadsService({ db, write: createWrite({ transactions: transactionsFor(db), bus }) }) };
}

/**
 * On PostgreSQL a new lead's id is taken ahead from the table's sequence, a block at a time per process,
 * and the row goes with the write's COMMIT (db/insert-returning.ts `insertWhole`); on SQLite the insert
 * answers it. Either way: an id per lead, unique across processes, and the lead answered is the lead stored.
 */
describe(`new leads' ids (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, async () => {
  const open = await testDatabaseOpener('lead-ids');
  const [a, b] = [nodeOn(open()), nodeOn(open())];
  await migrateToLatest(a.db);

  it('gives each of 150 leads written at once by two processes an id of its own, and answers each as stored', async () => {
    const created = await Promise.all(
      Array.from({ length: 150 }, (_, index) => (index % 2 ? a : b).leads.create('contact', contactSubmission({ email: `ids.${index}@dealer.example` }))),
    );
    const ids = created.map((lead) => lead.id);
    expect(new Set(ids).size).toBe(150);
    const stored = await a.leads.list('contact', {});
    expect(stored).toHaveLength(150);
    for (const lead of created) expect(stored).toContainEqual(lead);
  });

  it('takes a failed write back whole, and the next lead is stored with an id of its own', async () => {
    // A promise the write cannot make (its listener throws) fails the write, the lead with it.
    a.bus.react('lead.created', ({ lead }) => {
      if (lead.email === 'fails@dealer.example') throw new Error('a promise the write cannot make');
      return undefined;
    });
    await expect(a.leads.create('contact', contactSubmission({ email: 'fails@dealer.example' }))).rejects.toThrow('a promise the write cannot make');
    const next = await a.leads.create('contact', contactSubmission({ email: 'after.failure@dealer.example' }));
    const emails = (await b.leads.list('contact', {})).map((lead) => lead.email);
    expect(emails).not.toContain('fails@dealer.example');
    expect(emails).toContain('after.failure@dealer.example');
    expect(await b.leads.get('contact', next.id)).toEqual(next);
  });
});
