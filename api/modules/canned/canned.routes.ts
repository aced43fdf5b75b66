import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../contract/common';
import { apiPaths } from '../../contract/paths';
import { cannedReplyInputSchema, cannedReplyParamsSchema, cannedReplyRecord } from '../../contract/team-inbox-notes';
import { signedInStaffId } from '../../plugins/auth';
import { CannedReplies } from './canned';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** The canned replies' REST calls, in the cookie session's scope (app.ts): any staff read, admins write. */
export async function cannedReplyRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const replies = new CannedReplies(app.db, app.write);

  app.get(apiPaths.cannedReplies, { onRequest: app.requireStaff, schema: { response: { 200: z.array(cannedReplyRecord), ...errors } } }, async () => replies.list());

  app.post(
    apiPaths.cannedReplies,
    { onRequest: app.requireAdmin, schema: { body: cannedReplyInputSchema, response: { 201: cannedReplyRecord, ...errors } } },
    async (request, reply) => reply.code(201).send(await replies.create(signedInStaffId(request.session), request.body)),
  );

  app.patch(
    apiPaths.cannedReply,
    { onRequest: app.requireAdmin, schema: { params: cannedReplyParamsSchema, body: cannedReplyInputSchema, response: { 200: cannedReplyRecord, ...errors } } },
    async (request) => replies.update(signedInStaffId(request.session), request.params.id, request.body),
  );

  app.delete(
    apiPaths.cannedReply,
    { onRequest: app.requireAdmin, schema: { params: cannedReplyParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await replies.remove(signedInStaffId(request.session), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
