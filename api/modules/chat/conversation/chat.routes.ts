import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminChatReplySchema,
  chatMessageInputSchema,
  chatMessageListQuerySchema,
  chatHistoryEntry,
  chatMessageRecord,
  chatSessionListQuerySchema,
  chatSessionNotFoundMessage,
  chatSessionParamsSchema,
  chatSessionContext,
  chatSessionPatchSchema,
  chatSessionSummary,
  staffChatMessageRecord,
} from '../../../contract/chat';
import { errorBodySchema } from '../../../contract/common';
import { signedInStaffId } from '../../../plugins/auth';
import { HttpError } from '../../../plugins/errors';
import type { ChatService } from './chat.service';
import { messagesAfter } from '../resync/chat.resync';
import { staffResyncRoutes } from '../resync/chat.resync.routes';
import { chatAssignmentRoutes } from '../assignment/chat.assignment';
import { afterSeqQuerySchema } from '../../../contract/chat-resync';
import { apiPaths } from '../../../contract/paths';
import { chatNoteRoutes } from '../notes/chat.notes';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };

/**
 * The visitor's chat calls: a send, and the widget's poll. They need no cookie session, so they run
 * outside @fastify/session's scope (app.ts), like the form posts; the poll reads the session store
 * itself, and only when the request carries a session cookie (staff read any session).
 */
export async function visitorChatRoutes(instance: FastifyInstance, options: { chat: ChatService }): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { chat } = options;

  app.post(
    apiPaths.chatMessage,
    { schema: { body: chatMessageInputSchema, response: { 200: chatMessageRecord, 201: chatMessageRecord, ...errors } } },
    async (request, reply) => {
      const { isFromUser: _isFromUser, ...input } = request.body;
      const visitor = { visitorId: await request.visitorId(reply), userAgent: request.headers['user-agent'], ip: request.ip };
      const { message, created } = await chat.sendVisitorMessage(visitor, input);
      return reply.code(created ? 201 : 200).send(message);
    },
  );

  app.get(
    apiPaths.chatHistory,
    { schema: { params: chatSessionParamsSchema, querystring: afterSeqQuerySchema, response: { 200: z.array(chatHistoryEntry), ...errors } } },
    async (request, reply) => {
      const { sessionId } = request.params;
      // `?afterSeq=`: only the messages after that cursor (chat.resync.ts).
      const { afterSeq } = request.query;
      // Staff read any session; a visitor only their own, and a session nobody started is not found either.
      const sid = app.sessionIdFromCookieHeader(request.headers.cookie);
      if (sid && (await app.isLiveStaffSid(sid))) return afterSeq === undefined ? chat.staffHistory(sessionId) : app.chatResync.staffMessagesAfter(sessionId, afterSeq);
      const history = await chat.visitorHistory(await request.visitorId(reply), sessionId);
      if (history.isNew) throw new HttpError(404, chatSessionNotFoundMessage);
      return messagesAfter(history.messages, afterSeq);
    },
  );

}

/** The staff's chat calls, in the scope of the cookie session (app.ts). */
export async function staffChatRoutes(instance: FastifyInstance, options: { chat: ChatService }): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { chat } = options;

  app.get(
    apiPaths.chatMessages,
    { onRequest: app.requireStaff, schema: { querystring: chatMessageListQuerySchema, response: { 200: z.array(staffChatMessageRecord), ...errors } } },
    async (request) => chat.allMessages(request.query),
  );

  app.post(
    apiPaths.staffReply,
    { onRequest: app.requireStaff, schema: { body: adminChatReplySchema, response: { 200: staffChatMessageRecord, 201: staffChatMessageRecord, ...errors } } },
    async (request, reply) => {
      const { message, created } = await chat.replyAsStaff({ staffId: signedInStaffId(request.session) }, request.body);
      return reply.code(created ? 201 : 200).send(message);
    },
  );

  app.get(
    apiPaths.chatSessions,
    { onRequest: app.requireStaff, schema: { querystring: chatSessionListQuerySchema, response: { 200: z.array(chatSessionSummary), ...errors } } },
    async (request) => chat.sessions(request.query, signedInStaffId(request.session)),
  );

  app.get(
    apiPaths.chatSession,
    { onRequest: app.requireStaff, schema: { params: chatSessionParamsSchema, response: { 200: chatSessionSummary, ...errors } } },
    async (request) => chat.session(request.params.sessionId),
  );

  app.get(
    apiPaths.chatSessionContext,
    { onRequest: app.requireStaff, schema: { params: chatSessionParamsSchema, response: { 200: chatSessionContext, ...errors } } },
    async (request) => chat.context(request.params.sessionId),
  );

  app.patch(
    apiPaths.chatSession,
    {
      onRequest: app.requireStaff,
      schema: { params: chatSessionParamsSchema, body: chatSessionPatchSchema, response: { 200: chatSessionSummary, ...errors } },
    },
    async (request) => chat.patchSession(request.params.sessionId, request.body, signedInStaffId(request.session)),
  );

  await instance.register(staffResyncRoutes);
  await instance.register(chatNoteRoutes);
  await instance.register(chatAssignmentRoutes);
}
