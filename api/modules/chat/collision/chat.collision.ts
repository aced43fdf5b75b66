import type { FastifyInstance } from 'fastify';
import { notAuthenticatedMessage, staffDisplayName } from '../../../contract/auth';
import { rooms } from '../../../contract/socket';
import { type ConversationViewer, type ConversationViewers, staffTypingReplySchema, staffViewingSchema } from '../../../contract/team-inbox-notes';
import { HttpError } from '../../../plugins/errors';
import { overBudget } from '../limits/chat.budget';
import { findViewerAccount } from './chat.collision.repository';
import type { StaffSocket, StaffSocketData } from '../realtime/chat.socket-data';
import { answer, parsePayload } from '../realtime/chat.socket';

/** Each staff member once, however many of their sockets show the conversation. */
function distinctViewers(sockets: readonly { data: Partial<StaffSocketData> }[]): ConversationViewer[] {
  const byId = new Map<number, ConversationViewer>();
  for (const { data } of sockets) if (data.viewer) byId.set(data.viewer.staffId, data.viewer);
  return [...byId.values()];
}

/**
 * Collision (DESIGN.md 11): staff see who else has a conversation open and who is typing a reply in it.
 *
 * Who views what is held by the Socket.IO adapter, not by this process: a socket that shows a
 * conversation is in its `staff-viewing:` room, and its `data` names the staff member. Asking who is
 * in a room (`fetchSockets`) asks every node through the Redis adapter, so the answer is the same on
 * each; a closed tab or a dropped socket leaves its rooms by itself, and a node that dies stops
 * answering. Every change is broadcast whole to the `/admin` namespace (staff only, never a visitor).
 * Typing is relayed, not stored: the dashboards drop it a few seconds after the last word.
 */
export function shareConversationViewing(app: FastifyInstance): void {
  const staff = app.staffSockets;
  const failed = (error: unknown) => app.log.error({ err: error }, 'conversation viewers failed');
  // A closing server drops all its sockets at once: they reconnect to another node and say again what they show.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  const viewersOf = async (sessionId: string): Promise<ConversationViewers> => ({
    sessionId,
    viewers: distinctViewers(await staff.in(rooms.staffViewing(sessionId)).fetchSockets()),
  });
  const announce = async (sessionId: string): Promise<ConversationViewers> => {
    const viewers = await viewersOf(sessionId);
    staff.emit('chat:viewers', viewers);
    return viewers;
  };

  staff.on('connection', (rawSocket) => {
    const socket = rawSocket as StaffSocket;
    const { budget } = socket.data;

    /** The socket's staff member, read once: their id and the name others see. */
    const identify = async (): Promise<ConversationViewer> => {
      if (socket.data.viewer) return socket.data.viewer;
      const staffId = await app.liveStaffIdOf(socket.data.sid);
      const account = staffId === undefined ? undefined : await findViewerAccount(app.db, staffId);
      if (staffId === undefined || !account) throw new HttpError(401, notAuthenticatedMessage);
      socket.data.viewer = { staffId, name: staffDisplayName(account) };
      return socket.data.viewer;
    };

    socket.on('chat:viewing', (payload, ack) => {
      if (overBudget(app, 'chat:viewing', budget, ack)) return;
      void answer(app, 'chat:viewing', ack, async () => {
        const parsed = parsePayload(staffViewingSchema, payload);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        await identify();
        const shown = parsed.data.sessionId ?? undefined;
        const left = socket.data.viewing;
        if (left !== undefined && left !== shown) await socket.leave(rooms.staffViewing(left));
        if (shown !== undefined) await socket.join(rooms.staffViewing(shown));
        socket.data.viewing = shown;
        if (left !== undefined && left !== shown) void announce(left).catch(failed);
        return { ok: true as const, viewers: shown === undefined ? [] : (await announce(shown)).viewers };
      });
    });

    socket.on('chat:typing-reply', (payload) => {
      if (overBudget(app, 'chat:typing-reply', budget, undefined)) return;
      const parsed = parsePayload(staffTypingReplySchema, payload);
      if (!parsed.ok) return;
      identify().then((viewer) => socket.broadcast.emit('chat:typing-reply', { ...parsed.data, ...viewer }), failed);
    });

    socket.on('chat:viewers', (ack) => {
      if (overBudget(app, 'chat:viewers', budget, ack)) return;
      void answer(app, 'chat:viewers', ack, async () => {
        const { staffId } = await identify();
        const bySession = new Map<string, { data: Partial<StaffSocketData> }[]>();
        for (const each of await staff.fetchSockets()) {
          const data = each.data as Partial<StaffSocketData>;
          if (data.viewing) bySession.set(data.viewing, [...(bySession.get(data.viewing) ?? []), { data }]);
        }
        const sessions = [...bySession].map(([sessionId, sockets]) => ({ sessionId, viewers: distinctViewers(sockets) }));
        return { ok: true as const, staffId, sessions };
      });
    });

    // The socket has left its rooms by now: the others are told it no longer shows its conversation.
    socket.on('disconnect', () => {
      if (socket.data.viewing !== undefined && !closing) void announce(socket.data.viewing).catch(failed);
    });
  });
}
