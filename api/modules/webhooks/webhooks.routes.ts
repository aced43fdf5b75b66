import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { okBodySchema } from '../../contract/common';
import {
  createdWebhookSchema,
  idParamsSchema,
  operationsPaths,
  webhookDeliverySchema,
  webhookInputSchema,
  webhookSchema,
} from '../../contract/admin-operations';
import { signedInStaffId } from '../../plugins/auth';
import type { Webhooks } from './webhooks.service';

/** The admins' webhook routes: subscribe, list, remove, send a test event, read the deliveries. */
export async function webhookRoutes(app: FastifyInstance, options: { webhooks: Webhooks }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { webhooks } = options;
  const admin = { onRequest: app.requireAdmin };

  routes.get(operationsPaths.webhooks, { ...admin, schema: { response: { 200: z.array(webhookSchema) } } }, () => webhooks.list());

  routes.post(
    operationsPaths.webhooks,
    { ...admin, schema: { body: webhookInputSchema, response: { 201: createdWebhookSchema } } },
    async (request, reply) => {
      reply.code(201);
      return webhooks.create(signedInStaffId(request.session), request.body);
    },
  );

  routes.delete(operationsPaths.webhook, { ...admin, schema: { params: idParamsSchema, response: { 200: okBodySchema } } }, async (request) => {
    await webhooks.remove(signedInStaffId(request.session), request.params.id);
    return { ok: true as const };
  });

  routes.post(
    operationsPaths.webhookTest,
    { ...admin, schema: { params: idParamsSchema, response: { 202: z.object({ deliveryId: z.string() }) } } },
    async (request, reply) => {
      reply.code(202);
      return webhooks.sendTest(signedInStaffId(request.session), request.params.id);
    },
  );

  routes.get(
    operationsPaths.webhookDeliveries,
    { ...admin, schema: { params: idParamsSchema, response: { 200: z.array(webhookDeliverySchema) } } },
    (request) => webhooks.deliveries(request.params.id),
  );
}
