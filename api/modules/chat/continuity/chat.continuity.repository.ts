import { sql } from 'kysely';
import type { Db } from '../../../../db/client';
import { lockedForUpdate } from '../../../../db/query-helpers';
import type { ChatContinuityMailsTable, ChatMessageRow, ChatSessionRow } from '../../../../db/schema';

// Seen receipts, the mailed link's grants, continuity mails and transcripts
// (DESIGN.md 10): the chat's tables of "the visitor is never lost".

// ---------- who may act in a session: its owner, or a visitor its mailed link let in ----------

/** True when the visitor opened this session's mailed link on their device (a grant) and that link's token has not expired at `now`. */
export async function hasGrant(db: Db, visitorId: string, sessionId: string, now = Date.now()): Promise<boolean> {
  const row = await db
    .selectFrom('chatSessionGrants')
    .select('sessionId')
    .where('visitorId', '=', visitorId)
    .where('sessionId', '=', sessionId)
    .where('expiresAt', '>', new Date(now).toISOString())
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Lets the visitor act in this one session until the link's token expires (`expiresAt`, ISO). A
 * second grant of the same keeps the later expiry: a newer mail's link lasts as long as its token.
 */
export async function addGrant(db: Db, grant: { visitorId: string; sessionId: string; createdAt: string; expiresAt: string }): Promise<void> {
  await db
    .insertInto('chatSessionGrants')
    .values(grant)
    .onConflict((conflict) =>
      conflict
        .columns(['visitorId', 'sessionId'])
        .doUpdateSet((eb) => ({ expiresAt: eb.ref('excluded.expiresAt') }))
        .where((eb) => eb('chatSessionGrants.expiresAt', '<', eb.ref('excluded.expiresAt'))),
    )
    .execute();
}

/** The session, when the visitor owns it or holds its unexpired grant; undefined for a stranger's and for none. */
export async function findVisibleSession(db: Db, visitorId: string, sessionId: string, now = Date.now()): Promise<ChatSessionRow | undefined> {
  const session = await db.selectFrom('chatSessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
  if (!session) return undefined;
  if (session.visitorId === visitorId || (await hasGrant(db, visitorId, sessionId, now))) return session;
  return undefined;
}

// ---------- seen receipts ----------

/**
 * Moves the visitor's seen seq forward to `upTo` (at most the session's last seq), in their own or
 * granted session: one statement. Answers the new seq, or undefined when nothing changed (not
 * forward, or not a session of theirs: the caller tells which).
 */
export async function markSeen(db: Db, seen: { sessionId: string; visitorId: string; upTo: number }): Promise<number | undefined> {
  const row = await db
    .updateTable('chatSessions')
    .set((eb) => ({
      visitorSeenSeq: eb.case().when(eb.val(seen.upTo), '<', eb.ref('lastSeq')).then(eb.val(seen.upTo)).else(eb.ref('lastSeq')).end(),
      // A change of the session's state: a reconnecting dashboard's resync finds it (chat.resync.ts).
      version: eb('version', '+', 1),
    }))
    .where('id', '=', seen.sessionId)
    .where('visitorSeenSeq', '<', seen.upTo)
    .whereRef('visitorSeenSeq', '<', 'lastSeq')
    .where((eb) =>
      eb.or([
        eb('visitorId', '=', seen.visitorId),
        eb.exists(
          eb
            .selectFrom('chatSessionGrants')
            .select(sql.lit(1).as('one'))
            .whereRef('chatSessionGrants.sessionId', '=', 'chatSessions.id')
            .where('chatSessionGrants.visitorId', '=', seen.visitorId)
            .where('chatSessionGrants.expiresAt', '>', new Date().toISOString()),
        ),
      ]),
    )
    .returning('visitorSeenSeq')
    .executeTakeFirst();
  return row?.visitorSeenSeq;
}

// ---------- continuity mails ----------

/** The staff replies of a session with seq in `(after, upTo]`, oldest first, with their authors' names. */
export function staffRepliesBetween(
  db: Db,
  range: { sessionId: string; after: number; upTo: number },
): Promise<(ChatMessageRow & { authorEmail: string | null; authorDisplayName: string | null })[]> {
  return db
    .selectFrom('chatMessages')
    .leftJoin('admins', 'admins.id', 'chatMessages.authorStaffId')
    .selectAll('chatMessages')
    .select(['admins.email as authorEmail', 'admins.displayName as authorDisplayName'])
    .where('chatMessages.sessionId', '=', range.sessionId)
    .where('chatMessages.kind', '=', 'staff')
    .where('chatMessages.seq', '>', range.after)
    .where('chatMessages.seq', '<=', range.upTo)
    .orderBy('chatMessages.seq')
    .execute();
}

export function findContinuityMail(db: Db, sessionId: string): Promise<ChatContinuityMailsTable | undefined> {
  return db.selectFrom('chatContinuityMails').selectAll().where('sessionId', '=', sessionId).executeTakeFirst();
}

/**
 * Takes the session's next continuity mail for this job, if its last one went at least `spacingMs`
 * ago (or none did): one conditional upsert, so of two nodes at once only one gets it. False when
 * too soon (nothing written).
 */
export async function claimContinuityMail(
  db: Db,
  claim: { sessionId: string; jobId: number; afterSeq: number; upToSeq: number; now: number; spacingMs: number },
): Promise<boolean> {
  const mail = { jobId: claim.jobId, afterSeq: claim.afterSeq, upToSeq: claim.upToSeq, mailedAt: claim.now };
  const row = await db
    .insertInto('chatContinuityMails')
    .values({ sessionId: claim.sessionId, ...mail })
    .onConflict((conflict) =>
      conflict
        .column('sessionId')
        .doUpdateSet(mail)
        .where('chatContinuityMails.mailedAt', '<=', claim.now - claim.spacingMs),
    )
    .returning('jobId')
    .executeTakeFirst();
  return row?.jobId === claim.jobId;
}

// ---------- transcripts ----------

/** The session row, locked until the write ends (PostgreSQL): two transcript requests of one session take turns. */
export function lockSession(db: Db, sessionId: string): Promise<ChatSessionRow | undefined> {
  return lockedForUpdate(db, db.selectFrom('chatSessions').selectAll().where('id', '=', sessionId)).executeTakeFirst();
}

/** The newest transcript request of the session since `since` (epoch ms). */
export async function lastTranscriptOfSession(db: Db, sessionId: string, since: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('chatTranscriptRequests')
    .select((eb) => eb.fn.max('requestedAt').as('at'))
    .where('sessionId', '=', sessionId)
    .where('requestedAt', '>', since)
    .executeTakeFirst();
  return row?.at == null ? undefined : Number(row.at);
}

/** How many transcripts went to `email` (lower case) since `since`. */
export async function countTranscriptsTo(db: Db, email: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('chatTranscriptRequests')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('email', '=', email)
    .where('requestedAt', '>', since)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export async function addTranscriptRequest(db: Db, request: { sessionId: string; email: string; requestedAt: number }): Promise<number> {
  const row = await db.insertInto('chatTranscriptRequests').values(request).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findTranscriptRequest(db: Db, id: number) {
  return db.selectFrom('chatTranscriptRequests').selectAll().where('id', '=', id).executeTakeFirst();
}

