import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { contactTimeline, contactTimelineQuerySchema } from '../../contract/contacts';
import { apiPaths } from '../../contract/paths';
import { contactTimeline as readTimeline } from './contacts.service';

/** Staff only: a contact's leads and conversations, from a lead or a conversation alike. */
export async function contactRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    apiPaths.contactTimeline,
    { onRequest: app.requireStaff, schema: { querystring: contactTimelineQuerySchema, response: { 200: contactTimeline, 400: errorBodySchema, 401: errorBodySchema } } },
    async (request) => readTimeline(app.db, request.query.email),
  );
}
