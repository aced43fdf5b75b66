import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { Mailer } from './mail.service';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export type { MailMessage, Mailer } from './mail.service';
export { escapeHtml } from './mail.service';

/** The app's one mailer, used by the jobs that send mail. */
export default fp(
  async (app, options: { config: Config }) => {
    const { config } = options;
    const mailer = new Mailer({
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      outboxDir: join(config.dataDir, 'outbox'),
      // A send ends well within its job's lease (JOBS_LEASE_SECONDS).
      smtpTimeoutMs: Math.min(config.jobs.leaseMs / 3, 60_000),
      log: app.log,
    });
    app.decorate('mailer', mailer);
    app.addHook('onClose', () => mailer.close());
  },
  { name: 'mail' },
);
