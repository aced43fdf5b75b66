import type { Db } from '../../../db/client';

/** The visitor's messages staff have not read (above the session's lastReadSeq), oldest first. */
export function listUnreadVisitorMessages(db: Db, session: { id: string; lastReadSeq: number }, limit: number) {
  return db
    .selectFrom('chatMessages')
    .select(['seq', 'message', 'createdAt'])
    .where('sessionId', '=', session.id)
    .where('kind', '=', 'visitor')
    .where('seq', '>', session.lastReadSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** Records when the session's unread messages were last mailed to staff. */
export async function markEscalated(db: Db, sessionId: string, at: string): Promise<void> {
  await db.updateTable('chatSessions').set({ escalatedAt: at }).where('id', '=', sessionId).execute();
}
