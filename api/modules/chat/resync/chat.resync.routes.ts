import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chatSessionParamsSchema } from '../../../contract/chat';
import { afterSeqQuerySchema, chatResyncAnswer, staffChatResyncAnswer, staffChatResyncSchema, visitorChatSessionSummary } from '../../../contract/chat-resync';
import { errorBodySchema } from '../../../contract/common';
import { apiPaths } from '../../../contract/paths';
import { HttpError } from '../../../plugins/errors';
import { chatSessionNotFoundMessage } from '../../../contract/chat';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };

/** The visitor's past conversations and the widget's poll with a cursor; outside the cookie session, like the chat's other visitor calls. */
export async function visitorResyncRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(apiPaths.visitorChatSessions, { schema: { response: { 200: z.array(visitorChatSessionSummary), ...errors } } }, async (request) => {
    // No visitor cookie, no conversations: asking for the list mints no identity.
    const visitorId = app.visitorIdFromCookieHeader(request.headers.cookie);
    return visitorId ? app.chatResync.visitorSessions(visitorId) : [];
  });

  app.get(
    apiPaths.visitorChatResync,
    { schema: { params: chatSessionParamsSchema, querystring: afterSeqQuerySchema, response: { 200: chatResyncAnswer, ...errors } } },
    async (request) => {
      const visitorId = app.visitorIdFromCookieHeader(request.headers.cookie);
      if (!visitorId) throw new HttpError(404, chatSessionNotFoundMessage);
      return app.chatResync.visitorResync(visitorId, { sessionId: request.params.sessionId, afterSeq: request.query.afterSeq ?? 0 });
    },
  );
}

/** A reconnecting dashboard's resync, in the scope of the cookie session (registered by staffChatRoutes). */
export async function staffResyncRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    apiPaths.staffChatResync,
    { onRequest: app.requireStaff, schema: { body: staffChatResyncSchema, response: { 200: staffChatResyncAnswer, ...errors } } },
    async (request) => ({ sessions: await app.chatResync.staffResync(request.body) }),
  );
}
