import type { Db } from '../../../../db/client';

/** The visitor's messages staff have neither read nor been mailed (above lastReadSeq and escalatedSeq), oldest first. */
export function listUnreadVisitorMessages(db: Db, session: { id: string; lastReadSeq: number; escalatedSeq: number }, limit: number) {
  return db
    .selectFrom('chatMessages')
    .select(['seq', 'message', 'createdAt'])
    .where('sessionId', '=', session.id)
    .where('kind', '=', 'visitor')
    .where('seq', '>', Math.max(session.lastReadSeq, session.escalatedSeq))
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** Records that the session's unread messages up to `upToSeq` were mailed to staff, and when; answers the session's lastSeq now. */
export async function markEscalated(db: Db, sessionId: string, mailed: { at: string; upToSeq: number }): Promise<number | undefined> {
  const row = await db
    .updateTable('chatSessions')
    .set((eb) => ({
      escalatedAt: mailed.at,
      escalatedSeq: eb.case().when('escalatedSeq', '<', mailed.upToSeq).then(mailed.upToSeq).else(eb.ref('escalatedSeq')).end(),
    }))
    .where('id', '=', sessionId)
    .returning('lastSeq')
    .executeTakeFirst();
  return row?.lastSeq;
}
