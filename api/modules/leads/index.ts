import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import type { SubmissionNew } from '../../contract/socket';
import { mailLeadNotices } from './lead-notices';
import { publicLeadRoutes } from './leads.routes';

export { staffLeadRoutes } from './leads.routes';
export { leadsByEmail } from './leads-by-email';
export { findLead, leadName } from './leads.service';

/**
 * Leads: the four public forms (outside the cookie-session scope; app.ts adds `staffLeadRoutes`
 * inside it), and who hears of a lead: staff screens live, the notice mail as a job.
 */
export default fp(
  async (app: FastifyInstance, options: { config: Config }) => {
    app.events.on('lead.created', ({ kind, lead }) => {
      app.staffSockets.emit('submission:new', { kind, item: lead } as SubmissionNew);
    });
    app.events.on('lead.updated', ({ kind, lead }) => {
      app.staffSockets.emit('lead:updated', { kind, item: lead });
    });
    mailLeadNotices(app, options.config);
    await app.register(publicLeadRoutes);
  },
  { name: 'leads', dependencies: ['db', 'events', 'jobs', 'mail', 'socket-io'] },
);
