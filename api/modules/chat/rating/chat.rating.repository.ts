import type { Db } from '../../../../db/client';
import type { ChatRatingColumn } from '../../../../db/schema';

/**
 * Marks the session asked for its rating, once: false when it was asked or rated before (or is
 * gone), so the question is pushed, and mailed, at most once per session.
 */
export async function markRatingAsked(db: Db, sessionId: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('chatSessions')
    .set((eb) => ({ ratingAskedAt: at, version: eb('version', '+', 1) }))
    .where('id', '=', sessionId)
    .where('ratingAskedAt', 'is', null)
    .where('rating', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Stores the session's rating unless it has one or was never asked for one: false (nothing changed) then. */
export async function saveRating(db: Db, sessionId: string, rating: { rating: ChatRatingColumn; comment: string | null; ratedAt: string }): Promise<boolean> {
  const result = await db
    .updateTable('chatSessions')
    .set((eb) => ({ rating: rating.rating, ratingComment: rating.comment, ratedAt: rating.ratedAt, version: eb('version', '+', 1) }))
    .where('id', '=', sessionId)
    .where('rating', 'is', null)
    .where('ratingAskedAt', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
