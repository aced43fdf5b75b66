import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { adminChatReplySchema, chatMessageInputSchema, chatPageSchema, chatSessionParamsSchema, chatTypingSchema } from '../../../contract/chat';
import { notAuthenticatedMessage } from '../../../contract/auth';
import { type Ack, rooms } from '../../../contract/socket';
import { HttpError } from '../../../plugins/errors';
import type { ClientEventName } from '../../../plugins/socket-io';
import { overBudget } from '../limits/chat.budget';
import type { StaffSocket, VisitorSocket } from './chat.socket-data';
import { enterChatRoom } from './chat.rooms';
import type { ChatService } from '../conversation/chat.service';
import { expireStaffSession } from '../staff-expiry/chat.staff-expiry';
import { TypingRelay } from './chat.typing';

/** The first message of a payload's zod issues, as an ack error. */
export function parsePayload<T extends z.ZodType>(schema: T, payload: unknown): { ok: true; data: z.infer<T> } | { ok: false; error: string } {
  const result = schema.safeParse(payload);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, error: result.error.issues[0]?.message ?? 'Invalid payload' };
}

/** Runs an acked handler: client mistakes and refusals become `{ ok: false, error }`, never a crash; a rate limit's refusal is reported. */
export async function answer<T extends object>(app: FastifyInstance, event: ClientEventName, ack: unknown, work: () => Promise<{ ok: true } & T>): Promise<void> {
  const reply: Ack<T> = typeof ack === 'function' ? (ack as Ack<T>) : () => {};
  try {
    reply(await work());
  } catch (error) {
    if (error instanceof HttpError) {
      if (error.statusCode === 429) app.socketRefusals.refused(event);
      return reply({ ok: false, error: error.message });
    }
    app.log.error({ err: error }, 'socket handler failed');
    reply({ ok: false, error: 'Something went wrong on our side. Please try again.' });
  }
}

/**
 * The chat's socket events, on sockets the handshake guards let in: visitors on `/`, staff on
 * `/admin`. Every write goes through the chat service, so the REST and socket paths store and push alike.
 */
export function chatSocketEvents(app: FastifyInstance, chat: ChatService): void {
  const visitors = app.visitorSockets;
  const staff = app.staffSockets;
  // A visitor's typing reaches the dashboards a few times a second at most, whatever their sockets send.
  const visitorTyping = new TypingRelay(app.clock, (payload) => staff.emit('chat:typing', payload));

  visitors.on('connection', (rawSocket) => {
    const socket = rawSocket as VisitorSocket;
    const { visitorId, budget } = socket.data;
    const userAgent = socket.handshake.headers['user-agent'];
    const ip = app.clientAddress(socket.request);
    void socket.join(rooms.visitor(visitorId));

    socket.on('chat:join', (payload, ack) => {
      if (overBudget(app, 'chat:join', budget, ack)) return;
      void answer(app, 'chat:join', ack, async () => {
        const parsed = parsePayload(chatSessionParamsSchema, payload);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        // Throws 404 for a stranger's session. An id nobody owns yet joins nothing, so a socket cannot
        // pile up rooms by joining made-up ids: the session's first message puts its owner's sockets in
        // its room (chat.pushes.ts). A socket is in a few rooms at most (chat.rooms.ts).
        const { messages, isNew } = await chat.visitorHistory(visitorId, parsed.data.sessionId);
        if (!isNew) await enterChatRoom(socket, parsed.data.sessionId);
        return { ok: true as const, messages };
      });
    });

    socket.on('chat:send', (payload, ack) => {
      if (overBudget(app, 'chat:send', budget, ack)) return;
      void answer(app, 'chat:send', ack, async () => {
        const parsed = parsePayload(chatMessageInputSchema, payload);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        // A visitor's message is always the visitor's: the service never reads the payload's isFromUser.
        const { message } = await chat.sendVisitorMessage({ visitorId, userAgent, ip, socketId: socket.id }, parsed.data);
        await enterChatRoom(socket, message.sessionId);
        return { ok: true as const, message };
      });
    });

    socket.on('chat:page', (payload, ack) => {
      if (overBudget(app, 'chat:page', budget, ack)) return;
      void answer(app, 'chat:page', ack, async () => {
        const parsed = parsePayload(chatPageSchema, payload);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        await chat.recordPageView(visitorId, parsed.data);
        return { ok: true as const };
      });
    });

    socket.on('chat:typing', (payload) => {
      if (overBudget(app, 'chat:typing', budget, undefined)) return;
      const parsed = parsePayload(chatTypingSchema, payload);
      if (!parsed.ok) return;
      void chat.visitorOwns(visitorId, parsed.data.sessionId).then(
        (owns) => {
          if (owns) visitorTyping.offer(parsed.data);
        },
        (error: unknown) => app.log.error({ err: error }, 'typing check failed'),
      );
    });
  });

  staff.on('connection', (rawSocket) => {
    const socket = rawSocket as StaffSocket;
    const { sid, budget } = socket.data;
    void socket.join(rooms.staffSession(sid));

    /**
     * Same rule as REST: a reply needs a live staff session, checked now, not just at connect; its
     * account is the reply's author. (The idle clock is refreshed by the dashboard's REST calls;
     * writing the session from here could bring back one that a logout just destroyed.)
     */
    const requireLiveSession = async (): Promise<number> => {
      const staffId = await app.liveStaffIdOf(sid);
      if (staffId === undefined) {
        setImmediate(() => expireStaffSession(app, sid));
        throw new HttpError(401, notAuthenticatedMessage);
      }
      return staffId;
    };

    socket.on('chat:reply', (payload, ack) => {
      if (overBudget(app, 'chat:reply', budget, ack)) return;
      void answer(app, 'chat:reply', ack, async () => {
        const parsed = parsePayload(adminChatReplySchema, payload);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        const staffId = await requireLiveSession();
        const { message } = await chat.replyAsStaff({ staffId }, parsed.data);
        return { ok: true as const, message };
      });
    });

    socket.on('chat:typing', (payload) => {
      if (overBudget(app, 'chat:typing', budget, undefined)) return;
      const parsed = parsePayload(chatTypingSchema, payload);
      if (!parsed.ok) return;
      visitors.to(rooms.chatSession(parsed.data.sessionId)).emit('chat:typing', parsed.data);
    });
  });
}
