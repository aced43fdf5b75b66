import type { FastifyInstance } from 'fastify';
import { closeEndedStaffSessions, expireIdleStaffSockets } from './chat.staff-expiry';

/** Staff expiry: a dashboard socket whose sign-in ended (idle, signed out, deactivated) is told and closed. */
export function staffExpiry(app: FastifyInstance): void {
  expireIdleStaffSockets(app);
  closeEndedStaffSessions(app);
}
