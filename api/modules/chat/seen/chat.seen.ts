import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { chatSessionNotFoundMessage, chatSessionParamsSchema } from '../../../contract/chat';
import { errorBodySchema } from '../../../contract/common';
import { chatSeenAnswer, chatSeenBodySchema, chatSeenSchema } from '../../../contract/continuity';
import { apiPaths } from '../../../contract/paths';
import { HttpError } from '../../../plugins/errors';
import { overBudget } from '../limits/chat.budget';
import { findVisibleSession, markSeen } from '../continuity/chat.continuity.repository';
import type { VisitorSocket } from '../realtime/chat.socket-data';
import { findSessionSummary } from '../conversation/chat.inbox.repository';
import { answer, parsePayload } from '../realtime/chat.socket';
import { toSummary } from '../conversation/chat.service';

/**
 * Seen receipts (DESIGN.md 10): the visitor's widget says what it has had on screen, over `chat:seen`
 * or its REST twin; the session keeps the highest seq (forward only, at most its last), and staff
 * hear of each step as a session update, to show "Seen" under the last reply the visitor saw.
 */
export async function recordSeen(app: FastifyInstance, visitorId: string, seen: { sessionId: string; upTo: number }): Promise<number> {
  return app.write(async (tx) => {
    const moved = await markSeen(tx.db, { ...seen, visitorId });
    if (moved === undefined) {
      // Not forward: nothing to tell, for a session of theirs; a stranger's is not found.
      const session = await findVisibleSession(tx.db, visitorId, seen.sessionId);
      if (!session) throw new HttpError(404, chatSessionNotFoundMessage);
      return session.visitorSeenSeq;
    }
    const summary = await findSessionSummary(tx.db, seen.sessionId);
    if (summary) tx.emit({ type: 'chat.session.updated', session: toSummary(summary) });
    return moved;
  });
}

const errors = { 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };

/** `POST /api/chat-sessions/:sessionId/seen`: the widget's poll path, visitors only (their own session). */
export async function seenRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    apiPaths.chatSeen,
    { schema: { params: chatSessionParamsSchema, body: chatSeenBodySchema, response: { 200: chatSeenAnswer, ...errors } } },
    async (request, reply) => {
      const visitorSeenSeq = await recordSeen(app, await request.visitorId(reply), { sessionId: request.params.sessionId, upTo: request.body.upTo });
      return { visitorSeenSeq };
    },
  );
}

/** `chat:seen` on visitor sockets. */
export function seenSocketEvents(app: FastifyInstance): void {
  app.visitorSockets.on('connection', (rawSocket) => {
    const socket = rawSocket as VisitorSocket;
    const { visitorId, budget } = socket.data;
    socket.on('chat:seen', (payload, ack) => {
      if (overBudget(app, 'chat:seen', budget, ack)) return;
      void answer(app, 'chat:seen', ack, async () => {
        const parsed = parsePayload(chatSeenSchema, payload);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        return { ok: true as const, visitorSeenSeq: await recordSeen(app, visitorId, parsed.data) };
      });
    });
  });
}
