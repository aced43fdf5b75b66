import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { okBodySchema } from '../../contract/common';
import { dataExportSchema, dataRequestSchema, deadJobSchema, erasureResultSchema, idParamsSchema, operationsPaths, type DeadJob } from '../../contract/admin-operations';
import { listDeadJobs, retryDeadJob } from '../../jobs';
import { signedInStaffId } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { recordAudit } from '../audit';
import type { PersonalData } from './personal-data';

/** Dead jobs listed, newest first. */
const deadJobsListed = 100;

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** The admins' data requests (export, erase) and dead jobs (list, retry). */
export async function operationsRoutes(app: FastifyInstance, options: { data: PersonalData }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { data } = options;
  const admin = { onRequest: app.requireAdmin };

  routes.post(operationsPaths.dataExport, { ...admin, schema: { body: dataRequestSchema, response: { 200: dataExportSchema } } }, (request) =>
    data.exportFor(signedInStaffId(request.session), request.body.email),
  );

  routes.post(operationsPaths.dataErase, { ...admin, schema: { body: dataRequestSchema, response: { 200: erasureResultSchema } } }, (request) =>
    data.eraseFor(signedInStaffId(request.session), request.body.email),
  );

  routes.get(operationsPaths.deadJobs, { ...admin, schema: { response: { 200: z.array(deadJobSchema) } } }, async () => {
    const jobs = await listDeadJobs(app.db, deadJobsListed);
    return jobs.map(
      (job): DeadJob => ({ id: job.id, kind: job.kind, error: job.lastError, attempts: job.attempts, diedAt: iso(job.finishedAt), createdAt: iso(job.createdAt)! }),
    );
  });

  routes.post(operationsPaths.jobRetry, { ...admin, schema: { params: idParamsSchema, response: { 200: okBodySchema } } }, async (request) => {
    const { id } = request.params;
    const retried = await app.write(async (tx) => {
      const done = await retryDeadJob(tx.db, id, Date.now(), (kind) => app.jobs.classOf(kind));
      if (done) await recordAudit(tx, { actorId: signedInStaffId(request.session), action: 'job.retried', subject: { kind: 'job', id } });
      return done;
    });
    if (!retried) throw new HttpError(404, 'No dead job with that id');
    app.jobs.wake();
    return { ok: true as const };
  });
}
