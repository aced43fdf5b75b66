import type { FastifyInstance } from 'fastify';
import { visitorViewOf } from '../../contract/chat';
import { rooms } from '../../contract/socket';
import type { ChatPushes } from './chat.service';

/**
 * The pushes of the chat service, as Socket.IO broadcasts only, so an adapter shared by several
 * processes carries every one: to a visitor's session room, and to the whole /admin namespace for staff.
 * Staff get a message with its author; the visitor's room gets the visitor's view of it.
 */
export function socketPushes(app: FastifyInstance): ChatPushes {
  return {
    message(message, { newOwner, exceptSocket } = {}) {
      app.staffSockets.emit('chat:message', message);
      const room = rooms.chatSession(message.sessionId);
      if (newOwner) {
        // A new session's room had no one in it (joining an id nobody owns joins nothing): its owner's
        // sockets, every tab and whichever path sent the message, join it now (each still within its few
        // rooms: chat.rooms.ts). One broadcast operation, on every process, carried ahead of the
        // message below (no round trip to each).
        app.visitorSockets.in(rooms.visitor(newOwner)).socketsJoin(room);
      }
      // Socket.IO sends an object as it is: the visitor's copy is built without the author.
      (exceptSocket ? app.visitorSockets.to(room).except(exceptSocket) : app.visitorSockets.to(room)).emit('chat:message', visitorViewOf(message));
    },
    sessionUpdated(session) {
      app.staffSockets.emit('chat-session:updated', session);
    },
  };
}
