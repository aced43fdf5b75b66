import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../../config';
import { pathTo } from '../../../contract/paths';
import { escapeHtml } from '../../mail';
import * as repository from '../conversation/chat.repository';
import { listUnreadVisitorMessages, markEscalated } from './chat.escalation.repository';

/** At most one escalation mail per session in this long (DESIGN.md 10). */
export const escalationSpacingMs = 15 * 60 * 1000;

/** One conversation in the staff dashboard (web/features/admin/lib/admin-paths.ts `chatPath`). */
const staffChatPage = '/admin/chats/:sessionId';

/** The unread messages a mail quotes; the link shows the rest. */
const messagesQuoted = 10;

const timeOf = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export function escalationMail(
  session: { senderEmail: string | null },
  unread: readonly { message: string; createdAt: string }[],
  link: string,
  now: number,
): { subject: string; text: string; html: string } {
  const who = session.senderEmail ?? 'A visitor';
  const waitedMinutes = Math.max(1, Math.round((now - Date.parse(unread[0]!.createdAt)) / 60_000));
  const intro = `${who} has been waiting ${waitedMinutes} ${waitedMinutes === 1 ? 'minute' : 'minutes'} for a reply in the website chat. Nobody has read:`;
  const text = [intro, '', ...unread.flatMap((entry) => [`[${timeOf(entry.createdAt)}] ${entry.message}`, '']), `Open the conversation: ${link}`, ''].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">',
    `<p>${escapeHtml(intro)}</p>`,
    ...unread.map(
      (entry) =>
        `<blockquote style="margin:0 0 12px;padding:8px 12px;border-left:3px solid #cbd5e1;background:#f8fafc;white-space:pre-wrap">` +
        `<span style="color:#64748b;font-size:12px">${escapeHtml(timeOf(entry.createdAt))}</span><br>${escapeHtml(entry.message)}</blockquote>`,
    ),
    `<p><a href="${escapeHtml(link)}">Open the conversation</a></p>`,
    '</body></html>',
  ].join('');
  return { subject: `Chat waiting for a reply: ${who}`, text, html };
}

/**
 * Escalation: a visitor message no staff member has read within ESCALATION_DELAY_SECONDS is mailed
 * to NOTIFY_EMAIL, at most one mail per session per 15 minutes, with a link to the conversation.
 *
 * A visitor message's write adds the job (a durable listener), one statement on the chat's hot path:
 * its dedupe key names the session and the 15-minute window the message came in, so the messages of
 * a chatty visitor meet a pending job and add nothing. When it runs, the job lets go of its key (a
 * message after its look starts a new job) and looks at what is unread now (above the session's
 * lastReadSeq): nothing, and it ends; a message too young, or a mail sent less than 15 minutes ago,
 * and it comes back then (a job of its own); else it mails every unread message of the session, or,
 * past the team's per-minute budget of notices, names the chat in that minute's digest.
 */
export function escalateUnreadChats(app: FastifyInstance, config: Config): void {
  const { notifyEmail, publicUrl } = config;
  const { escalationDelayMs } = config.chatFollowUp;
  const linkTo = (sessionId: string) => `${publicUrl}${pathTo(staffChatPage, { sessionId })}`;

  /** Records the mail (its own or a digest's line) so the next waits 15 minutes, and promises the next for a message stored after the look. */
  const escalated = (sessionId: string, now: number, mailedUpTo: number) =>
    app.write(async (tx) => {
      const lastSeq = await markEscalated(tx.db, sessionId, { at: new Date(now).toISOString(), upToSeq: mailedUpTo });
      // A message stored after the look above was not the first unmailed one when it came (this mail
      // was not recorded yet), so it promised nothing: this write's look at lastSeq, under the same
      // row lock as its numbering, promises the next mail for it.
      if (lastSeq !== undefined && lastSeq > mailedUpTo) tx.enqueue(escalationAt(sessionId, now + escalationSpacingMs));
    });

  // A staff notice (api/modules/mail): escalations share one per-minute budget with every other mail
  // to the team; past it, a chat waiting is a line of that minute's digest, not a mail of its own.
  const escalation = app.staffNotices.define('chat-escalation', {
    payload: z.object({ sessionId: z.string() }),
    fromAnonymousChat: true,
    async compose({ sessionId }, context) {
      // A visitor message from now on adds a job of its own: this one may have read past it already.
      await app.jobs.releaseDedupeKey(context.jobId);
      const session = await repository.findSession(app.db, sessionId);
      if (!session) return undefined;
      const unread = await listUnreadVisitorMessages(app.db, session, messagesQuoted);
      if (unread.length === 0) return undefined;
      const now = Date.now();
      const unreadLongEnough = Date.parse(unread[0]!.createdAt) + escalationDelayMs;
      const spacedEnough = session.escalatedAt === null ? 0 : Date.parse(session.escalatedAt) + escalationSpacingMs;
      const dueAt = Math.max(unreadLongEnough, spacedEnough);
      if (dueAt > now) {
        await app.write(async (tx) => tx.enqueue(escalationAt(sessionId, dueAt)));
        return undefined;
      }
      // After the send: a crash between the two sends again on retry, with the same Message-ID.
      return { ...escalationMail(session, unread, linkTo(sessionId), now), about: { sessions: [sessionId] }, afterSend: () => escalated(sessionId, now, unread.at(-1)!.seq) };
    },
    async digestEntry({ sessionId }) {
      const session = await repository.findSession(app.db, sessionId);
      if (!session) return undefined;
      const unread = await listUnreadVisitorMessages(app.db, session, messagesQuoted);
      if (unread.length === 0) return undefined;
      const now = Date.now();
      const waited = Math.max(1, Math.round((now - Date.parse(unread[0]!.createdAt)) / 60_000));
      return {
        lines: [`Chat waiting ${waited} min: ${session.senderEmail ?? 'a visitor'}, ${unread.length} unread ${unread.length === 1 ? 'message' : 'messages'}`, `  ${linkTo(sessionId)}`],
        about: { sessions: [sessionId] },
        afterSend: () => escalated(sessionId, now, unread.at(-1)!.seq),
      };
    },
    digestCount: (count) => `${count} ${count === 1 ? 'chat' : 'chats'} waiting`,
  });
  // Keyed by the time it is due: a message's promise and a job's "come back then" for that same moment are one job.
  const escalationAt = (sessionId: string, runAt: number) => escalation.request({ sessionId }, { runAt, dedupeKey: `chat-escalation:${sessionId}:at:${runAt}` });

  // Only the first visitor message staff have neither read nor been mailed promises the job: the ones
  // after it find it waiting (it mails every unread message when it runs), and add nothing to their write.
  app.events.react('chat.message.created', ({ message, opensUnread }) => {
    if (!notifyEmail || message.kind !== 'visitor' || !opensUnread) return undefined;
    return escalationAt(message.sessionId, Date.parse(message.createdAt) + escalationDelayMs);
  });
}
