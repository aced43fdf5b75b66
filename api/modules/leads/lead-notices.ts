import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config';
import { type LeadKind, leadKindSchema } from '../../contract/leads';
import { pathTo } from '../../contract/paths';
import { findLead, leadKindLabels, leadName, notificationText } from './leads.service';

/** A lead's page in the staff dashboard (web/app/router.tsx). */
const staffLeadPage = '/admin/leads/:kind/:id';

const leadRef = z.object({ kind: leadKindSchema, id: z.number().int().positive() });

/**
 * The staff's mail about a new lead (NOTIFY_EMAIL): promised by the lead's own write, as a job of ids
 * (the lead is read when the mail is sent), so a crash after the `201` or an SMTP outage delays the
 * notice and loses none. One job per lead (its dedupe key), one Message-ID across its retries.
 *
 * A staff notice (api/modules/mail, mail.staff-notices.ts): it shares NOTIFY_DIGEST_PER_MINUTE with
 * every other mail to the team (escalations), and past it the lead is a line of that minute's digest.
 */
export function mailLeadNotices(app: FastifyInstance, config: Config): void {
  const { notifyEmail, publicUrl } = config;
  const linkTo = (kind: LeadKind, id: number) => `${publicUrl}${pathTo(staffLeadPage, { kind, id })}`;

  const notice = app.staffNotices.define('lead-notice', {
    payload: leadRef,
    async compose({ kind, id }) {
      const lead = await findLead(app.db, kind, id);
      if (!lead) return undefined;
      return {
        subject: `${leadKindLabels[kind]}: ${leadName(lead)}`,
        text: `${notificationText(kind, lead)}\nOpen it in the staff dashboard: ${linkTo(kind, id)}\n`,
        about: { leads: [{ kind, id }] },
      };
    },
    async digestEntry({ kind, id }) {
      const lead = await findLead(app.db, kind, id);
      if (!lead) return undefined;
      return { lines: [`${leadKindLabels[kind]}: ${leadName(lead)} <${lead.email}>`, `  ${linkTo(kind, id)}`], about: { leads: [{ kind, id }] } };
    },
    digestCount: (count) => `${count} new ${count === 1 ? 'lead' : 'leads'}`,
  });
  app.events.react('lead.created', ({ kind, lead }) =>
    notifyEmail ? notice.request({ kind, id: lead.id }, { dedupeKey: `lead-notice:${kind}:${lead.id}` }) : undefined,
  );
}
