import type { FastifyInstance } from 'fastify';
import { visitorViewOf } from '../../../contract/chat';
import { rooms } from '../../../contract/socket';

/**
 * The chat's live listeners: each event as Socket.IO broadcasts only, so an adapter shared by several
 * processes carries every one: to a visitor's session room, and to the whole /admin namespace for staff.
 * Staff get a message with its author; the visitor's room gets the visitor's view of it.
 */
export function pushChatEvents(app: FastifyInstance): void {
  app.events.on('chat.message.created', ({ message, startedBy, fromSocket }) => {
    app.staffSockets.emit('chat:message', message);
    const room = rooms.chatSession(message.sessionId);
    if (startedBy) {
      // A new session's room had no one in it (joining an id nobody owns joins nothing): its owner's
      // sockets, every tab and whichever path sent the message, join it now (each still within its few
      // rooms: chat.rooms.ts). One broadcast operation, on every process, carried ahead of the
      // message below (no round trip to each).
      app.visitorSockets.in(rooms.visitor(startedBy)).socketsJoin(room);
    }
    // The socket that sent it has the ack instead; Socket.IO sends an object as it is, so the visitor's copy is built without the author.
    (fromSocket ? app.visitorSockets.to(room).except(fromSocket) : app.visitorSockets.to(room)).emit('chat:message', visitorViewOf(message));
  });
  app.events.on('chat.session.updated', ({ session }) => {
    app.staffSockets.emit('chat-session:updated', session);
  });
}
