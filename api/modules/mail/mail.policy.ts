import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client';
import type { Tx, Write } from '../../events';
import type { JobContext, JobKind, JobRequest } from '../../jobs';
import { addressHash, normalAddress, plainName, unsubscribeToken } from './mail.addresses';
import * as repository from './mail.repository';
import type { Mailer } from './mail.service';

/**
 * Why a mail goes: every mail names one (DESIGN.md 17).
 * - `security`: a password reset, an invite: to an account's own address, no List-Unsubscribe, never suppressed.
 * - `staff-notice`: to NOTIFY_EMAIL (a lead, a chat waiting): one per-minute budget, past it one digest (mail.staff-notices.ts).
 * - `reply`: staff replies a visitor has not seen, the rating question.
 * - `confirmation`: a form's confirmation, an address confirmation.
 * - `transcript`: a conversation, as the visitor or staff asked for it.
 */
export type MailPurpose = 'security' | 'staff-notice' | 'reply' | 'confirmation' | 'transcript';

/** Purposes mailed to people outside the team: the suppression list, the caps and the content rule hold. */
const publicPurposes: readonly MailPurpose[] = ['reply', 'confirmation', 'transcript'];

/** The rows a mail is about, so a data request finds it (a staff mail quoting a visitor names no visitor address). */
export interface MailAbout {
  sessions?: readonly string[];
  leads?: readonly { kind: string; id: number }[];
}

export interface MailContent {
  subject: string;
  /** Plain text. */
  text: string;
  /** Every word a person typed in it escaped (escapeHtml). */
  html?: string;
}

/** What the policy tells a mail's composer about its recipient. */
export interface MailRecipient {
  /** The address proved it wants our mail (a link we mailed it was opened), or it is the team's or an account's own. */
  verified: boolean;
  /** The address's unsubscribe link (every mail but security mail carries it, as a header too). */
  unsubscribeLink: string | undefined;
  /** A name fit to greet them with: as given to a verified address; to any other, none with a link or markup. */
  greetingName: (name: string | null | undefined) => string | undefined;
}

export interface OutgoingMail {
  purpose: MailPurpose;
  to: string;
  about?: MailAbout;
  /**
   * The mail carries text a visitor or a form's submitter wrote (a transcript): it goes only to an
   * address that proved it wants our mail. A stranger can never make us mail their words to anyone.
   */
  carriesVisitorText?: boolean;
  /**
   * Anonymous chat traffic caused it (an escalation, a continuity mail, a transcript, the rating
   * question): withheld while this node is past its daily budget of anonymous traffic
   * (api/plugins/anonymous-budget.ts), so a flood of strangers' chats never turns into a flood of mail.
   */
  fromAnonymousChat?: boolean;
  compose(recipient: MailRecipient): MailContent;
}

type WithheldReason = 'suppressed' | 'unverified' | 'capped' | 'anonymous-budget';
export type MailOutcome = { sent: true } | { sent: false; reason: WithheldReason };

export interface MailPolicyOptions {
  db: Db;
  write: Write;
  mailer: Mailer;
  log: FastifyBaseLogger;
  sessionSecret: string;
  publicUrl: string;
  caps: { perAddressPerHour: number; unverifiedPerHour: number };
  /** Whether this node is past its daily budget of anonymous chat traffic today. */
  anonymousTrafficOver?: () => boolean;
  now?: () => number;
}

/** The page a person opens from a mail's unsubscribe link (and a mail client POSTs to, RFC 8058). */
export const unsubscribePath = '/unsubscribe';
/** The page of the address-confirmation link. */
export const confirmAddressPath = '/confirm-email';

const hourMs = 60 * 60 * 1000;

export function aboutSubjects(about: MailAbout | undefined): string[] {
  return [...(about?.sessions ?? []).map((id) => `session:${id}`), ...(about?.leads ?? []).map((lead) => `lead:${lead.kind}:${lead.id}`)];
}

/**
 * The one gate every outgoing mail passes (DESIGN.md 17): the suppression list, the content rule for
 * addresses that never asked for our mail, the caps per address and site-wide, List-Unsubscribe on
 * all but security mail; then the send, and its record (recipient, purpose, the rows it is about)
 * that data requests read. Only jobs send: `context` is the sending job's, whose id is the mail's
 * Message-ID and the key of its record, so a retry sends the same mail and records it once.
 *
 * The caps are counted before the send from the record: sends of one moment on several nodes can pass
 * a cap by the few in flight, never by more.
 */
export class MailPolicy {
  private readonly now: () => number;
  /** The job that mails a confirmation link (index.ts defines it). */
  confirmationMail: JobKind<{ confirmationId: number }> | undefined;

  constructor(private readonly options: MailPolicyOptions) {
    this.now = options.now ?? Date.now;
  }

  unsubscribeLinkFor(email: string): string {
    return `${this.options.publicUrl}${unsubscribePath}?token=${unsubscribeToken(this.options.sessionSecret, email, this.now())}`;
  }

  async send(mail: OutgoingMail, context: JobContext): Promise<MailOutcome> {
    const { db, caps } = this.options;
    const to = normalAddress(mail.to);
    const hash = addressHash(to);
    const publicMail = publicPurposes.includes(mail.purpose);
    const standing = await repository.findAddress(db, hash);
    if (mail.purpose !== 'security' && standing.suppressed) return this.withheld(mail, 'suppressed');
    if (mail.fromAnonymousChat && this.withholdsAnonymousChatMail()) return this.withheld(mail, 'anonymous-budget');
    const verified = !publicMail || standing.verified;
    if (mail.carriesVisitorText && !verified) return this.withheld(mail, 'unverified');
    // A retry of a mail that went (its record is there) is not sent again.
    if (context.attempt > 1 && (await repository.sentByJob(db, context))) return { sent: true };
    const now = this.now();
    if (publicMail) {
      if (caps.perAddressPerHour > 0 && (await repository.countSentTo(db, to, publicPurposes, now - hourMs)) >= caps.perAddressPerHour) return this.withheld(mail, 'capped');
      if (!verified && caps.unverifiedPerHour > 0 && (await repository.countSentUnverified(db, now - hourMs)) >= caps.unverifiedPerHour) return this.withheld(mail, 'capped');
    }
    const unsubscribeLink = mail.purpose === 'security' ? undefined : this.unsubscribeLinkFor(to);
    const content = mail.compose({ verified, unsubscribeLink, greetingName: (name) => (verified ? name?.trim() || undefined : plainName(name)) });
    const messageId = this.options.mailer.messageIdOf(context);
    const { outboxFile } = await this.options.mailer.send({
      to: mail.to,
      ...content,
      ...(unsubscribeLink ? { headers: { 'List-Unsubscribe': `<${unsubscribeLink}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
      messageId,
    });
    // After the send: a crash between the two sends again on retry (one Message-ID), and records it then.
    await this.options.write((tx) =>
      repository.recordSent(tx.db, {
        jobId: context.jobId,
        jobDueAt: context.dueAt,
        recipient: to,
        purpose: mail.purpose,
        subject: content.subject,
        messageId,
        outboxFile: outboxFile ?? null,
        toVerified: verified,
        sentAt: this.now(),
        subjects: aboutSubjects(mail.about),
      }),
    );
    return { sent: true };
  }

  /** True while mail caused by anonymous chat traffic is withheld on this node (`fromAnonymousChat`). */
  withholdsAnonymousChatMail(): boolean {
    return this.options.anonymousTrafficOver?.() ?? false;
  }

  private withheld(mail: OutgoingMail, reason: WithheldReason): MailOutcome {
    this.options.log.info({ purpose: mail.purpose, reason }, 'mail withheld by the mail policy');
    return { sent: false, reason };
  }

  /** The address's standing (verified, suppressed), read outside a write. */
  standing(db: Db, email: string): Promise<repository.AddressStanding> {
    return repository.findAddress(db, addressHash(email));
  }

  /** The address's standing, locked to this write: two requests about one address take turns (limits per address). */
  lockAddress(tx: Tx, email: string): Promise<repository.AddressStanding> {
    return repository.lockAddress(tx.db, addressHash(email));
  }

  /** The address proved it wants our mail: it opened a link we mailed it (a conversation link, a confirmation). */
  markVerified(tx: Tx, email: string): Promise<void> {
    return repository.markVerified(tx.db, addressHash(email), this.now());
  }

  /** No more mail to the address (an unsubscribe, an erase): kept as a hash, whatever else is erased. */
  suppress(tx: Tx, email: string, reason: 'unsubscribed' | 'erased'): Promise<void> {
    return repository.suppress(tx.db, addressHash(email), reason, this.now());
  }

  /**
   * Work that may go to `to` only once the address proves it wants it (a transcript): the work waits
   * as a job request, and the address is mailed a confirmation link with none of the visitor's text;
   * opening it verifies the address and enqueues the work (mail.routes.ts). In the caller's write.
   */
  async requestConfirmation(tx: Tx, request: { to: string; then: JobRequest }): Promise<void> {
    if (!this.confirmationMail) throw new Error('the address-confirmation mail is not defined');
    const confirmationId = await repository.addConfirmation(tx.db, {
      address: normalAddress(request.to),
      thenKind: request.then.kind,
      thenPayload: JSON.stringify(request.then.payload),
      createdAt: this.now(),
    });
    tx.enqueue(this.confirmationMail.request({ confirmationId }, { dedupeKey: `mail-address-confirmation:${confirmationId}` }));
  }
}
