import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { assignmentBodySchema } from '../../contract/assignment';
import { errorBodySchema } from '../../contract/common';
import { anyLeadRecord, type Lead, type LeadKind, leadParamsSchema } from '../../contract/leads';
import { apiPaths } from '../../contract/paths';
import { signedInStaffId } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { assigneeOrRefuse } from '../assignment';
import { recordAudit } from '../audit';
import * as repository from './leads.repository';
import { toLead } from './leads.service';

const leadNotFoundMessage = 'Lead not found';

/**
 * A staff member gives a lead to someone (null: to nobody): pushed to every staff screen
 * (`lead:updated`, its assignee's name with it) and audited, in one write. No change, no write.
 */
export function assignLead(app: FastifyInstance, actorId: number, kind: LeadKind, id: number, assigneeId: number | null): Promise<Lead> {
  return app.write(async (tx) => {
    const held = await repository.findLeadRow(tx.db, kind, id);
    if (!held) throw new HttpError(404, leadNotFoundMessage);
    if (assigneeId !== null) await assigneeOrRefuse(tx.db, assigneeId);
    if ((held.assigneeId ?? null) === assigneeId) return toLead(kind, held);
    await repository.assignLeadRow(tx.db, kind, id, assigneeId, new Date().toISOString());
    const row = await repository.findLeadRow(tx.db, kind, id);
    const lead = toLead(kind, row!);
    await recordAudit(tx, { actorId, action: 'lead.assigned', subject: { kind: `lead:${kind}`, id }, detail: assigneeId === null ? 'unassigned' : `assignee: ${assigneeId}` });
    tx.emit({ type: 'lead.updated', kind, lead });
    return lead;
  });
}

/** `PUT /api/leads/:kind/:id/assignee`, in the cookie-session scope (registered by staffLeadRoutes). */
export async function leadAssignmentRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.put(
    apiPaths.leadAssignee,
    {
      onRequest: app.requireStaff,
      schema: { params: leadParamsSchema, body: assignmentBodySchema, response: { 200: anyLeadRecord, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema } },
    },
    async (request) => assignLead(instance, signedInStaffId(request.session), request.params.kind, request.params.id, request.body.assigneeId),
  );
}
