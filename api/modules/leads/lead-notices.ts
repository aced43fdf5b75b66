import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config';
import { type Lead, type LeadKind, leadKindSchema } from '../../contract/leads';
import { pathTo } from '../../contract/paths';
import { createLeadsService, leadKindLabels, leadName, notificationText } from './leads.service';

/** A lead's page in the staff dashboard (web/app/router.tsx). */
const staffLeadPage = '/admin/leads/:kind/:id';

/** How long a digest waits after its minute (or its opening, when later) for the last notices to join it. */
const digestGatherMs = 2000;

const leadRef = z.object({ kind: leadKindSchema, id: z.number().int().positive() });

/** `2026-12-11 14:03` (UTC). */
function minuteText(at: number): string {
  return new Date(at).toISOString().slice(0, 16).replace('T', ' ');
}

/** The digest's text: one entry per lead, with the link that opens it. */
export function digestText(entries: { kind: LeadKind; lead: Lead; link: string }[], digest: { perWindow: number; from: number; to: number }): string {
  const lines = entries.flatMap(({ kind, lead, link }) => [`${leadKindLabels[kind]}: ${leadName(lead)} <${lead.email}>`, `  ${link}`, '']);
  return [
    `More than ${digest.perWindow} new leads came in on the website between ${minuteText(digest.from)} and ${minuteText(digest.to).slice(11)} (UTC).`,
    `The first ${digest.perWindow} were mailed one by one; these ${entries.length} come in this one mail.`,
    '',
    ...lines,
  ].join('\n');
}

/**
 * The staff's mail about a new lead (NOTIFY_EMAIL): promised by the lead's own write, as a job of ids
 * (the lead is read when the mail is sent), so a crash after the `201` or an SMTP outage delays the
 * notice and loses none. One job per lead (its dedupe key), one Message-ID across its retries.
 *
 * A burst is one mail: past NOTIFY_DIGEST_PER_MINUTE notices first due in one minute, a notice is
 * not mailed but added to that minute's digest, a batch job (api/jobs) sent at the minute's end
 * listing each lead. Which notices go alone is the order of their jobs in the table, the same on
 * every node and every retry, so each lead is in exactly one mail: its own or one digest.
 */
export function mailLeadNotices(app: FastifyInstance, config: Config): void {
  const { notifyEmail, publicUrl } = config;
  const { perWindow, windowMs } = config.notifyDigest;
  const leads = createLeadsService({ db: app.db, write: app.write });
  const linkTo = (kind: LeadKind, id: number) => `${publicUrl}${pathTo(staffLeadPage, { kind, id })}`;

  const digest = app.jobs.define('lead-digest', {
    class: 'mail',
    payload: z.object({ window: z.number().int(), items: z.array(leadRef) }),
    async handle({ window, items }, context) {
      if (!notifyEmail) return;
      const found = await Promise.all(items.map(async ({ kind, id }) => ({ kind, lead: await leads.get(kind, id), link: linkTo(kind, id) })));
      // Leads deleted since are left out; a digest of none is not sent.
      const entries = found.filter((entry): entry is { kind: LeadKind; lead: Lead; link: string } => entry.lead !== undefined);
      if (entries.length === 0) return;
      await app.mailer.send({
        to: notifyEmail,
        subject: `Digest: ${entries.length} new leads`,
        text: digestText(entries, { perWindow, from: window, to: window + windowMs }),
        messageId: app.mailer.messageIdOf(context),
      });
    },
  });

  /** True when this notice is past its window's limit: the notices of its window before it (by job id) fill it. */
  const pastTheLimit = async (jobId: number, window: number) => {
    if (perWindow === 0) return false;
    const earlier = await app.jobs.countDueBefore({ kind: 'lead-notice', from: window, to: window + windowMs, beforeId: jobId });
    return earlier >= perWindow;
  };

  // Defined even without NOTIFY_EMAIL, so notices promised before a restart that dropped it end quietly.
  const notice = app.jobs.define('lead-notice', {
    class: 'mail',
    payload: leadRef,
    async handle({ kind, id }, context) {
      const lead = await leads.get(kind, id);
      if (!lead || !notifyEmail) return;
      const window = Math.floor(context.dueAt / windowMs) * windowMs;
      if (await pastTheLimit(context.jobId, window)) {
        // Due a moment after the minute's end, so the notices of its last moment join it too; one
        // opened later (a backlog, an outage) waits the same moment for the rest.
        await app.jobs.addToBatch({
          kind: digest.kind,
          key: `lead-digest:${window}`,
          payload: { window },
          item: { kind, id },
          runAt: Math.max(window + windowMs, Date.now()) + digestGatherMs,
        });
        return;
      }
      await app.mailer.send({
        to: notifyEmail,
        subject: `${leadKindLabels[kind]}: ${leadName(lead)}`,
        text: `${notificationText(kind, lead)}\nOpen it in the staff dashboard: ${linkTo(kind, id)}\n`,
        messageId: app.mailer.messageIdOf(context),
      });
    },
  });
  app.events.react('lead.created', ({ kind, lead }) =>
    notifyEmail ? notice.request({ kind, id: lead.id }, { dedupeKey: `lead-notice:${kind}:${lead.id}` }) : undefined,
  );
}
