import type { Db } from '../../../../db/client';
import type { ChatMessageRow } from '../../../../db/schema';
import { type AuthoredMessageRow, conversationListColumns, messagesOfListed, withAuthor } from '../conversation/chat.repository';
import { type ChatSessionSummaryRow, summaryQuery } from '../conversation/chat.inbox.repository';

type Executor = Pick<Db, 'selectFrom' | 'insertInto' | 'updateTable' | 'deleteFrom'>;

/**
 * Reopens the visitor's own resolved session, in the caller's write; false when it is not resolved
 * (a concurrent message reopened it first: PostgreSQL re-checks the row after that one's lock).
 */
export async function reopenSession(db: Executor, sessionId: string, visitorId: string): Promise<boolean> {
  const reopened = await db
    .updateTable('chatSessions')
    .set((eb) => ({ status: 'open', version: eb('version', '+', 1) }))
    .where('id', '=', sessionId)
    .where('visitorId', '=', visitorId)
    .where('status', '=', 'resolved')
    .returning('id')
    .executeTakeFirst();
  return reopened !== undefined;
}

export interface SessionStateRow {
  id: string;
  visitorId: string;
  status: string;
  lastSeq: number;
  lastReadSeq: number;
  version: number;
  visitorSeenSeq: number;
  ratingAskedAt: string | null;
  rating: string | null;
  ratingComment: string | null;
  ratedAt: string | null;
}

export function findSessionState(db: Executor, sessionId: string): Promise<SessionStateRow | undefined> {
  return db.selectFrom('chatSessions').select(['id', 'visitorId', 'status', 'lastSeq', 'lastReadSeq', 'version', 'visitorSeenSeq', 'ratingAskedAt', 'rating', 'ratingComment', 'ratedAt']).where('id', '=', sessionId).executeTakeFirst();
}

/** A session's messages after `afterSeq`, in seq order (the `(session_id, seq)` index), with each staff reply's author's chosen name. */
export function listMessagesAfter(db: Executor, sessionId: string, afterSeq: number): Promise<(ChatMessageRow & { authorDisplayName: string | null })[]> {
  return db
    .selectFrom('chatMessages')
    .leftJoin('admins', 'admins.id', 'chatMessages.authorStaffId')
    .selectAll('chatMessages')
    .select('admins.displayName as authorDisplayName')
    .where('chatMessages.sessionId', '=', sessionId)
    .where('chatMessages.seq', '>', afterSeq)
    .orderBy('chatMessages.seq')
    .execute();
}

/** listMessagesAfter() with each staff message's author, for staff. */
export function listAuthoredMessagesAfter(db: Executor, sessionId: string, afterSeq: number): Promise<AuthoredMessageRow[]> {
  return withAuthor(db)
    .where('chatMessages.sessionId', '=', sessionId)
    .where('chatMessages.seq', '>', afterSeq)
    .orderBy('chatMessages.seq')
    .execute();
}

export interface VisitorSessionRow {
  id: string;
  status: string;
  lastActivity: string;
  lastMessage: string | null;
  lastMessageFromUser: number | null;
  messageCount: number | string | null;
}

/** The sessions of one visitor identity and no other, newest activity first (the `visitor_id` index). */
export function listVisitorSessions(db: Executor, visitorId: string, limit: number): Promise<VisitorSessionRow[]> {
  return db
    .selectFrom('chatSessions')
    .select((eb) => [...conversationListColumns(eb), messagesOfListed(eb).select('m.isFromUser').orderBy('m.seq', 'desc').limit(1).as('lastMessageFromUser')])
    .where('chatSessions.visitorId', '=', visitorId)
    .orderBy('chatSessions.lastMessageAt', 'desc')
    .orderBy('chatSessions.id', 'desc')
    .limit(limit)
    .execute();
}

export interface SessionVersionRow {
  id: string;
  version: number;
}

/** The versions of these sessions now (a session gone has no row). */
export function listSessionVersions(db: Executor, ids: readonly string[]): Promise<SessionVersionRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('chatSessions').select(['id', 'version']).where('id', 'in', ids).execute();
}

/** The newest `limit` sessions by activity, as the inbox's first page lists them. */
export function listNewestSessionVersions(db: Executor, limit: number): Promise<SessionVersionRow[]> {
  return db.selectFrom('chatSessions').select(['id', 'version']).orderBy('lastMessageAt', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The inbox rows of these sessions, newest activity first. */
export async function listSummariesOf(db: Executor, ids: readonly string[]): Promise<ChatSessionSummaryRow[]> {
  if (ids.length === 0) return [];
  const rows = await summaryQuery(db)
    .where('chatSessions.id', 'in', ids)
    .orderBy('chatSessions.lastMessageAt', 'desc')
    .orderBy('chatSessions.id', 'desc')
    .execute();
  return rows as ChatSessionSummaryRow[];
}
