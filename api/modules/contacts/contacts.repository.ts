import type { Db } from '../../../db/client';
import { equalsIgnoringCase } from '../../../db/query-helpers';

export interface ConversationByEmailRow {
  id: string;
  email: string;
  status: string;
  startedAt: string;
  lastActivity: string;
  lastMessage: string | null;
  messageCount: number | string;
}

/**
 * The chat sessions whose visitor gave this email in any case, newest activity first: found by the
 * `lower(sender_email)` index, each with its last message and message count.
 */
export function listConversationsByEmail(db: Db, email: string, limit: number): Promise<ConversationByEmailRow[]> {
  return db
    .selectFrom('chatSessions as s')
    .select((eb) => [
      's.id',
      's.senderEmail as email',
      's.status',
      's.createdAt as startedAt',
      's.lastMessageAt as lastActivity',
      eb.selectFrom('chatMessages as m').whereRef('m.sessionId', '=', 's.id').select('m.message').orderBy('m.seq', 'desc').limit(1).as('lastMessage'),
      eb
        .selectFrom('chatMessages as m')
        .whereRef('m.sessionId', '=', 's.id')
        .select((inner) => inner.fn.countAll<number>().as('count'))
        .as('messageCount'),
    ])
    .where(equalsIgnoringCase('s.senderEmail', email))
    .orderBy('s.lastMessageAt', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .execute() as Promise<ConversationByEmailRow[]>;
}
