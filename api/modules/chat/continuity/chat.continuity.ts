import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../../config';
import { chatSessionNotFoundMessage } from '../../../contract/chat';
import { errorBodySchema } from '../../../contract/common';
import { chatLinkAnswer, chatLinkExpiredMessage, chatLinkInputSchema, chatLinkInvalidMessage } from '../../../contract/continuity';
import { apiPaths, chatLinkQueryParam } from '../../../contract/paths';
import { HttpError } from '../../../plugins/errors';
import type { JobContext } from '../../../jobs';
import { addGrant, claimContinuityMail, findContinuityMail, staffRepliesBetween } from './chat.continuity.repository';
import { chatLinkToken, checkChatLinkToken } from './chat.links';
import { continuityMail, type MailedMessage, mailTime, replyAuthorForVisitors } from './chat.mail-text';
import { findSession } from '../conversation/chat.repository';

const continuityPayload = z.object({ sessionId: z.string().min(1).max(100) });

/**
 * Email continuity (DESIGN.md 10): a staff reply the visitor has not seen within
 * CONTINUITY_DELAY_SECONDS, in a chat with their email, is mailed to them with every other unseen
 * reply, at most one mail per chat per 10 minutes, with a signed link that reopens the chat in the
 * widget on any device, through the mail policy (suppression, List-Unsubscribe: api/modules/mail).
 *
 * Each staff reply's write promises a job (a durable listener), due after the delay. When it runs
 * it reads what is still unseen and not mailed yet: nothing is sent if it was all seen, and the
 * first job of a burst mails every reply of it (the others find nothing left). A reply too young,
 * or a mail too soon after the last one, sets a later job instead of sending; the conditional claim
 * of the session's mail row (chat.continuity.repository.ts) keeps it to one mail per 10 minutes
 * across nodes.
 */
export function mailChatContinuity(app: FastifyInstance, config: Config): void {
  const { delayMs, spacingMs } = config.continuity;
  const secret = config.sessionSecret;

  const linkTo = (sessionId: string, now: number) => `${config.publicUrl}/?${chatLinkQueryParam}=${chatLinkToken(secret, sessionId, now)}`;

  // Every key names one job for good (a reply's seq, a moment): a finished job's key taken over
  // would run as the same job id again, whose Message-ID and claim are that earlier mail's.
  const later = (sessionId: string, runAt: number) =>
    app.write(async (tx) => tx.enqueue(job.request({ sessionId }, { runAt, dedupeKey: `chat-continuity-mail:${sessionId}:at:${runAt}` })));

  async function handle({ sessionId }: { sessionId: string }, context: JobContext): Promise<void> {
    const session = await findSession(app.db, sessionId);
    const email = session?.senderEmail;
    if (!session || !email) return;
    const now = app.clock.now();
    const last = await findContinuityMail(app.db, sessionId);
    // A retry of this job's own mail sends that mail again (one Message-ID); a new one takes the
    // replies unseen now that no mail had yet.
    const retry = last?.jobId === context.jobId;
    const after = retry ? last.afterSeq : Math.max(session.visitorSeenSeq, last?.upToSeq ?? 0);
    const upTo = retry ? last.upToSeq : session.lastSeq;
    const replies = (await staffRepliesBetween(app.db, { sessionId, after, upTo })).filter((reply) => reply.seq > session.visitorSeenSeq);
    if (replies.length === 0) return;
    if (!retry) {
      const oldestDueAt = Date.parse(replies[0]!.createdAt) + delayMs;
      const spacedAt = last ? Number(last.mailedAt) + spacingMs : 0;
      if (oldestDueAt > now || spacedAt > now) return later(sessionId, Math.max(oldestDueAt, spacedAt));
      const claimed = await app.write((tx) => claimContinuityMail(tx.db, { sessionId, jobId: context.jobId, afterSeq: after, upToSeq: upTo, now, spacingMs }));
      // Another node's mail of this chat went out a moment ago: these replies wait for the next.
      if (!claimed) return later(sessionId, now + spacingMs);
    }
    const mailed: MailedMessage[] = replies.map((reply) => ({
      from: replyAuthorForVisitors(reply),
      at: mailTime(reply.createdAt, session.timeZone),
      text: reply.message,
    }));
    // A reply to the visitor: the mail policy (api/modules/mail) withholds it from a suppressed
    // address, adds List-Unsubscribe and the footer's link, and records it against the chat.
    await app.mail.send(
      {
        purpose: 'reply',
        to: email,
        about: { sessions: [sessionId] },
        fromAnonymousChat: true,
        compose: ({ unsubscribeLink }) => continuityMail({ replies: mailed, link: linkTo(sessionId, now), unsubscribeLink: unsubscribeLink! }),
      },
      context,
    );
  }

  const job = app.jobs.define('chat-continuity-mail', { class: 'mail', payload: continuityPayload, handle });

  app.events.react('chat.message.created', ({ message }) =>
    message.kind === 'staff'
      ? job.request({ sessionId: message.sessionId }, { runAt: app.clock.now() + delayMs, dedupeKey: `chat-continuity-mail:${message.sessionId}:${message.seq}` })
      : undefined,
  );
}

const linkErrors = { 400: errorBodySchema, 404: errorBodySchema, 410: errorBodySchema, 429: errorBodySchema };

/**
 * `POST /api/chat-links`: the widget opened with a mailed link's token. A genuine, unexpired token
 * lets this browser's visitor identity into that one conversation (a grant) until the token expires,
 * and nothing else of the visitor's: another device gets the conversation, never the visitor's other chats.
 */
export async function chatLinkRoutes(instance: FastifyInstance, options: { config: Config }): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const secret = options.config.sessionSecret;
  app.post(apiPaths.chatLinks, { schema: { body: chatLinkInputSchema, response: { 200: chatLinkAnswer, ...linkErrors } } }, async (request, reply) => {
    const check = checkChatLinkToken(secret, request.body.token, Date.now());
    if (!check.ok) throw new HttpError(check.reason === 'expired' ? 410 : 404, check.reason === 'expired' ? chatLinkExpiredMessage : chatLinkInvalidMessage);
    const { sessionId, expiresAt } = check;
    const visitorId = await request.visitorId(reply);
    await app.write(async (tx) => {
      const session = await findSession(tx.db, sessionId);
      if (!session) throw new HttpError(404, chatSessionNotFoundMessage);
      if (session.visitorId !== visitorId) await addGrant(tx.db, { visitorId, sessionId, createdAt: new Date().toISOString(), expiresAt: new Date(expiresAt).toISOString() });
      // The link was mailed to the conversation's address: opening it proves the address wants our
      // mail (a transcript to it then needs no confirmation first).
      if (session.senderEmail) await app.mail.markVerified(tx, session.senderEmail);
    });
    return { sessionId };
  });
}
