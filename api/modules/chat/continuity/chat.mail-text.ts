import { brand } from '../../../contract/brand';
import { escapeHtml } from '../../mail';

export { escapeHtml };

/** One message as a mail shows it: who wrote it, when, and the words as typed. */
export interface MailedMessage {
  from: string;
  at: string;
  text: string;
}


const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** `Dec 20, 2026, 3:04 PM UTC`, in the visitor's zone when known. */
/**
 * A staff reply's author as a visitor reads it in a mail: the display name they chose, as the widget
 * shows it (`staffName`), else the team; never their email or any part of it.
 */
export function replyAuthorForVisitors(author: { authorDisplayName: string | null }): string {
  return author.authorDisplayName ? `${author.authorDisplayName} at ${brand.product}` : `${brand.product} support`;
}

export function mailTime(iso: string, timeZone: string | null): string {
  const at = new Date(iso);
  if (timeZone) {
    try {
      return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone, timeZoneName: 'short' }).format(at);
    } catch {
      // A zone this Node does not know: UTC below.
    }
  }
  return `${timeFormat.format(at)} UTC`;
}

function textMessages(messages: readonly MailedMessage[]): string[] {
  return messages.flatMap((message) => [`${message.from}, ${message.at}:`, ...message.text.split('\n').map((line) => `  ${line}`), '']);
}

function htmlMessages(messages: readonly MailedMessage[]): string {
  return messages
    .map(
      (message) =>
        `<div style="margin:0 0 16px"><div style="font-size:12px;color:#64748b">${escapeHtml(message.from)} &middot; ${escapeHtml(message.at)}</div>` +
        `<div style="white-space:pre-wrap;font-size:15px;color:#0f172a">${escapeHtml(message.text)}</div></div>`,
    )
    .join('');
}

function htmlPage(body: string): string {
  return `<!doctype html><html><body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;background:#f8fafc"><div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">${body}</div></body></html>`;
}

function button(href: string, label: string): string {
  return `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="background:#333399;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(label)}</a></p>`;
}

/** The mail of staff replies the visitor has not seen: each reply, a link back to the conversation, and a way out. */
export function continuityMail(mail: { replies: readonly MailedMessage[]; link: string; unsubscribeLink: string }): { subject: string; text: string; html: string } {
  const many = mail.replies.length > 1;
  const lead = many ? `You have ${mail.replies.length} new replies from ${brand.product} to your chat.` : `You have a new reply from ${brand.product} to your chat.`;
  const footer = `You get this email because you gave this address in the chat on our website. Unsubscribe: `;
  return {
    subject: many ? `${mail.replies.length} new replies from ${brand.product}` : `New reply from ${brand.product}`,
    text: [lead, '', ...textMessages(mail.replies), `Continue the conversation: ${mail.link}`, '', `${footer}${mail.unsubscribeLink}`, ''].join('\n'),
    html: htmlPage(
      `<p style="font-size:16px;color:#0f172a">${escapeHtml(lead)}</p>${htmlMessages(mail.replies)}${button(mail.link, 'Continue the conversation')}` +
        `<p style="font-size:12px;color:#64748b">${escapeHtml(footer)}<a href="${escapeHtml(mail.unsubscribeLink)}" style="color:#64748b">unsubscribe</a>.</p>`,
    ),
  };
}

/** The whole conversation, as the visitor or staff asked for it. */
export function transcriptMail(mail: { messages: readonly MailedMessage[]; startedAt: string }): { subject: string; text: string; html: string } {
  const lead = `Here is your chat with ${brand.product}, started ${mail.startedAt}.`;
  const contact = `Questions? Reply in the chat on our website, or call us at ${brand.phone}.`;
  return {
    subject: `Your chat with ${brand.product}`,
    text: [lead, '', ...textMessages(mail.messages), contact, ''].join('\n'),
    html: htmlPage(
      `<p style="font-size:16px;color:#0f172a">${escapeHtml(lead)}</p>${htmlMessages(mail.messages)}<p style="font-size:13px;color:#64748b">${escapeHtml(contact)}</p>`,
    ),
  };
}
