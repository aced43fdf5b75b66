import { equalsIgnoringCase } from '../../../../db/query-helpers';
import type { ChatPageViewRow } from '../../../../db/schema';
import { conversationListColumns, type Executor } from '../conversation/chat.repository';

// The visitor's context (the staff inbox's side pane): the pages they viewed, their other conversations.

export type PageView = Pick<ChatPageViewRow, 'url' | 'viewedAt'>;

/** The pages a new session's first message brought, in the order given, in the caller's write. */
export async function addPageViews(db: Executor, sessionId: string, pages: readonly PageView[]): Promise<void> {
  if (pages.length === 0) return;
  await db
    .insertInto('chatPageViews')
    .values(pages.map((page) => ({ sessionId, url: page.url, viewedAt: page.viewedAt })))
    .execute();
}

/**
 * A page view in the visitor's own session, in the caller's write: the session's views beyond the newest
 * `keep` go in the same write. False, with nothing written, for a session that is not theirs or not there.
 */
export async function addOwnPageView(db: Executor, view: PageView & { sessionId: string; visitorId: string }, keep: number): Promise<boolean> {
  const inserted = await db
    .insertInto('chatPageViews')
    .columns(['sessionId', 'url', 'viewedAt'])
    .expression((eb) =>
      eb
        .selectFrom('chatSessions')
        .select((select) => ['chatSessions.id', select.val(view.url).as('url'), select.val(view.viewedAt).as('viewedAt')])
        .where('chatSessions.id', '=', view.sessionId)
        .where('chatSessions.visitorId', '=', view.visitorId),
    )
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  await db
    .deleteFrom('chatPageViews')
    .where('sessionId', '=', view.sessionId)
    .where('id', '<=', (eb) =>
      eb.selectFrom('chatPageViews').select('id').where('sessionId', '=', view.sessionId).orderBy('id', 'desc').limit(1).offset(keep),
    )
    .execute();
  return true;
}

/** The session's newest `limit` page views, oldest first (served by the `(session_id, id)` index). */
export async function listPageViews(db: Executor, sessionId: string, limit: number): Promise<PageView[]> {
  const newest = await db
    .selectFrom('chatPageViews')
    .select(['url', 'viewedAt'])
    .where('sessionId', '=', sessionId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return newest.reverse();
}

export interface EarlierSessionRow {
  id: string;
  status: string;
  lastActivity: string;
  lastMessage: string | null;
  messageCount: number | string;
}

/**
 * The other sessions of the same visitor identity or of the same email in any case, newest activity
 * first (the `visitor_id` and `lower(sender_email)` indexes find them).
 */
export async function listRelatedSessions(
  db: Executor,
  of: { sessionId: string; visitorId: string; email: string | null },
  limit: number,
): Promise<EarlierSessionRow[]> {
  const { email } = of;
  return db
    .selectFrom('chatSessions')
    .select(conversationListColumns)
    .where('chatSessions.id', '!=', of.sessionId)
    .where((eb) =>
      eb.or([eb('chatSessions.visitorId', '=', of.visitorId), ...(email ? [equalsIgnoringCase('chatSessions.senderEmail', email)] : [])]),
    )
    .orderBy('chatSessions.lastMessageAt', 'desc')
    .orderBy('chatSessions.id', 'desc')
    .limit(limit)
    .execute() as Promise<EarlierSessionRow[]>;
}
