import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { afterSubmitCopy, leadReference } from '../../contract/after-submit';
import { brand } from '../../contract/brand';
import { leadKindSchema, type LeadKind } from '../../contract/leads';
import { planLabel, pricingPlanOf } from '../../contract/plans';
import { escapeHtml } from '../mail';
import { findConfirmationRecipient } from './lead-confirmation.repository';

const confirmationPayload = z.object({ kind: leadKindSchema, id: z.number().int().positive() });

export interface ConfirmationInput {
  kind: LeadKind;
  id: number;
  /** The submitter's name as the mail policy lets it greet them: none with a link or markup to an address not proven. */
  name: string | undefined;
  /** The pricing plan of an application, when one was picked. */
  plan?: string | null;
  unsubscribeLink: string;
}

const subjects: Record<LeadKind, string> = {
  contact: 'We received your message',
  support: 'We received your support ticket',
  demo: 'We received your demo request',
  'get-started': 'We received your application',
};

/**
 * The submitter's confirmation: the reference, what happens next (the thank-you's own words) and a
 * way out. Text and HTML; what the visitor typed appears only escaped.
 */
export function confirmationMail(input: ConfirmationInput): { subject: string; text: string; html: string } {
  const copy = afterSubmitCopy[input.kind];
  const reference = leadReference(input.kind, input.id);
  const plan = pricingPlanOf(input.plan);
  const greeting = input.name ? `Hi ${input.name},` : 'Hello,';
  const facts = [`Your reference: ${reference}`, ...(plan ? [`Plan: ${planLabel(plan)}`] : [])];
  const contact = `Questions? Call us at ${brand.phone} or write to ${brand.supportEmail}.`;
  const footer = `You get this email because this address was given on a form on our website. Unsubscribe: ${input.unsubscribeLink}`;
  const text = [
    greeting,
    '',
    `${copy.title} ${copy.lead}`,
    '',
    ...facts,
    '',
    'What happens next:',
    ...copy.nextSteps.map((step) => `- ${step}`),
    '',
    contact,
    '',
    `The ${brand.product} team`,
    '',
    footer,
    '',
  ].join('\n');
  const html =
    `<!doctype html><html><body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;background:#f8fafc">` +
    `<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px;color:#0f172a">` +
    `<p style="font-size:16px">${escapeHtml(greeting)}</p>` +
    `<p style="font-size:16px"><strong>${escapeHtml(copy.title)}</strong> ${escapeHtml(copy.lead)}</p>` +
    `<p style="font-size:16px;background:#eef2ff;border-radius:6px;padding:12px 16px">` +
    facts.map((fact) => escapeHtml(fact)).join('<br>') +
    `</p><p style="font-size:15px;margin-bottom:4px"><strong>What happens next</strong></p><ul style="font-size:15px;padding-left:20px">` +
    copy.nextSteps.map((step) => `<li style="margin:4px 0">${escapeHtml(step)}</li>`).join('') +
    `</ul><p style="font-size:15px">${escapeHtml(contact)}</p><p style="font-size:15px">The ${escapeHtml(brand.product)} team</p>` +
    `<p style="font-size:12px;color:#64748b">You get this email because this address was given on a form on our website. ` +
    `<a href="${escapeHtml(input.unsubscribeLink)}" style="color:#333399">Unsubscribe</a></p></div></body></html>`;
  return { subject: `${subjects[input.kind]} (${reference})`, text, html };
}

/** One confirmation per address in a window this long. */
const confirmationWindowMs = 10 * 60 * 1000;

/** An address as a job's dedupe key holds it: hashed, in any case. */
function addressKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22);
}

/**
 * The confirmation mail to whoever sent a public form (DESIGN.md 16): a job promised in the lead's
 * own write (a durable listener on `lead.created`), reading the lead when it runs; one Message-ID
 * across retries, sent through the mail policy (none to an address on the suppression list, no name
 * with a link or markup in its greeting). At most one per address in each 10-minute
 * window (its dedupe key, kept by the sent job too: a hash of the address, never the address, and the window): the forms are
 * open to anyone, so a stranger posting them with someone else's address cannot flood that mailbox;
 * the thank-you on screen shows every lead's reference whatever the mail.
 */
export function mailLeadConfirmations(app: FastifyInstance): void {
  const job = app.jobs.define('lead-confirmation-mail', {
    class: 'mail',
    payload: confirmationPayload,
    async handle({ kind, id }, context) {
      const recipient = await findConfirmationRecipient(app.db, kind, id);
      if (!recipient) return;
      // The mail policy (api/modules/mail): withheld from a suppressed address, capped, List-Unsubscribe,
      // and the submitter's name only where it carries no link or markup (the address never proved itself).
      await app.mail.send(
        {
          purpose: 'confirmation',
          to: recipient.email,
          about: { leads: [{ kind, id }] },
          compose: ({ unsubscribeLink, greetingName }) =>
            confirmationMail({ kind, id, name: greetingName(recipient.name), plan: recipient.plan, unsubscribeLink: unsubscribeLink! }),
        },
        context,
      );
    },
  });
  app.events.react('lead.created', ({ kind, lead }) => {
    const window = Math.floor(Date.parse(lead.createdAt) / confirmationWindowMs);
    return job.request({ kind, id: lead.id }, { dedupeKey: `lead-confirmation-mail:${addressKey(lead.email)}:${window}`, once: true });
  });
}
