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

/** The number a reference (`LW-C-12`) shows a submitter. */
const numberOf = (reference: string) => Number(/^LW-C-(\d+)$/.exec(reference)?.[1]);

/**
 * A new lead's id, and so the reference its submitter reads (`LW-C-<id>`, the thank-you and the
 * confirmation mail), is the one its insert takes from the table's counter: references follow one
 * another without gaps in the order leads are stored, whichever process stored them.
 */
describe(`new leads' references (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, async () => {
  const open = await testDatabaseOpener('lead-ids');
  const [a, b] = [nodeOn(open()), nodeOn(open())];
  await migrateToLatest(a.db);

  it('numbers leads stored one after another by two processes in order, without gaps', async () => {
    const references: string[] = [];
    for (let index = 0; index < 8; index += 1) {
      const lead = await (index % 2 ? b : a).leads.create('contact', contactSubmission({ email: `turns.${index}@dealer.example` }));
      references.push(lead.reference);
    }
    expect(references).toEqual(references.map((_, index) => `LW-C-${numberOf(references[0]!) + index}`));
  });

  it('gives 150 leads written at once by two processes the next 150 references, each answered as stored', async () => {
    const before = await a.leads.list('contact', {});
    const last = Math.max(...before.map((lead) => lead.id));
    const created = await Promise.all(
      Array.from({ length: 150 }, (_, index) => (index % 2 ? a : b).leads.create('contact', contactSubmission({ email: `ids.${index}@dealer.example` }))),
    );
    const numbers = created.map((lead) => numberOf(lead.reference)).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 150 }, (_, index) => last + 1 + index));
    const stored = await b.leads.list('contact', {});
    for (const lead of created) expect(stored).toContainEqual(lead);
  });

  it('takes a failed write back whole, and the next lead is stored with a reference after the others', async () => {
    const last = Math.max(...(await a.leads.list('contact', {})).map((lead) => lead.id));
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
    expect(next.id).toBeGreaterThan(last);
    expect(await b.leads.get('contact', next.id)).toEqual(next);
  });
});
