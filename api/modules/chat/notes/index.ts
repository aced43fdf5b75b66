import type { FastifyInstance } from 'fastify';
import { pushChatNotes } from './chat.notes';

/** Private notes: staff-only notes on a conversation (`chatNoteRoutes`, among the staff's chat routes), pushed to staff only. */
export function notes(app: FastifyInstance): void {
  pushChatNotes(app);
}
