import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { Mailer } from './mail.service';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** The app's one mailer; shutdown waits for mail still being sent. */
export default fp(
  async (app, options: { config: Config }) => {
    const { config } = options;
    const mailer = new Mailer({
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      outboxDir: join(config.dataDir, 'outbox'),
      log: app.log,
    });
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => {
      await mailer.drain();
      mailer.close();
    });
  },
  { name: 'mail' },
);
