import type { FastifyInstance } from 'fastify';

/**
 * Whether any staff member is online, as the chat widget shows it. A store shared by several
 * processes (keys with a TTL, refreshed while a socket lives) can stand behind the same calls.
 */
export interface StaffPresence {
  /** Whether any staff member is online now. */
  online(): Promise<boolean>;
  /** A staff socket connected: it counts as online until it leaves. */
  arrived(socketId: string): Promise<void>;
  left(socketId: string): Promise<void>;
}

/** Presence within this process: the ids of its open staff sockets. */
export function inProcessStaffPresence(): StaffPresence {
  const staffSockets = new Set<string>();
  return {
    online: async () => staffSockets.size > 0,
    arrived: async (socketId) => void staffSockets.add(socketId),
    left: async (socketId) => void staffSockets.delete(socketId),
  };
}

/**
 * Tells each new visitor socket whether staff are online, and every visitor whenever a staff socket
 * comes or goes. Every socket of /admin is a staff member's (its connect guard).
 */
export function announceStaffPresence(app: FastifyInstance, presence: StaffPresence): void {
  const visitors = app.visitorSockets;
  const failed = (error: unknown) => app.log.error({ err: error }, 'staff presence failed');
  const broadcast = async () => {
    visitors.emit('staff:presence', { online: await presence.online() });
  };

  visitors.on('connection', (socket) => {
    presence.online().then((online) => socket.emit('staff:presence', { online }), failed);
  });
  app.staffSockets.on('connection', (socket) => {
    presence.arrived(socket.id).then(broadcast).catch(failed);
    socket.on('disconnect', () => {
      presence.left(socket.id).then(broadcast).catch(failed);
    });
  });
}
