import type { FastifyInstance } from 'fastify';
import { shareConversationViewing } from './chat.collision';

/** Collision: which staff view a conversation and who types a reply, shared live between staff sockets. */
export function collision(app: FastifyInstance): void {
  shareConversationViewing(app);
}
