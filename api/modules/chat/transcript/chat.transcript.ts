import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chatSessionNotFoundMessage, chatSessionParamsSchema } from '../../../contract/chat';
import { errorBodySchema } from '../../../contract/common';
import {
  transcriptAnswer,
  transcriptDailyLimitMessage,
  transcriptLimits,
  transcriptNoEmailMessage,
  transcriptTooSoonMessage,
  transcriptUnsubscribedMessage,
} from '../../../contract/continuity';
import { apiPaths } from '../../../contract/paths';
import { HttpError } from '../../../plugins/errors';
import { addTranscriptRequest, countTranscriptsTo, findTranscriptRequest, hasGrant, lastTranscriptOfSession, lockSession } from '../continuity/chat.continuity.repository';
import { type MailedMessage, mailTime, replyAuthorForVisitors, transcriptMail } from '../continuity/chat.mail-text';
import { findSession, listSessionMessages } from '../conversation/chat.repository';

const dayMs = 24 * 60 * 60 * 1000;

/** Who asks for a transcript: staff may for any chat; a visitor for their own (or one its mailed link opened). */
export type TranscriptAsker = { by: 'staff' } | { by: 'visitor'; visitorId: string };

/**
 * Transcripts (DESIGN.md 10, 17): the conversation mailed to its own stored email, never to an address
 * given with the request, at most one per chat per 10 minutes and five per address a day, whoever
 * asks. That email was typed by whoever started the chat, so it gets the transcript at once only when
 * it proved it wants our mail (it opened a link we mailed it); otherwise it is mailed a confirmation
 * link with none of the conversation, and the transcript goes when that is opened. The request and
 * its mail job (or the confirmation's) commit together.
 */
export function chatTranscripts(app: FastifyInstance): { request(asker: TranscriptAsker, sessionId: string): Promise<{ email: string; confirmationSent: boolean }> } {
  const mail = app.jobs.define('chat-transcript-mail', {
    class: 'mail',
    payload: z.object({ requestId: z.number().int().positive() }),
    async handle({ requestId }, context) {
      const request = await findTranscriptRequest(app.db, requestId);
      const session = request && (await findSession(app.db, request.sessionId));
      if (!request || !session) return;
      const rows = await listSessionMessages(app.db, session.id);
      const messages: MailedMessage[] = rows.map((row) => ({
        from: row.kind === 'visitor' ? row.senderName || 'You' : replyAuthorForVisitors(row),
        at: mailTime(row.createdAt, session.timeZone),
        text: row.message,
      }));
      if (messages.length === 0) return;
      // The visitor's words: the mail policy sends them only to an address that proved it wants them.
      await app.mail.send(
        {
          purpose: 'transcript',
          to: request.email,
          about: { sessions: [session.id] },
          carriesVisitorText: true,
          fromAnonymousChat: true,
          compose: () => transcriptMail({ messages, startedAt: mailTime(session.createdAt, session.timeZone) }),
        },
        context,
      );
    },
  });

  return {
    async request(asker, sessionId) {
      const now = Date.now();
      return app.write(async (tx) => {
        const session = await lockSession(tx.db, sessionId);
        const visible = session && (asker.by === 'staff' || session.visitorId === asker.visitorId || (await hasGrant(tx.db, asker.visitorId, sessionId)));
        if (!session || !visible) throw new HttpError(404, chatSessionNotFoundMessage);
        if (!session.senderEmail) throw new HttpError(400, transcriptNoEmailMessage);
        const email = session.senderEmail.toLowerCase();
        // The address's row, locked to this write: two requests about one address (of any chats)
        // take turns, so its daily limit is counted by one at a time on PostgreSQL too.
        const address = await app.mail.lockAddress(tx, email);
        // Whoever asks: the address said no more mail (or was erased).
        if (address.suppressed) throw new HttpError(409, transcriptUnsubscribedMessage);
        const last = await lastTranscriptOfSession(tx.db, sessionId, now - transcriptLimits.perSessionMs);
        if (last !== undefined) throw new HttpError(429, transcriptTooSoonMessage(Math.ceil((last + transcriptLimits.perSessionMs - now) / 1000)));
        if ((await countTranscriptsTo(tx.db, email, now - dayMs)) >= transcriptLimits.perAddressPerDay) throw new HttpError(429, transcriptDailyLimitMessage);
        const requestId = await addTranscriptRequest(tx.db, { sessionId, email, requestedAt: now });
        const transcript = mail.request({ requestId }, { dedupeKey: `chat-transcript-mail:${requestId}` });
        // An address that never proved it wants our mail gets a confirmation link first, with none
        // of the conversation: whoever typed it into a chat cannot make us mail them their words.
        if (address.verified) tx.enqueue(transcript);
        else await app.mail.requestConfirmation(tx, { to: email, then: transcript });
        return { email: session.senderEmail, confirmationSent: !address.verified };
      });
    },
  };
}

/**
 * `POST /api/chat-sessions/:sessionId/transcript`: one path for both askers, outside the cookie
 * session's scope like the widget's poll: a live staff sign-in may send any chat's, a visitor only
 * their own. Answers 202: the mail is a job.
 */
export async function transcriptRoutes(instance: FastifyInstance, options: { transcripts: ReturnType<typeof chatTranscripts> }): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const errors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema };
  app.post(
    apiPaths.chatTranscript,
    { schema: { params: chatSessionParamsSchema, response: { 202: transcriptAnswer, ...errors } } },
    async (request, reply) => {
      const sid = app.sessionIdFromCookieHeader(request.headers.cookie);
      const asker: TranscriptAsker = sid && (await app.isLiveStaffSid(sid)) ? { by: 'staff' } : { by: 'visitor', visitorId: await request.visitorId(reply) };
      const answer = await options.transcripts.request(asker, request.params.sessionId);
      return reply.code(202).send(answer);
    },
  );
}
