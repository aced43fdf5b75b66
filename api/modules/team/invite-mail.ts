import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { TeamService } from './team.service';

/**
 * The invite mail, a job promised by the invite's write: sent by the runner, retried through an
 * SMTP outage, one Message-ID. Its payload is the invite's id; the link is derived again when it runs.
 */
export function mailInvites(app: FastifyInstance, team: TeamService): void {
  const inviteMail = app.jobs.define('staff-invite-mail', {
    class: 'access',
    payload: z.object({ inviteId: z.number().int().positive() }),
    async handle({ inviteId }, context) {
      const mail = await team.inviteMailOf(inviteId);
      if (!mail) return;
      const { to, ...content } = mail;
      await app.mail.send({ purpose: 'security', to, compose: () => content }, context);
    },
  });
  app.events.react('staff.invited', ({ inviteId }) => inviteMail.request({ inviteId }, { dedupeKey: `staff-invite-mail:${inviteId}` }));
}
