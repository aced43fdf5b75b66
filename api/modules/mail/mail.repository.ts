import type { Db } from '../../../db/client';

// The mail policy's tables (DESIGN.md 17): addresses by hash (verified, suppressed), the record of
// each mail sent and the rows it is about, and the work waiting for an address to confirm itself.

export interface AddressStanding {
  verified: boolean;
  suppressed: boolean;
}

function standingOf(row: { verifiedAt: number | string | null; suppressedAt: number | string | null } | undefined): AddressStanding {
  return { verified: row?.verifiedAt != null, suppressed: row?.suppressedAt != null };
}

export async function findAddress(db: Db, addressHash: string): Promise<AddressStanding> {
  return standingOf(await db.selectFrom('mailAddresses').select(['verifiedAt', 'suppressedAt']).where('addressHash', '=', addressHash).executeTakeFirst());
}

/**
 * The address's standing, its row locked until the write ends: an upsert that touches the row, so on
 * PostgreSQL two writes about one address take turns (a limit per address counted by one at a time),
 * new address or not. SQLite's writes take turns anyway.
 */
export async function lockAddress(db: Db, addressHash: string): Promise<AddressStanding> {
  const row = await db
    .insertInto('mailAddresses')
    .values({ addressHash, verifiedAt: null, suppressedAt: null, suppressedReason: null })
    .onConflict((conflict) => conflict.column('addressHash').doUpdateSet((eb) => ({ addressHash: eb.ref('excluded.addressHash') })))
    .returning(['verifiedAt', 'suppressedAt'])
    .executeTakeFirstOrThrow();
  return standingOf(row);
}

export async function markVerified(db: Db, addressHash: string, at: number): Promise<void> {
  await db
    .insertInto('mailAddresses')
    .values({ addressHash, verifiedAt: at, suppressedAt: null, suppressedReason: null })
    .onConflict((conflict) => conflict.column('addressHash').doUpdateSet({ verifiedAt: at }).where('mailAddresses.verifiedAt', 'is', null))
    .execute();
}

/** Puts the address on the suppression list (kept: an erase leaves it, so an erased address is never mailed again). */
export async function suppress(db: Db, addressHash: string, reason: 'unsubscribed' | 'erased', at: number): Promise<void> {
  const values = { suppressedAt: at, suppressedReason: reason, ...(reason === 'erased' ? { verifiedAt: null } : {}) };
  await db
    .insertInto('mailAddresses')
    .values({ addressHash, verifiedAt: null, ...values })
    .onConflict((conflict) => conflict.column('addressHash').doUpdateSet(values))
    .execute();
}

export function findAddressRow(db: Db, addressHash: string) {
  return db.selectFrom('mailAddresses').selectAll().where('addressHash', '=', addressHash).executeTakeFirst();
}

// ---------- the record of mails sent ----------

/** Whether this job's mail went already (a retry after the send and its record); `dueAt` tells a retry from a reused job row. */
export async function sentByJob(db: Db, job: { jobId: number; dueAt: number }): Promise<boolean> {
  const row = await db.selectFrom('sentMails').select('id').where('jobId', '=', job.jobId).where('jobDueAt', '=', job.dueAt).executeTakeFirst();
  return row !== undefined;
}

/** Mails to `recipient` of the given purposes since `since` (epoch ms). */
export async function countSentTo(db: Db, recipient: string, purposes: readonly string[], since: number): Promise<number> {
  const row = await db
    .selectFrom('sentMails')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('recipient', '=', recipient)
    .where('purpose', 'in', purposes)
    .where('sentAt', '>', since)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Mails to addresses not proven at the time, since `since`: the global cap. */
export async function countSentUnverified(db: Db, since: number): Promise<number> {
  const row = await db
    .selectFrom('sentMails')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('sentAt', '>', since)
    .where('toVerified', '=', 0)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export interface SentMailRecord {
  jobId: number;
  jobDueAt: number;
  recipient: string;
  purpose: string;
  subject: string;
  messageId: string | null;
  outboxFile: string | null;
  toVerified: boolean;
  sentAt: number;
  subjects: readonly string[];
}

/** Records a mail sent; a retry's second record of one job's mail adds nothing. */
export async function recordSent(db: Db, mail: SentMailRecord): Promise<void> {
  const row = await db
    .insertInto('sentMails')
    .values({
      jobId: mail.jobId,
      jobDueAt: mail.jobDueAt,
      recipient: mail.recipient,
      purpose: mail.purpose,
      subject: mail.subject,
      messageId: mail.messageId,
      outboxFile: mail.outboxFile,
      toVerified: mail.toVerified ? 1 : 0,
      sentAt: mail.sentAt,
    })
    .onConflict((conflict) => conflict.columns(['jobId', 'jobDueAt']).doNothing())
    .returning('id')
    .executeTakeFirst();
  const subjects = [...new Set(mail.subjects)];
  if (row && subjects.length > 0) await db.insertInto('sentMailSubjects').values(subjects.map((subject) => ({ sentMailId: row.id, subject }))).execute();
}

// ---------- work waiting for an address to confirm itself ----------

export async function addConfirmation(db: Db, confirmation: { address: string; thenKind: string; thenPayload: string; createdAt: number }): Promise<number> {
  const row = await db.insertInto('mailAddressConfirmations').values({ ...confirmation, confirmedAt: null }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findConfirmation(db: Db, id: number) {
  return db.selectFrom('mailAddressConfirmations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks the confirmation done; false when it was already (a second click changes nothing). */
export async function markConfirmed(db: Db, id: number, at: number): Promise<boolean> {
  const result = await db.updateTable('mailAddressConfirmations').set({ confirmedAt: at }).where('id', '=', id).where('confirmedAt', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
