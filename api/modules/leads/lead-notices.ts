import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { leadKindSchema } from '../../contract/leads';
import { createLeadsService, leadKindLabels, leadName, notificationText } from './leads.service';

/**
 * The staff's mail about a new lead (NOTIFY_EMAIL): promised by the lead's own write, as a job of ids
 * (the lead is read when the mail is sent), so a crash after the `201` or an SMTP outage delays the
 * notice and loses none. One job per lead (its dedupe key), one Message-ID across its retries.
 */
export function mailLeadNotices(app: FastifyInstance, notifyEmail: string | undefined): void {
  const leads = createLeadsService({ db: app.db, write: app.write });
  // Defined even without NOTIFY_EMAIL, so notices promised before a restart that dropped it end quietly.
  const notice = app.jobs.define('lead-notice', {
    payload: z.object({ kind: leadKindSchema, id: z.number().int().positive() }),
    async handle({ kind, id }, context) {
      const lead = await leads.get(kind, id);
      if (!lead || !notifyEmail) return;
      await app.mailer.send({
        to: notifyEmail,
        subject: `${leadKindLabels[kind]}: ${leadName(lead)}`,
        text: notificationText(kind, lead),
        messageId: app.mailer.messageIdOf(context),
      });
    },
  });
  app.events.react('lead.created', ({ kind, lead }) =>
    notifyEmail ? notice.request({ kind, id: lead.id }, { dedupeKey: `lead-notice:${kind}:${lead.id}` }) : undefined,
  );
}
