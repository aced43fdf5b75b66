import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { okBodySchema } from '../../contract/common';
import {
  adminCountsSchema,
  anyLeadRecord,
  contactSubmissionSchema,
  demoRequestSchema,
  getStartedRequestSchema,
  type Lead,
  type LeadKind,
  leadParamsSchema,
  leadPatchSchema,
  leadRecordByKind,
  listCursor,
  listQuerySchema,
  nextCursorHeader,
  supportTicketSchema,
} from '../../contract/leads';
import { HttpError } from '../../plugins/errors';
import { signedInStaffId } from '../../plugins/auth';
import { assigneeCondition, assigneeQuerySchema } from '../../contract/assignment';
import { createLeadsService, type LeadInputByKind } from './leads.service';
import { leadAssignmentRoutes } from './leads.assignment';
import { apiPaths, leadPaths } from '../../contract/paths';

const minuteMs = 60 * 1000;
/** Per IP and per form: far above what a person types, low enough to blunt a flood. */
const formPostsPerIp = { max: 20, timeWindow: minuteMs };

const inputSchemas = {
  contact: contactSubmissionSchema,
  support: supportTicketSchema,
  demo: demoRequestSchema,
  'get-started': getStartedRequestSchema,
} as const;


function leadsServiceOf(app: FastifyInstance) {
  return createLeadsService({ db: app.db, write: app.write });
}

/**
 * The four public forms. They need no session, so `app.ts` registers them outside the scope that
 * carries @fastify/session: a visitor's submission costs no session id, signature or hash.
 */
export async function publicLeadRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const leads = leadsServiceOf(app);

  for (const kind of Object.keys(leadPaths) as LeadKind[]) {
    const record: z.ZodType<Lead> = leadRecordByKind[kind];
    const body: z.ZodType<LeadInputByKind[LeadKind], unknown> = inputSchemas[kind];
    routes.post(
      leadPaths[kind].create,
      {
        schema: { body, response: { 201: z.union([record, okBodySchema]) } },
        config: { rateLimit: formPostsPerIp },
      },
      async (request, reply) => {
        const input = request.body;
        reply.code(201);
        // A filled honeypot is a bot: it gets a success answer and nothing is stored.
        if (input._gotcha) {
          request.log.info({ kind }, 'honeypot filled: submission dropped');
          return { ok: true as const };
        }
        return leads.create(kind, input);
      },
    );
  }
}

/** The staff lists, one lead, lead updates and the dashboard counts. */
export async function staffLeadRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const leads = leadsServiceOf(app);

  for (const kind of Object.keys(leadPaths) as LeadKind[]) {
    const paths = leadPaths[kind];
    const record: z.ZodType<Lead> = leadRecordByKind[kind];
    routes.get(
      paths.list,
      { onRequest: app.requireStaff, schema: { querystring: listQuerySchema, response: { 200: z.union([z.array(record), z.string().describe('CSV with ?format=csv')]) } } },
      async (request, reply) => {
        const { limit, before, q, status, format, assignee } = request.query;
        const assigneeId = assigneeCondition(assignee, signedInStaffId(request.session));
        if (format === 'csv') {
          const csv = await leads.csv(kind, { q, status, assigneeId });
          const date = new Date().toISOString().slice(0, 10);
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${paths.csvName}-${date}.csv"`)
            .send(csv);
        }
        const page = await leads.list(kind, { limit, before, q, status, assigneeId });
        const last = page.at(-1);
        if (last && page.length === limit) reply.header(nextCursorHeader, listCursor(last));
        return page;
      },
    );
  }

  routes.get(
    apiPaths.lead,
    { onRequest: app.requireStaff, schema: { params: leadParamsSchema, response: { 200: anyLeadRecord } } },
    async (request) => {
      const lead = await leads.get(request.params.kind, request.params.id);
      if (!lead) throw new HttpError(404, 'Lead not found');
      return lead;
    },
  );

  routes.patch(
    apiPaths.lead,
    { onRequest: app.requireStaff, schema: { params: leadParamsSchema, body: leadPatchSchema, response: { 200: anyLeadRecord } } },
    async (request) => {
      const lead = await leads.update(request.params.kind, request.params.id, request.body);
      if (!lead) throw new HttpError(404, 'Lead not found');
      return lead;
    },
  );

  await app.register(leadAssignmentRoutes);

  routes.get(
    apiPaths.adminCounts,
    { onRequest: app.requireStaff, schema: { querystring: assigneeQuerySchema, response: { 200: adminCountsSchema } } },
    (request) => leads.counts(assigneeCondition(request.query.assignee, signedInStaffId(request.session))),
  );
}
