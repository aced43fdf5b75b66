import { readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { DataExport, ErasureResult } from '../../contract/admin-operations';
import { JobDeferral } from '../../jobs';
import { recordAudit } from '../audit';
import { addressHash, normalAddress } from '../mail';
import { eraseRows, findRowsByEmail, findRowsOlderThan, foundAny, readRows } from './personal-data.repository';

const dayMs = 24 * 60 * 60 * 1000;
/** Retention erases in writes of at most this many chats (and leads of each kind), so no write holds the database long. */
const retentionBatch = 200;

/** The outbox files (DATA_DIR/outbox, written when there is no SMTP server) of the mails the record names, by name. */
async function outboxMailsNamed(outboxDir: string, files: readonly string[]): Promise<{ file: string; content: string }[]> {
  const found: { file: string; content: string }[] = [];
  for (const file of files) {
    const content = await readFile(join(outboxDir, basename(file)), 'utf8').catch(() => undefined);
    if (content !== undefined) found.push({ file, content });
  }
  return found;
}

function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

/**
 * Data requests (DESIGN.md 12): everything stored for one email, exported as JSON or erased, and
 * retention. The audit row of each names counts only, never the email or the data.
 */
export function personalData(app: FastifyInstance, config: Config) {
  const outboxDir = join(config.dataDir, 'outbox');
  const removeOutboxFiles = async (files: readonly string[]) => {
    for (const file of files) await rm(join(outboxDir, basename(file)), { force: true });
  };

  async function exportFor(actorId: number, email: string): Promise<DataExport> {
    const address = normalAddress(email);
    const tables = await readRows(app.db, await findRowsByEmail(app.db, address, addressHash(address)));
    // The mails the mail policy recorded as sent to the address or about its rows: exactly those.
    const files = (tables.sentMails ?? []).flatMap((mail) => (typeof mail.outboxFile === 'string' ? [mail.outboxFile] : []));
    const outbox = await outboxMailsNamed(outboxDir, files);
    const rows = Object.values(tables).reduce((sum, list) => sum + list.length, 0);
    await app.write((tx) => recordAudit(tx, { actorId, action: 'data.exported', detail: `${rows} rows, ${outbox.length} mails` }));
    return { email: address, exportedAt: new Date().toISOString(), tables, outbox };
  }

  async function eraseFor(actorId: number, email: string): Promise<ErasureResult> {
    const address = normalAddress(email);
    const { counts: erased, outboxFiles } = await app.write(async (tx) => {
      const result = await eraseRows(tx.db, await findRowsByEmail(tx.db, address, addressHash(address)));
      // The suppression entry stays, as a hash: an erased address is never mailed again.
      await app.mail.suppress(tx, address, 'erased');
      await recordAudit(tx, { actorId, action: 'data.erased', detail: `${total(result.counts)} rows` });
      return result;
    });
    // Files are not in the transaction: removed after it commits.
    await removeOutboxFiles(outboxFiles);
    if (outboxFiles.length > 0) erased.outboxMails = outboxFiles.length;
    return { email: address, erased };
  }

  /**
   * Erases the chats and leads older than RETENTION_DAYS, a batch per write; one audit row with the
   * counts. Stops between batches once `signal` is aborted (its job's deadline): `done` is false then,
   * and what is left waits for the next run.
   */
  async function applyRetention(
    days: number,
    { now = Date.now(), signal }: { now?: number; signal?: AbortSignal } = {},
  ): Promise<{ counts: Record<string, number>; done: boolean }> {
    const before = new Date(now - days * dayMs).toISOString();
    const counts: Record<string, number> = {};
    let done = false;
    while (!signal?.aborted) {
      const batch = await app.write(async (tx) => {
        const rows = await findRowsOlderThan(tx.db, before, retentionBatch);
        return foundAny(rows) ? eraseRows(tx.db, rows) : undefined;
      });
      if (!batch) {
        done = true;
        break;
      }
      await removeOutboxFiles(batch.outboxFiles);
      for (const [table, count] of Object.entries(batch.counts)) counts[table] = (counts[table] ?? 0) + count;
    }
    if (total(counts) > 0) {
      const detail = Object.entries(counts)
        .map(([table, count]) => `${table}: ${count}`)
        .join(', ');
      await app.write((tx) => recordAudit(tx, { actorId: null, action: 'retention.erased', detail }));
    }
    return { counts, done };
  }

  return { exportFor, eraseFor, applyRetention };
}

export type PersonalData = ReturnType<typeof personalData>;

/**
 * The daily retention job: once across nodes, as periodic work of the job runner. Defined without
 * RETENTION_DAYS too (then it does nothing), so turning it off leaves no job of an unknown kind. A
 * run that reaches its deadline with more to erase is put off to now: it goes on at the next look,
 * its slot freed in between, and no run holds the maintenance slot past its deadline.
 */
export function scheduleRetention(app: FastifyInstance, data: PersonalData, days: number | undefined): void {
  app.jobs.every('retention', dayMs, async ({ signal }) => {
    if (days === undefined) return;
    const { done } = await data.applyRetention(days, { signal });
    if (!done) throw new JobDeferral(Date.now(), 'retention reached its deadline with more to erase: it goes on at the next look');
  });
}
