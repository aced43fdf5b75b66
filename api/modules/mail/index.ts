import { join } from 'node:path';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { Config } from '../../config';
import { brand } from '../../contract/brand';
import { signLink } from '../../lib/signed-link';
import { addressConfirmationLink } from './mail.addresses';
import { confirmAddressPath, MailPolicy } from './mail.policy';
import { findConfirmation } from './mail.repository';
import { mailLinkRoutes } from './mail.routes';
import { escapeHtml, Mailer } from './mail.service';
import { StaffNotices } from './mail.staff-notices';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one outbound-mail policy every mail passes (mail.policy.ts): `app.mail.send(...)` from a job. */
    mail: MailPolicy;
    /** Mails to the team (NOTIFY_EMAIL): one per-minute budget, past it one digest (mail.staff-notices.ts). */
    staffNotices: StaffNotices;
  }
}

export type { MailAbout, MailContent, MailOutcome, MailPurpose, MailRecipient, OutgoingMail } from './mail.policy';
export type { DigestEntry, StaffNotice } from './mail.staff-notices';
export type { MailMessage } from './mail.service';
export { escapeHtml } from './mail.service';
export { addressHash, normalAddress, plainName } from './mail.addresses';
export { aboutSubjects, unsubscribePath } from './mail.policy';

/** The mail asking an address to confirm itself: a link, and no word a visitor wrote. */
export function addressConfirmationMail(link: string): { subject: string; text: string; html: string } {
  const lead = `Someone asked for a conversation with ${brand.product} to be emailed to this address. Confirm it is yours to receive it:`;
  const after = `If you did not ask for it, ignore this email: nothing more is sent.`;
  return {
    subject: `Confirm your address to receive your ${brand.product} conversation`,
    text: [lead, '', link, '', after, '', 'The link works for 7 days.', ''].join('\n'),
    html:
      `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">` +
      `<p>${escapeHtml(lead)}</p><p><a href="${escapeHtml(link)}" style="background:#333399;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold">Confirm my address</a></p>` +
      `<p style="color:#64748b;font-size:13px">${escapeHtml(after)} The link works for 7 days.</p></body></html>`,
  };
}

/**
 * Outgoing mail (DESIGN.md 17): the transport is private here; every feature's mail job sends through
 * `app.mail.send` (suppression, content rule, caps, List-Unsubscribe, the record of what was sent),
 * and mails to the team through `app.staffNotices`. The pages of the mailed unsubscribe and
 * address-confirmation links live here too.
 */
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
    const policy = new MailPolicy({
      db: app.db,
      write: app.write,
      mailer,
      log: app.log.child({ module: 'mail' }),
      sessionSecret: config.sessionSecret,
      publicUrl: config.publicUrl,
      caps: config.mailCaps,
      anonymousTrafficOver: () => app.anonymousBudget.overToday(),
    });
    policy.confirmationMail = app.jobs.define('mail-address-confirmation', {
      class: 'mail',
      payload: z.object({ confirmationId: z.number().int().positive() }),
      async handle({ confirmationId }, context) {
        const confirmation = await findConfirmation(app.db, confirmationId);
        if (!confirmation || confirmation.confirmedAt !== null) return;
        // The link's expiry comes from the job, so every retry sends the same mail.
        const token = signLink(config.sessionSecret, addressConfirmationLink, { address: confirmation.address, confirmation: String(confirmationId) }, context.dueAt);
        const link = `${config.publicUrl}${confirmAddressPath}?token=${token}`;
        await policy.send({ purpose: 'confirmation', to: confirmation.address, compose: () => addressConfirmationMail(link) }, context);
      },
    });
    app.decorate('mail', policy);
    app.decorate('staffNotices', new StaffNotices(app, policy, { notifyEmail: config.notifyEmail, ...config.notifyDigest }));
    await app.register(mailLinkRoutes, { policy, sessionSecret: config.sessionSecret });
    app.addHook('onClose', () => mailer.close());
  },
  { name: 'mail', dependencies: ['db', 'events', 'jobs', 'anonymous-budget'] },
);
