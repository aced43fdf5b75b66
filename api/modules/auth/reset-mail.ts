import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config';
import { resetMailOf } from './auth.service';

/**
 * The password-reset mail, a job promised by the request's write: sent by the runner, retried
 * through an SMTP outage, never twice at once for one link (its dedupe key), one Message-ID.
 */
export function mailPasswordResets(app: FastifyInstance, config: Config): void {
  const resetMail = app.jobs.define('password-reset-mail', {
    class: 'access',
    payload: z.object({ resetId: z.number().int().positive() }),
    async handle({ resetId }, context) {
      const mail = await resetMailOf(app.db, { publicUrl: config.publicUrl, linkSecret: config.sessionSecret, resetId });
      if (!mail) return;
      const { to, ...content } = mail;
      await app.mail.send({ purpose: 'security', to, compose: () => content }, context);
    },
  });
  app.events.react('password-reset.requested', ({ resetId }) => resetMail.request({ resetId }, { dedupeKey: `password-reset-mail:${resetId}` }));
}
