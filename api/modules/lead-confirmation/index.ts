import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { mailLeadConfirmations } from './lead-confirmation';

/** The submitter's confirmation mail of each public form's lead (a job; lead-confirmation.ts). */
export default fp(
  async (app: FastifyInstance, _options: { config: Config }) => {
    mailLeadConfirmations(app);
  },
  { name: 'lead-confirmation', dependencies: ['events', 'jobs', 'mail', 'leads'] },
);
