import { type ExpressionBuilder, sql } from 'kysely';
import { olderThanCursor, textContains } from '../../../../db/query-helpers';
import type { Database } from '../../../../db/schema';
import type { Executor } from './chat.repository';

// The staff inbox's rows: one summary per session, for the list, a pushed update and a resync.

/** One inbox row per session, every figure computed by the database for just the rows of the page. */
export interface ChatSessionSummaryRow {
  id: string;
  status: string;
  pageUrl: string | null;
  referrer: string | null;
  userAgent: string | null;
  createdAt: string;
  lastActivity: string;
  senderEmail: string | null;
  senderName: string | null;
  hasCustomerMessage: number;
  lastMessage: string | null;
  messageCount: number;
  lastMessageId: number | null;
  lastMessageSeq: number;
  unreadCount: number;
  visitorSeenSeq: number;
  rating: string | null;
  ratingComment: string | null;
  ratedAt: string | null;
  version: number;
  assigneeId: number | null;
  assigneeEmail: string | null;
  assigneeDisplayName: string | null;
}

/** Whose rows a list shows: undefined every row, null the unassigned, a staff id theirs. */
export type AssigneeCondition = number | null | undefined;

export function summaryQuery(db: Executor) {
  const messagesOf = (eb: ExpressionBuilder<Database, 'chatSessions'>) =>
    eb.selectFrom('chatMessages as m').whereRef('m.sessionId', '=', 'chatSessions.id');
  return db
    .selectFrom('chatSessions')
    .select((eb) => [
      'chatSessions.id',
      'chatSessions.status',
      'chatSessions.pageUrl',
      'chatSessions.referrer',
      'chatSessions.userAgent',
      'chatSessions.createdAt',
      'chatSessions.lastMessageAt as lastActivity',
      'chatSessions.rating',
      'chatSessions.ratingComment',
      'chatSessions.ratedAt',
      eb.fn
        .coalesce(
          'chatSessions.senderEmail',
          messagesOf(eb).select('m.senderEmail').where('m.senderEmail', 'is not', null).orderBy('m.seq', 'desc').limit(1),
        )
        .as('senderEmail'),
      messagesOf(eb)
        .select('m.senderName')
        .where('m.isFromUser', '=', 1)
        .where('m.senderName', 'is not', null)
        .orderBy('m.seq', 'desc')
        .limit(1)
        .as('senderName'),
      eb.fn.coalesce(messagesOf(eb).select(sql.lit(1).as('one')).where('m.isFromUser', '=', 1).limit(1), sql.lit(0)).as('hasCustomerMessage'),
      messagesOf(eb).select('m.message').orderBy('m.seq', 'desc').limit(1).as('lastMessage'),
      messagesOf(eb).select('m.id').orderBy('m.seq', 'desc').limit(1).as('lastMessageId'),
      'chatSessions.lastSeq as lastMessageSeq',
      'chatSessions.visitorSeenSeq',
      'chatSessions.version',
      'chatSessions.assigneeId',
      eb.selectFrom('admins as assignee').select('assignee.email').whereRef('assignee.id', '=', 'chatSessions.assigneeId').as('assigneeEmail'),
      eb.selectFrom('admins as assignee').select('assignee.displayName').whereRef('assignee.id', '=', 'chatSessions.assigneeId').as('assigneeDisplayName'),
      messagesOf(eb)
        .select((inner) => inner.fn.countAll<number>().as('count'))
        .as('messageCount'),
      messagesOf(eb)
        .select((inner) => inner.fn.countAll<number>().as('count'))
        .where('m.isFromUser', '=', 1)
        .whereRef('m.seq', '>', 'chatSessions.lastReadSeq')
        .as('unreadCount'),
    ]);
}

export async function listSessionSummaries(
  db: Executor,
  page: { limit: number; before?: { lastActivity: string; id: string }; q?: string; status?: string; assigneeId?: AssigneeCondition },
): Promise<ChatSessionSummaryRow[]> {
  let query = summaryQuery(db);
  if (page.status) query = query.where('chatSessions.status', '=', page.status);
  // Served by the `(assignee_id, last_message_at, id)` index.
  if (page.assigneeId !== undefined) query = query.where('chatSessions.assigneeId', page.assigneeId === null ? 'is' : '=', page.assigneeId);
  if (page.before) {
    const { lastActivity, id } = page.before;
    query = query.where(olderThanCursor('chatSessions.lastMessageAt', 'chatSessions.id', { at: lastActivity, id }));
  }
  if (page.q) {
    const { q } = page;
    const matches = (column: string) => textContains(column, q);
    query = query.where((eb) =>
      eb.or([
        matches('chatSessions.senderEmail'),
        matches('chatSessions.id'),
        eb.exists(
          eb
            .selectFrom('chatMessages as s')
            .select(sql.lit(1).as('one'))
            .whereRef('s.sessionId', '=', 'chatSessions.id')
            .where((inner) => inner.or([matches('s.message'), matches('s.senderEmail'), matches('s.senderName')])),
        ),
      ]),
    );
  }
  const rows = await query.orderBy('chatSessions.lastMessageAt', 'desc').orderBy('chatSessions.id', 'desc').limit(page.limit).execute();
  return rows as ChatSessionSummaryRow[];
}

export async function findSessionSummary(db: Executor, id: string): Promise<ChatSessionSummaryRow | undefined> {
  const row = await summaryQuery(db).where('chatSessions.id', '=', id).executeTakeFirst();
  return row as ChatSessionSummaryRow | undefined;
}
