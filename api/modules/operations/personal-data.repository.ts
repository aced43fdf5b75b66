import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { equalsIgnoringCase } from '../../../db/query-helpers';
import { type LeadTable, leadTables } from '../../../db/schema';
import type { LeadKind } from '../../contract/leads';
import { aboutSubjects } from '../mail';

/**
 * The rows that hold one person's data (or that retention is due to erase), by id: the leads, the
 * chat sessions, and the rows that hang off them. Everything else (their messages, page views,
 * continuity and transcript records, webhook deliveries, jobs) is found from these.
 */
export interface PersonalRows {
  leads: Record<LeadKind, number[]>;
  trialSignupIds: number[];
  sessionIds: string[];
  /** Transcripts mailed to the email, whatever their session. */
  transcriptIds: number[];
  /** The mail policy's row of the address (by its hash: verified, suppressed). */
  addressHashes: string[];
  /** Mails sent to the email (the record of the mail policy); mails about the rows are found from these. */
  sentMailIds: number[];
  /** Work waiting for the address to confirm itself. */
  confirmationIds: number[];
  /** Dealer accounts and their password resets. */
  userIds: number[];
  resetIds: number[];
}

const leadKinds = Object.keys(leadTables) as LeadKind[];

function noLeads(): Record<LeadKind, number[]> {
  return { contact: [], support: [], demo: [], 'get-started': [] };
}

const ids = async <T>(rows: Promise<{ id: T }[]>): Promise<T[]> => (await rows).map((row) => row.id);
const none = <T>(list: readonly T[]) => list.length === 0;

/** Whether any row was found. */
export function foundAny(rows: PersonalRows): boolean {
  return (
    leadKinds.some((kind) => rows.leads[kind].length > 0) ||
    [rows.trialSignupIds, rows.sessionIds, rows.transcriptIds, rows.sentMailIds, rows.confirmationIds, rows.userIds, rows.resetIds].some((list) => list.length > 0)
  );
}

/** Everything stored for one email, in any case (emails are stored as typed); `addressHash` is the mail policy's hash of it. */
export async function findRowsByEmail(db: Db, email: string, addressHash: string): Promise<PersonalRows> {
  const leads = noLeads();
  for (const kind of leadKinds) leads[kind] = await ids(db.selectFrom(leadTables[kind]).select('id').where(equalsIgnoringCase('email', email)).execute());
  const bySender = db.selectFrom('chatMessages').select('sessionId').where(equalsIgnoringCase('senderEmail', email));
  const sessionIds = await ids(
    db
      .selectFrom('chatSessions')
      .select('id')
      .where((eb) => eb.or([equalsIgnoringCase('senderEmail', email), eb('id', 'in', bySender)]))
      .execute(),
  );
  const userIds = await ids(db.selectFrom('users').select('id').where(equalsIgnoringCase('email', email)).execute());
  return {
    leads,
    trialSignupIds: await ids(db.selectFrom('trialSignups').select('id').where(equalsIgnoringCase('email', email)).execute()),
    sessionIds,
    transcriptIds: await ids(db.selectFrom('chatTranscriptRequests').select('id').where(equalsIgnoringCase('email', email)).execute()),
    addressHashes: (await db.selectFrom('mailAddresses').select('addressHash').where('addressHash', '=', addressHash).execute()).map((row) => row.addressHash),
    // The policy records recipients in lower case: an exact match, never a search of mail contents.
    sentMailIds: await ids(db.selectFrom('sentMails').select('id').where('recipient', '=', email.toLowerCase()).execute()),
    confirmationIds: await ids(db.selectFrom('mailAddressConfirmations').select('id').where('address', '=', email.toLowerCase()).execute()),
    userIds,
    resetIds: await ids(db.selectFrom('passwordResets').select('id').where(equalsIgnoringCase('email', email)).execute()),
  };
}

/** Up to `limit` chats whose last message, and of each kind up to `limit` leads whose last change, came before `before` (ISO text): retention's share. */
export async function findRowsOlderThan(db: Db, before: string, limit: number): Promise<PersonalRows> {
  const leads = noLeads();
  for (const kind of leadKinds) leads[kind] = await ids(db.selectFrom(leadTables[kind]).select('id').where('updatedAt', '<', before).limit(limit).execute());
  return {
    leads,
    trialSignupIds: [],
    sessionIds: await ids(db.selectFrom('chatSessions').select('id').where('lastMessageAt', '<', before).limit(limit).execute()),
    transcriptIds: [],
    addressHashes: [],
    sentMailIds: [],
    confirmationIds: [],
    userIds: [],
    resetIds: [],
  };
}

/** What hangs off the rows: message ids, transcript requests of the sessions, mails sent to or about them, webhook deliveries, jobs. */
interface Dependents {
  messageIds: number[];
  transcriptIds: number[];
  sentMailIds: number[];
  deliveryIds: string[];
  jobs: { id: number; payload: string; remove: boolean }[];
}

async function findDependents(db: Db, rows: PersonalRows): Promise<Dependents> {
  const messageIds = none(rows.sessionIds) ? [] : await ids(db.selectFrom('chatMessages').select('id').where('sessionId', 'in', rows.sessionIds).execute());
  const ofSessions = none(rows.sessionIds) ? [] : await ids(db.selectFrom('chatTranscriptRequests').select('id').where('sessionId', 'in', rows.sessionIds).execute());
  const transcriptIds = [...new Set([...rows.transcriptIds, ...ofSessions])];
  // Mails about the rows (a staff notice quoting a lead's phone, an escalation quoting a chat), by the
  // rows each names in the mail policy's record (mail.policy.ts `aboutSubjects`).
  const mailSubjects = aboutSubjects({ sessions: rows.sessionIds, leads: leadKinds.flatMap((kind) => rows.leads[kind].map((id) => ({ kind, id }))) });
  const aboutThem = none(mailSubjects) ? [] : (await db.selectFrom('sentMailSubjects').select('sentMailId').where('subject', 'in', mailSubjects).execute()).map((row) => row.sentMailId);
  const sentMailIds = [...new Set([...rows.sentMailIds, ...aboutThem])];
  const subjects = [
    ...leadKinds.flatMap((kind) => rows.leads[kind].map((id) => `lead:${kind}|${id}`)),
    ...messageIds.map((id) => `chat-message|${id}`),
  ];
  const deliveryIds = none(subjects)
    ? []
    : await ids(
        db
          .selectFrom('webhookDeliveries')
          .select('id')
          .where(sql<string>`${sql.ref('subjectKind')} || '|' || ${sql.ref('subjectId')}`, 'in', subjects)
          .execute(),
      );
  const refers = referencesOf({ rows, messageIds, transcriptIds, deliveryIds });
  const jobs: Dependents['jobs'] = [];
  for (const job of await db.selectFrom('jobs').select(['id', 'payload']).execute()) {
    const payload = parseObject(job.payload);
    if (!payload) continue;
    if (Array.isArray(payload.items)) {
      // A batch (a digest): the other items stay, unless none is left.
      const items = payload.items as unknown[];
      const kept = items.filter((item) => !refers(item));
      if (kept.length === items.length) continue;
      jobs.push({ id: job.id, payload: JSON.stringify({ ...payload, items: kept }), remove: kept.length === 0 });
    } else if (refers(payload)) {
      jobs.push({ id: job.id, payload: job.payload, remove: true });
    }
  }
  return { messageIds, transcriptIds, sentMailIds, deliveryIds, jobs };
}

/** Whether a job payload of ids points at one of the rows (each job kind names its ids so: sessionId, {kind, id}, requestId, ...). */
function referencesOf(found: { rows: PersonalRows; messageIds: number[]; transcriptIds: number[]; deliveryIds: string[] }) {
  const { rows } = found;
  const sessions = new Set(rows.sessionIds);
  const leads = new Set(leadKinds.flatMap((kind) => rows.leads[kind].map((id) => `${kind}|${id}`)));
  const messages = new Set(found.messageIds.map(String));
  const transcripts = new Set(found.transcriptIds);
  const resets = new Set(rows.resetIds);
  const confirmations = new Set(rows.confirmationIds);
  const deliveries = new Set(found.deliveryIds);
  return (value: unknown): boolean => {
    if (value === null || typeof value !== 'object') return false;
    const payload = value as Record<string, unknown>;
    if (typeof payload.sessionId === 'string' && sessions.has(payload.sessionId)) return true;
    if (typeof payload.kind === 'string' && typeof payload.id === 'number' && leads.has(`${payload.kind}|${payload.id}`)) return true;
    if (typeof payload.requestId === 'number' && transcripts.has(payload.requestId)) return true;
    if (typeof payload.resetId === 'number' && resets.has(payload.resetId)) return true;
    if (typeof payload.confirmationId === 'number' && confirmations.has(payload.confirmationId)) return true;
    if (typeof payload.deliveryId === 'string' && deliveries.has(payload.deliveryId)) return true;
    if (typeof payload.subjectKind === 'string' && typeof payload.subjectId === 'string') {
      if (payload.subjectKind === 'chat-message') return messages.has(payload.subjectId);
      return leads.has(`${payload.subjectKind.replace(/^lead:/, '')}|${payload.subjectId}`);
    }
    return false;
  };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export type StoredRows = Record<string, Record<string, unknown>[]>;

/** The rows themselves, as stored, by table (an export). */
export async function readRows(db: Db, rows: PersonalRows): Promise<StoredRows> {
  const dependents = await findDependents(db, rows);
  const tables: StoredRows = {};
  const put = async (name: string, list: Promise<Record<string, unknown>[]>) => {
    const found = await list;
    if (found.length > 0) tables[name] = found;
  };
  for (const kind of leadKinds) {
    const table: LeadTable = leadTables[kind];
    if (!none(rows.leads[kind])) await put(table, db.selectFrom(table).selectAll().where('id', 'in', rows.leads[kind]).execute());
  }
  if (!none(rows.trialSignupIds)) await put('trialSignups', db.selectFrom('trialSignups').selectAll().where('id', 'in', rows.trialSignupIds).execute());
  if (!none(rows.sessionIds)) {
    const sessionIds = rows.sessionIds;
    await put('chatSessions', db.selectFrom('chatSessions').selectAll().where('id', 'in', sessionIds).execute());
    await put('chatMessages', db.selectFrom('chatMessages').selectAll().where('sessionId', 'in', sessionIds).orderBy('sessionId').orderBy('seq').execute());
    await put('chatPageViews', db.selectFrom('chatPageViews').selectAll().where('sessionId', 'in', sessionIds).execute());
    await put('chatContinuityMails', db.selectFrom('chatContinuityMails').selectAll().where('sessionId', 'in', sessionIds).execute());
    await put('chatSessionGrants', db.selectFrom('chatSessionGrants').selectAll().where('sessionId', 'in', sessionIds).execute());
    await put('chatNotes', db.selectFrom('chatNotes').selectAll().where('sessionId', 'in', sessionIds).orderBy('id').execute());
  }
  if (!none(dependents.transcriptIds)) await put('chatTranscriptRequests', db.selectFrom('chatTranscriptRequests').selectAll().where('id', 'in', dependents.transcriptIds).execute());
  if (!none(rows.addressHashes)) await put('mailAddresses', db.selectFrom('mailAddresses').selectAll().where('addressHash', 'in', rows.addressHashes).execute());
  if (!none(rows.confirmationIds)) await put('mailAddressConfirmations', db.selectFrom('mailAddressConfirmations').selectAll().where('id', 'in', rows.confirmationIds).execute());
  if (!none(dependents.sentMailIds)) {
    await put('sentMails', db.selectFrom('sentMails').selectAll().where('id', 'in', dependents.sentMailIds).orderBy('id').execute());
    await put('sentMailSubjects', db.selectFrom('sentMailSubjects').selectAll().where('sentMailId', 'in', dependents.sentMailIds).execute());
  }
  // A dealer account without its password hash.
  if (!none(rows.userIds)) await put('users', db.selectFrom('users').select(['id', 'username', 'email', 'createdAt']).where('id', 'in', rows.userIds).execute());
  if (!none(rows.resetIds)) await put('passwordResets', db.selectFrom('passwordResets').select(['id', 'email', 'expiresAt', 'createdAt', 'used']).where('id', 'in', rows.resetIds).execute());
  if (!none(dependents.deliveryIds)) await put('webhookDeliveries', db.selectFrom('webhookDeliveries').selectAll().where('id', 'in', dependents.deliveryIds).execute());
  if (!none(dependents.jobs)) await put('jobs', db.selectFrom('jobs').selectAll().where('id', 'in', dependents.jobs.map((job) => job.id)).execute());
  return tables;
}

/**
 * Deletes the rows and what hangs off them, in the caller's write; answers how many rows of each table
 * went, and the outbox files of the mails erased (removed by the caller once the write commits). The
 * address's suppression entry stays (a hash): the caller adds it, so an erased address is never mailed again.
 */
export async function eraseRows(db: Db, rows: PersonalRows): Promise<{ counts: Record<string, number>; outboxFiles: string[] }> {
  const dependents = await findDependents(db, rows);
  const outboxFiles = none(dependents.sentMailIds)
    ? []
    : (await db.selectFrom('sentMails').select('outboxFile').where('id', 'in', dependents.sentMailIds).execute()).flatMap((row) => (row.outboxFile ? [row.outboxFile] : []));
  const counts: Record<string, number> = {};
  const count = (name: string, result: { numDeletedRows: bigint } | { numUpdatedRows: bigint }) => {
    const changed = Number('numDeletedRows' in result ? result.numDeletedRows : result.numUpdatedRows);
    if (changed > 0) counts[name] = (counts[name] ?? 0) + changed;
  };
  for (const kind of leadKinds) {
    const table: LeadTable = leadTables[kind];
    if (!none(rows.leads[kind])) count(table, await db.deleteFrom(table).where('id', 'in', rows.leads[kind]).executeTakeFirst());
  }
  if (!none(rows.trialSignupIds)) count('trialSignups', await db.deleteFrom('trialSignups').where('id', 'in', rows.trialSignupIds).executeTakeFirst());
  if (!none(rows.sessionIds)) {
    const sessionIds = rows.sessionIds;
    count('chatMessages', await db.deleteFrom('chatMessages').where('sessionId', 'in', sessionIds).executeTakeFirst());
    count('chatPageViews', await db.deleteFrom('chatPageViews').where('sessionId', 'in', sessionIds).executeTakeFirst());
    count('chatContinuityMails', await db.deleteFrom('chatContinuityMails').where('sessionId', 'in', sessionIds).executeTakeFirst());
    count('chatSessionGrants', await db.deleteFrom('chatSessionGrants').where('sessionId', 'in', sessionIds).executeTakeFirst());
    count('chatNotes', await db.deleteFrom('chatNotes').where('sessionId', 'in', sessionIds).executeTakeFirst());
    count('chatSessions', await db.deleteFrom('chatSessions').where('id', 'in', sessionIds).executeTakeFirst());
  }
  if (!none(dependents.transcriptIds)) count('chatTranscriptRequests', await db.deleteFrom('chatTranscriptRequests').where('id', 'in', dependents.transcriptIds).executeTakeFirst());
  if (!none(rows.confirmationIds)) count('mailAddressConfirmations', await db.deleteFrom('mailAddressConfirmations').where('id', 'in', rows.confirmationIds).executeTakeFirst());
  if (!none(dependents.sentMailIds)) {
    count('sentMailSubjects', await db.deleteFrom('sentMailSubjects').where('sentMailId', 'in', dependents.sentMailIds).executeTakeFirst());
    count('sentMails', await db.deleteFrom('sentMails').where('id', 'in', dependents.sentMailIds).executeTakeFirst());
  }
  if (!none(rows.userIds)) {
    count('sessions', await db.deleteFrom('sessions').where('dealerId', 'in', rows.userIds).executeTakeFirst());
    count('users', await db.deleteFrom('users').where('id', 'in', rows.userIds).executeTakeFirst());
  }
  if (!none(rows.resetIds)) count('passwordResets', await db.deleteFrom('passwordResets').where('id', 'in', rows.resetIds).executeTakeFirst());
  if (!none(dependents.deliveryIds)) {
    count('webhookAttempts', await db.deleteFrom('webhookAttempts').where('deliveryId', 'in', dependents.deliveryIds).executeTakeFirst());
    count('webhookDeliveries', await db.deleteFrom('webhookDeliveries').where('id', 'in', dependents.deliveryIds).executeTakeFirst());
  }
  for (const job of dependents.jobs) {
    if (job.remove) count('jobs', await db.deleteFrom('jobs').where('id', '=', job.id).executeTakeFirst());
    else count('jobs', await db.updateTable('jobs').set({ payload: job.payload }).where('id', '=', job.id).executeTakeFirst());
  }
  return { counts, outboxFiles };
}
