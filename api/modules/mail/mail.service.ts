import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { privateFileMode, privateFolderMode } from '../../../db/files';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text. Nothing a visitor typed is ever rendered as HTML: in `html` it is escaped, shown as typed. */
  text: string;
  /** An HTML part beside the text, for mails that have one: every word a person typed in it escaped (chat.mail-text.ts). */
  html?: string;
  /** Extra headers (List-Unsubscribe). */
  headers?: Record<string, string>;
  /** Kept across retries of one mail (messageIdOf), so a mail sent twice after an unknown outcome reads as one. */
  messageId?: string;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where `.eml` files go when there is no SMTP server. */
  outboxDir: string;
  /**
   * The longest an SMTP server may keep the sender waiting (to connect, greet, or answer a command):
   * shorter than a job's lease, so a hung server fails the send and its job is retried, instead of
   * the lease running out and a second runner sending the same mail while the first still waits.
   */
  smtpTimeoutMs: number;
  log: FastifyBaseLogger;
}

/**
 * Visitor text made safe for a header, as every mail's subject goes through it. One line: a line break
 * (or any control character) would end the header early. No `=?` opener: an RFC 2047 encoded-word
 * typed by a visitor (`=?utf-8?B?...?=`) would be shown by mail clients as the text it encodes.
 */
function headerText(value: string): string {
  return value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ')
    .replace(/=\?/g, '= ?')
    .trim()
    .slice(0, 200);
}

/** Text made safe inside HTML: every character that could open markup or an attribute is an entity. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The transport under the mail policy: SMTP when `SMTP_URL` is set, otherwise each message is written
 * as an `.eml` file to the outbox folder (a developer opens it in any mail client). Private to the
 * mail module: features send through `app.mail.send` (mail.policy.ts), which decides whether a mail
 * may go at all. Only jobs send mail (api/jobs): a send that fails throws, and its job is retried.
 */
export class Mailer {
  private readonly transport: Transporter;
  private readonly messageIdDomain: string;

  constructor(private readonly options: MailerOptions) {
    this.transport = options.smtpUrl
      ? // Pooled: a few connections kept open for the next mails, not a TCP, TLS and AUTH handshake
        // per mail (a burst of notices waited on those; bench:jobs). `?pool=false` in the URL wins.
        nodemailer.createTransport({
          url: options.smtpUrl,
          pool: true,
          connectionTimeout: options.smtpTimeoutMs,
          greetingTimeout: options.smtpTimeoutMs,
          socketTimeout: options.smtpTimeoutMs,
        })
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    this.messageIdDomain = /@([^>\s]+)>?\s*$/.exec(options.mailFrom)?.[1] ?? 'lotwise.invalid';
  }

  /** The Message-ID of the mail a job sends: the same on every retry of that job. */
  messageIdOf(job: { jobId: number }): string {
    return `<job-${job.jobId}@${this.messageIdDomain}>`;
  }

  /** Sends one message; answers the outbox file it was written to, without SMTP. */
  async send(message: MailMessage): Promise<{ outboxFile?: string }> {
    const info = await this.transport.sendMail({
      from: this.options.mailFrom,
      to: message.to,
      subject: headerText(message.subject),
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.headers ? { headers: message.headers } : {}),
      ...(message.messageId ? { messageId: message.messageId } : {}),
    });
    if (this.options.smtpUrl) return {};
    const raw = (info as { message?: unknown }).message;
    if (!Buffer.isBuffer(raw)) throw new Error('mail transport returned no message');
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    // Written whole, then renamed: a reader of the outbox never sees half a message.
    const temporary = join(this.options.outboxDir, `.${name}.tmp`);
    try {
      await writeFile(temporary, raw, { mode: privateFileMode });
    } catch (error) {
      // The folder is made when a mail first finds it missing, not looked for before every mail.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(this.options.outboxDir, { recursive: true, mode: privateFolderMode });
      await writeFile(temporary, raw, { mode: privateFileMode });
    }
    await rename(temporary, join(this.options.outboxDir, name));
    return { outboxFile: name };
  }

  close(): void {
    this.transport.close();
  }
}
