import type { LeadKind } from './leads';

/**
 * The reference a submitter gets for a lead (thank-you, confirmation mail, staff when they call):
 * `LW-` + the kind's letter + the lead's id, e.g. `LW-C-1042`. Ids count per kind, so the letter
 * tells which list to open.
 */
export const leadReferenceLetters: Record<LeadKind, string> = {
  contact: 'C',
  support: 'S',
  demo: 'D',
  'get-started': 'G',
};

export function leadReference(kind: LeadKind, id: number): string {
  return `LW-${leadReferenceLetters[kind]}-${id}`;
}

/**
 * The `201` of a public form as the web app reads it: the stored lead with its reference, or
 * `{ ok: true }` for a submission that was not stored (a filled honeypot).
 */
export type LeadCreatedAnswer = { id: number; reference: string } | { ok: true };

/**
 * What the submitter reads after a valid submit, on the thank-you that replaces the form and in the
 * confirmation mail: the spec's success words as the heading and lead, then what happens next.
 */
export interface AfterSubmitCopy {
  title: string;
  lead: string;
  nextSteps: readonly string[];
}

export const afterSubmitCopy: Record<LeadKind, AfterSubmitCopy> = {
  contact: {
    title: 'Message sent successfully!',
    lead: "We'll get back to you within 24 hours.",
    nextSteps: [
      'A dealership specialist reads your message and replies by email or phone within 24 hours, usually much sooner during business hours.',
      'Quote your reference if you call us, so we find your message at once.',
    ],
  },
  support: {
    title: 'Support ticket created!',
    lead: "We'll respond within 2 hours during business hours.",
    nextSteps: [
      'Our support team reviews your ticket and replies within 2 hours during business hours (Monday-Friday 8:00 AM-6:00 PM CST, Saturday 9:00 AM-2:00 PM CST).',
      'Quote your reference if you call us, so we find your ticket at once.',
    ],
  },
  demo: {
    title: 'Demo Requested!',
    lead: "We'll contact you within 24 hours to schedule your demo.",
    nextSteps: [
      'We call or email you within 24 hours to find a time for your 30-minute walkthrough.',
      'Quote your reference if you call us, so we find your request at once.',
    ],
  },
  'get-started': {
    title: 'Application submitted successfully!',
    lead: 'Your request has been saved. Our team will contact you within 24 hours to schedule your strategy call.',
    nextSteps: [
      'Strategy Call: a 30-minute consultation to plan your site, inventory feed and lead routing.',
      'Custom Setup: we build your site, train your AI assistant and connect your inventory.',
      'Launch & Training: most dealerships are live in 7-14 days from application.',
    ],
  },
};
