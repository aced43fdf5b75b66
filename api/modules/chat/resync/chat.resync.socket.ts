import type { FastifyInstance } from 'fastify';
import { chatResyncInputSchema } from '../../../contract/chat-resync';
import { HttpError } from '../../../plugins/errors';
import { overBudget } from '../limits/chat.budget';
import type { VisitorSocket } from '../realtime/chat.socket-data';
import { enterChatRoom } from '../realtime/chat.rooms';
import { answer, parsePayload } from '../realtime/chat.socket';

/**
 * `chat:resync { sessionId, afterSeq }`: `chat:join` with a cursor. The socket enters the room before
 * the messages are read, so a message is either in the answer or pushed after it (or both: the
 * widget keys messages by id). A session not started yet joins nothing, as with `chat:join`.
 */
export function chatResyncSocketEvents(app: FastifyInstance): void {
  app.visitorSockets.on('connection', (rawSocket) => {
    const socket = rawSocket as VisitorSocket;
    const { visitorId, budget } = socket.data;
    socket.on('chat:resync', (payload, ack) => {
      if (overBudget(app, 'chat:resync', budget, ack)) return;
      void answer(app, 'chat:resync', ack, async () => {
        const parsed = parsePayload(chatResyncInputSchema, payload);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        const { sessionId, afterSeq } = parsed.data;
        const resync = await app.chatResync.visitorResync(visitorId, { sessionId, afterSeq }, () => enterChatRoom(socket, sessionId));
        return { ok: true as const, ...resync };
      });
    });
  });
}
