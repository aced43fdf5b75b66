import type { FastifyInstance } from 'fastify';
import type { StaffPresence } from '../realtime/chat.presence';
import { autoAssignChats } from './chat.assignment';

/**
 * Assignment: staff assign a conversation (`chatAssignmentRoutes`, among the staff's chat routes), and
 * auto-assignment hands the queue out to the online agents. Answers what to do when a staff member
 * comes online, for realtime/'s presence.
 */
export function assignment(app: FastifyInstance, presence: StaffPresence): (staffId: number) => void {
  return autoAssignChats(app, presence);
}
