import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config';
import type { ChatService } from '../conversation/chat.service';
import { guardChatHandshakes } from './chat.handshake';
import { announceStaffPresence, inProcessStaffPresence, redisStaffPresence, type StaffPresence } from './chat.presence';
import { pushChatEvents } from './chat.pushes';
import { capChatRoomsPerSocket } from './chat.rooms';
import { chatSocketEvents } from './chat.socket';

export type { StaffPresence } from './chat.presence';

/**
 * The socket side: handshake guards, rooms (at most ten per visitor socket), the chat events, the
 * pushes of what a write changed, and who on the staff is online (on Redis with several nodes).
 * `staffArrived` hears a staff member come online (assignment/ hands out the queue then).
 */
export function realtime(
  app: FastifyInstance,
  options: { config: Config; chat: ChatService; staffArrived: (presence: StaffPresence) => (staffId: number) => void },
): void {
  const { config } = options;
  pushChatEvents(app);
  guardChatHandshakes(app, config);
  if (app.redis) {
    const ttlSeconds = config.presenceTtlSeconds;
    const presence = redisStaffPresence(app.redis.client, { keyPrefix: app.redis.keyPrefix, ttlSeconds });
    // Four refreshes per TTL: a key outlives a late refresh or two, and a dead process's staff drop out within TTL + a quarter.
    app.decorate('staffPresence', presence);
    announceStaffPresence(app, presence, { shared: true, refreshEveryMs: (ttlSeconds * 1000) / 4, staffArrived: options.staffArrived(presence) });
  } else {
    const presence = inProcessStaffPresence();
    app.decorate('staffPresence', presence);
    announceStaffPresence(app, presence, { shared: false, staffArrived: options.staffArrived(presence) });
  }
  capChatRoomsPerSocket(app.visitorSockets);
  chatSocketEvents(app, options.chat);
}
