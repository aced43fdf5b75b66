import { type ExpressionBuilder, type QueryCreator, sql } from 'kysely';
import type { Db } from '../../../../db/client';
import { prepareQuery } from '../../../../db/prepared';
import { chainsWrites } from '../../../../db/query-helpers';
import type { ChatMessageRow, ChatSessionRow, Database, NewChatMessage, NewChatSession } from '../../../../db/schema';

/** A statement's target: the app's db for a read, or a write's `tx.db`. */
export type Executor = Pick<Db, 'selectFrom' | 'insertInto' | 'updateTable' | 'deleteFrom'>;

// The queries of every chat message and every poll run prepared (db/prepared.ts).
const sessionById = prepareQuery((db: Db, params: { id: string }) => db.selectFrom('chatSessions').selectAll().where('id', '=', params.id));

export function findSession(db: Db, id: string): Promise<ChatSessionRow | undefined> {
  return sessionById.first(db, { id });
}

const insertSessionIfAbsent = prepareQuery((db: Db, session: NewChatSession) =>
  db
    .insertInto('chatSessions')
    .values({
      id: session.id,
      visitorId: session.visitorId,
      pageUrl: session.pageUrl,
      referrer: session.referrer,
      userAgent: session.userAgent,
      senderEmail: session.senderEmail,
      timeZone: session.timeZone,
      lastMessageAt: session.lastMessageAt,
      createdAt: session.createdAt,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returningAll(),
);

/** Creates the session unless another request created it first; either way answers the stored row. */
export async function createSessionIfAbsent(db: Db, session: NewChatSession): Promise<{ row: ChatSessionRow; created: boolean }> {
  const inserted = await insertSessionIfAbsent.first(db, session);
  if (inserted) return { row: inserted, created: true };
  const existing = await findSession(db, session.id);
  if (!existing) throw new Error(`chat session ${session.id} vanished during creation`);
  return { row: existing, created: false };
}

const insertMessageOnce = prepareQuery((db: Db, message: NewChatMessage) =>
  db
    .insertInto('chatMessages')
    .values({
      sessionId: message.sessionId,
      message: message.message,
      senderEmail: message.senderEmail,
      senderName: message.senderName,
      isFromUser: message.isFromUser,
      kind: message.kind,
      authorStaffId: message.authorStaffId,
      seq: message.seq,
      clientId: message.clientId,
      createdAt: message.createdAt,
    })
    .onConflict((conflict) => conflict.columns(['sessionId', 'clientId']).where('clientId', 'is not', null).doNothing())
    .returningAll(),
);
const messageByClientId = prepareQuery((db: Db, params: { sessionId: string; clientId: string | null }) =>
  db.selectFrom('chatMessages').selectAll().where('sessionId', '=', params.sessionId).where('clientId', '=', params.clientId),
);

// Taking the next seq updates the session row, which locks it (PostgreSQL) until the message's
// transaction ends: the messages of one session are numbered in the order they commit. The same
// update records the activity, so a message costs one session write. It numbers only a message
// that is new to its session (no stored row has its clientId) and, for a visitor, only in their own
// session: otherwise it changes nothing, and the caller finds out which case it is.
const notStoredYet = (eb: ExpressionBuilder<Database, 'chatSessions'>, sessionId: string, clientId: string | null) =>
  eb.not(
    eb.exists(
      eb.selectFrom('chatMessages').select(sql.lit(1).as('one')).where('chatMessages.sessionId', '=', sessionId).where('chatMessages.clientId', '=', clientId),
    ),
  );

type NumberingParams = {
  sessionId: string;
  clientId: string | null;
  lastMessageAt: string;
  /** A visitor's: only their own session is numbered. */
  visitorId: string;
  /** The email a visitor's message gives, kept on the session (none: the session keeps its own). */
  newestEmail: string | null;
};
type Updates = Pick<QueryCreator<Database>, 'updateTable'>;

const numberVisitorMessage = (db: Updates, params: NumberingParams) =>
  db
    .updateTable('chatSessions')
    .set((eb) => ({
      lastSeq: eb('lastSeq', '+', 1),
      lastMessageAt: params.lastMessageAt,
      senderEmail: eb.fn.coalesce(eb.val(params.newestEmail), eb.ref('senderEmail')),
      version: eb('version', '+', 1),
    }))
    .where('id', '=', params.sessionId)
    .where('visitorId', '=', params.visitorId)
    // A resolved session is reopened by the slower path, which tells staff (chat.service.ts, reopenWith).
    .where('status', '=', 'open')
    .where((eb) => notStoredYet(eb, params.sessionId, params.clientId))
    .returning(['lastSeq', 'lastReadSeq', 'escalatedSeq']);
// Staff replied: read up to the reply (both sides of `set` see the row as it was).
const numberStaffMessage = (db: Updates, params: NumberingParams) =>
  db
    .updateTable('chatSessions')
    .set((eb) => ({ lastSeq: eb('lastSeq', '+', 1), lastReadSeq: eb('lastSeq', '+', 1), lastMessageAt: params.lastMessageAt, version: eb('version', '+', 1) }))
    .where('id', '=', params.sessionId)
    .where((eb) => notStoredYet(eb, params.sessionId, params.clientId))
    .returning(['lastSeq', 'lastReadSeq', 'escalatedSeq']);

const giveBackSeq = prepareQuery((db: Db, params: { id: string; seq: number }) =>
  db
    .updateTable('chatSessions')
    .set((eb) => ({ lastSeq: eb('lastSeq', '-', 1) }))
    .where('id', '=', params.id)
    .where('lastSeq', '=', params.seq),
);

type MessageParams = NumberingParams & Omit<NewChatMessage, 'seq' | 'id'>;
/** One author's statements: the numbering alone, and (PostgreSQL: chainsWrites) the numbering feeding the insert in one statement. */
const numberingStatements = (numbering: typeof numberVisitorMessage) => ({
  nextSeq: prepareQuery((db: Db, params: NumberingParams) => numbering(db, params)),
  addAtOnce: prepareQuery((db: Db, params: MessageParams) =>
    db
      .with('numbered', (qb) => numbering(qb, params))
      .insertInto('chatMessages')
      .columns(['sessionId', 'message', 'senderEmail', 'senderName', 'isFromUser', 'kind', 'authorStaffId', 'seq', 'clientId', 'createdAt'])
      .expression((eb) =>
        eb
          .selectFrom('numbered')
          .select((select) => [
            select.val(params.sessionId).as('sessionId'),
            select.val(params.message).as('message'),
            select.val(params.senderEmail).as('senderEmail'),
            select.val(params.senderName).as('senderName'),
            select.val(params.isFromUser).as('isFromUser'),
            select.val(params.kind).as('kind'),
            select.val(params.authorStaffId).as('authorStaffId'),
            'numbered.lastSeq',
            select.val(params.clientId).as('clientId'),
            select.val(params.createdAt).as('createdAt'),
          ]),
      )
      .returningAll()
      // PostgreSQL only (the chained statement): whether staff had read or been mailed everything before it (opensUnread()).
      .returning(sql<boolean>`(select numbered.last_seq - 1 <= greatest(numbered.last_read_seq, numbered.escalated_seq) from numbered)`.as('opensUnread')),
  ),
});
const statementsOf = { visitor: numberingStatements(numberVisitorMessage), staff: numberingStatements(numberStaffMessage) };

/** Who wrote, and what their message changes on the session besides its order. */
export type MessageAuthor = { by: 'visitor'; visitorId: string; senderEmail: string | null } | { by: 'staff' };

/**
 * A new message, and whether it is the first of its session that staff have neither read nor been
 * mailed (escalation, chat.escalation.ts): the message before it is at or below both pointers.
 */
export type AddedMessage = { row: ChatMessageRow; opensUnread: boolean };

export type StoredMessage = { row: ChatMessageRow; created: boolean; opensUnread?: boolean };

const opensUnread = (numbered: { lastSeq: number; lastReadSeq: number; escalatedSeq: number }) =>
  numbered.lastSeq - 1 <= Math.max(numbered.lastReadSeq, numbered.escalatedSeq);

const numberingOf = (message: Omit<NewChatMessage, 'seq'>, author: MessageAuthor): NumberingParams => ({
  sessionId: message.sessionId,
  clientId: message.clientId ?? null,
  lastMessageAt: message.createdAt,
  visitorId: author.by === 'visitor' ? author.visitorId : '',
  newestEmail: author.by === 'visitor' ? author.senderEmail : null,
});

/**
 * The common case of a message, a new one to a session that exists (and, for a visitor, is theirs):
 * it takes the session's next seq, marks the session active and stores the row, which it answers.
 * Anything else (a clientId already stored, no such session, someone else's) changes nothing and
 * answers undefined, for storeMessage() to sort out. On PostgreSQL it is one statement, one round
 * trip instead of two; a copy committed by another connection a moment earlier fails it with a
 * unique violation, which ends the transaction: the caller runs its write again (chat.service.ts).
 */
export async function addMessage(db: Db, message: Omit<NewChatMessage, 'seq'>, author: MessageAuthor): Promise<AddedMessage | undefined> {
  if (!chainsWrites(db)) return addNumbered(db, message, author);
  const row = await statementsOf[author.by].addAtOnce.first(db, { ...message, ...numberingOf(message, author) });
  return row && { row, opensUnread: Boolean(row.opensUnread) };
}

/** addMessage() in two statements, which a transaction can run too (a failed statement would end PostgreSQL's). */
async function addNumbered(db: Db, message: Omit<NewChatMessage, 'seq'>, author: MessageAuthor): Promise<AddedMessage | undefined> {
  const numbering = numberingOf(message, author);
  const numbered = await statementsOf[author.by].nextSeq.first(db, numbering);
  if (!numbered) return undefined;
  const inserted = await insertMessageOnce.first(db, { ...message, seq: numbered.lastSeq });
  if (inserted) return { row: inserted, opensUnread: opensUnread(numbered) };
  // The same clientId committed by another process between the update's look and its lock: its
  // row stands, and the seq goes back (the session's activity stays touched: harmless).
  await giveBackSeq.run(db, { id: message.sessionId, seq: numbered.lastSeq });
  return undefined;
}

/**
 * Stores a message, in the caller's write transaction, once per `(sessionId, clientId)`: a new one
 * takes the session's next seq and marks the session active (a visitor's reopens it and keeps the
 * newest email given; a staff reply reads it). Answers the new row with `created: true`; the row
 * stored the first time, with `created: false`, for a clientId already stored (the caller checks
 * whose session that is); or undefined when the session does not exist or is not the visitor's.
 * Only a new message changes anything.
 */
export async function storeMessage(
  db: Db,
  message: Omit<NewChatMessage, 'seq'>,
  author: MessageAuthor,
): Promise<StoredMessage | undefined> {
  const added = await addNumbered(db, message, author);
  if (added) return { row: added.row, created: true, opensUnread: added.opensUnread };
  // Nothing was written: a retry of a stored message, or no such session (of this visitor's).
  const clientId = message.clientId ?? null;
  const stored = clientId === null ? undefined : await messageByClientId.first(db, { sessionId: message.sessionId, clientId });
  return stored && { row: stored, created: false };
}

/** A message with its staff author's account (null fields for a visitor's, and for an author whose account is gone), for staff. */
export type AuthoredMessageRow = ChatMessageRow & { authorEmail: string | null; authorDisplayName: string | null };

/** Messages with their staff author's account, for staff (listSessionMessages, the resync's listAuthoredMessagesAfter). */
export const withAuthor = (db: Executor) =>
  db
    .selectFrom('chatMessages')
    .leftJoin('admins', 'admins.id', 'chatMessages.authorStaffId')
    .selectAll('chatMessages')
    .select(['admins.email as authorEmail', 'admins.displayName as authorDisplayName']);

const messagesOfSession = prepareQuery((db: Db, params: { sessionId: string }) =>
  withAuthor(db).where('chatMessages.sessionId', '=', params.sessionId).orderBy('chatMessages.seq'),
);

export function listSessionMessages(db: Db, sessionId: string): Promise<AuthoredMessageRow[]> {
  return messagesOfSession.all(db, { sessionId });
}

/** The staff account that wrote a message, for its display name; undefined once the account is gone. */
export function findStaffAuthor(db: Executor, staffId: number): Promise<{ email: string; displayName: string | null } | undefined> {
  return db.selectFrom('admins').select(['email', 'displayName']).where('id', '=', staffId).executeTakeFirst();
}

const messagesOfSessionWithOwner = prepareQuery((db: Db, params: { sessionId: string }) =>
  db
    .selectFrom('chatMessages')
    .innerJoin('chatSessions', 'chatSessions.id', 'chatMessages.sessionId')
    // A staff reply's author's chosen name, which the visitor sees (never the email).
    .leftJoin('admins', 'admins.id', 'chatMessages.authorStaffId')
    .selectAll('chatMessages')
    .select(['chatSessions.visitorId as ownerVisitorId', 'admins.displayName as authorDisplayName'])
    .where('chatMessages.sessionId', '=', params.sessionId)
    .orderBy('chatMessages.seq'),
);

/**
 * A session's messages with the session's owner on each row, in one query: the poll's hot path.
 * No rows means the session does not exist (a session is created with its first message).
 */
export function listSessionMessagesWithOwner(
  db: Db,
  sessionId: string,
): Promise<(ChatMessageRow & { ownerVisitorId: string; authorDisplayName: string | null })[]> {
  return messagesOfSessionWithOwner.all(db, { sessionId });
}

export async function listAllMessages(
  db: Executor,
  page: { limit: number; before?: { createdAt: string; id: number } },
): Promise<AuthoredMessageRow[]> {
  let query = withAuthor(db);
  // Ids are given in the order messages are stored, which is their `createdAt` order: the id half of
  // the cursor is enough, and the table's own key serves the order.
  if (page.before) query = query.where('chatMessages.id', '<', page.before.id);
  return query.orderBy('chatMessages.id', 'desc').limit(page.limit).execute();
}

export async function updateSession(
  db: Executor,
  id: string,
  change: { status?: string; markRead?: boolean; byStaffId?: number },
): Promise<boolean> {
  const result = await db
    .updateTable('chatSessions')
    .set((eb) => ({
      ...(change.status ? { status: change.status } : {}),
      ...(change.status === 'resolved' ? resolution(eb, change.byStaffId) : {}),
      ...(change.markRead
        ? { lastReadSeq: eb.ref('lastSeq') }
        : {}),
      version: eb('version', '+', 1),
    }))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * When and by whom a session was resolved, for the reports: set as it goes from open to resolved;
 * resolving a resolved session again keeps the first time (both sides of `set` see the row as it was).
 */
function resolution(eb: ExpressionBuilder<Database, 'chatSessions'>, byStaffId: number | undefined) {
  const wasResolved = eb('status', '=', 'resolved').and('resolvedAt', 'is not', null);
  return {
    resolvedAt: eb.case().when(wasResolved).then(eb.ref('resolvedAt')).else(new Date().toISOString()).end(),
    resolvedByStaffId: eb.case().when(wasResolved).then(eb.ref('resolvedByStaffId')).else(byStaffId ?? null).end(),
  };
}

/** The messages of the conversation a query over `chatSessions` is at. */
export const messagesOfListed = (eb: ExpressionBuilder<Database, 'chatSessions'>) => eb.selectFrom('chatMessages as m').whereRef('m.sessionId', '=', 'chatSessions.id');

/** What a list of conversations shows of each: its id and status, its last activity and message, and how many messages it holds. */
export function conversationListColumns(eb: ExpressionBuilder<Database, 'chatSessions'>) {
  return [
    'chatSessions.id',
    'chatSessions.status',
    'chatSessions.lastMessageAt as lastActivity',
    messagesOfListed(eb).select('m.message').orderBy('m.seq', 'desc').limit(1).as('lastMessage'),
    messagesOfListed(eb)
      .select((inner) => inner.fn.countAll<number>().as('count'))
      .as('messageCount'),
  ] as const;
}
