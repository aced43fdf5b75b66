import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { apiPaths } from '../../contract/paths';
import { reportQuerySchema, teamReport } from '../../contract/reports';
import { teamReport as buildReport } from './reports.service';

/** Any staff member reads the team's figures: they name staff, never a visitor. */
export async function reportRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    apiPaths.reports,
    { onRequest: app.requireStaff, schema: { querystring: reportQuerySchema, response: { 200: teamReport, 400: errorBodySchema, 401: errorBodySchema } } },
    async (request) => buildReport(app.db, request.query),
  );
}
