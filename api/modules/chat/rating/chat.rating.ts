import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../../config';
import { chatSessionNotFoundMessage } from '../../../contract/chat';
import {
  type ChatRating,
  type ChatRatingState,
  type ChatRatingValue,
  chatAlreadyRatedMessage,
  chatRatingNotAskedMessage,
  ratingLinkExpiredMessage,
  ratingLinkInvalidMessage,
  ratingLinkPage,
} from '../../../contract/chat-rating';
import { rooms } from '../../../contract/socket';
import type { Write } from '../../../events';
import { HttpError } from '../../../plugins/errors';
import { escapeHtml } from '../../mail';
import * as repository from '../conversation/chat.repository';
import * as inbox from '../conversation/chat.inbox.repository';
import { checkRatingLinkToken, ratingLinkToken } from './chat.rating-link';
import { ratingOf } from './chat.rating-record';
import { markRatingAsked, saveRating } from './chat.rating.repository';
import { toSummary } from '../conversation/chat.service';

/** Who rates: the visitor of the widget (their cookie's identity), or whoever holds a mailed link's token. */
export type Rater = { by: 'visitor'; visitorId: string | undefined } | { by: 'link'; token: string };

/**
 * "How did we do?" (DESIGN.md 10). The widget is asked when staff resolve a conversation, or when
 * their last reply has waited `RATING_ASK_DELAY_SECONDS` (30 minutes) with no message since: both are
 * jobs (the resolve's due at once), so the ask survives a restart and happens once across nodes. A
 * visitor whose widget is gone by then, and who gave an email, is asked by mail instead: once, with
 * good / bad links to a confirm page (a GET records nothing; its POST does).
 *
 * One rating per session, final once given: a second is refused (409) whichever way it comes. A
 * rating counts only once the session was asked (`rating_asked_at`): one before it is refused (409),
 * so nobody skews the reports by rating a conversation we never asked about.
 */
export class ChatRatings {
  constructor(
    private readonly app: FastifyInstance,
    private readonly write: Write,
    private readonly linkSecret: string,
  ) {}

  /** Whether the visitor of their own session was asked, and their rating once given; a stranger's session is not found. */
  async state(visitorId: string | undefined, sessionId: string): Promise<ChatRatingState> {
    const session = await repository.findSession(this.app.db, sessionId);
    if (!session || session.visitorId !== visitorId) throw new HttpError(404, chatSessionNotFoundMessage);
    return { asked: session.ratingAskedAt !== null, rating: ratingOf(session) };
  }

  /** Stores the rating and tells staff (the session's summary, pushed to every staff screen). */
  async rate(rater: Rater, sessionIdGiven: string | undefined, input: { rating: ChatRatingValue; comment?: string }): Promise<ChatRating> {
    const sessionId = rater.by === 'link' ? this.sessionOfLink(rater.token) : sessionIdGiven!;
    return this.write(async (tx) => {
      const session = await repository.findSession(tx.db, sessionId);
      if (!session || (rater.by === 'visitor' && session.visitorId !== rater.visitorId)) throw new HttpError(404, chatSessionNotFoundMessage);
      if (session.rating === null && session.ratingAskedAt === null) throw new HttpError(409, chatRatingNotAskedMessage);
      const rating = { rating: input.rating, comment: input.comment ?? null, ratedAt: new Date().toISOString() };
      if (!(await saveRating(tx.db, sessionId, rating))) throw new HttpError(409, chatAlreadyRatedMessage);
      const summary = await inbox.findSessionSummary(tx.db, sessionId);
      if (summary) tx.emit({ type: 'chat.session.updated', session: toSummary(summary) });
      return rating;
    });
  }

  /** The session a mailed link names; a forged or expired token is refused before anything is read. */
  private sessionOfLink(token: string): string {
    const check = checkRatingLinkToken(this.linkSecret, token, Date.now());
    if (check.ok) return check.sessionId;
    throw check.reason === 'expired' ? new HttpError(410, ratingLinkExpiredMessage) : new HttpError(400, ratingLinkInvalidMessage);
  }
}

/** The rating mail's good / bad links: each opens the confirm page, which records nothing until its button is pressed. */
export function ratingLinks(publicUrl: string, token: string): Record<ChatRatingValue, string> {
  const link = (rating: ChatRatingValue) => `${publicUrl}${ratingLinkPage}?${new URLSearchParams({ token, rating }).toString()}`;
  return { good: link('good'), bad: link('bad') };
}

export function ratingMail(links: Record<ChatRatingValue, string>): { subject: string; text: string; html: string } {
  const text = [
    'Thanks for chatting with Lotwise.',
    '',
    'How did we do? One click tells us (you can add a comment on the next page):',
    '',
    `Good: ${links.good}`,
    `Bad: ${links.bad}`,
    '',
    'The links work for 30 days.',
    '',
  ].join('\n');
  const button = (href: string, label: string, colour: string) =>
    `<a href="${escapeHtml(href)}" style="display:inline-block;margin:0 8px 8px 0;padding:10px 18px;border-radius:6px;background:${colour};color:#ffffff;text-decoration:none;font-weight:600">${label}</a>`;
  const html = [
    '<!doctype html><html><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">',
    '<p>Thanks for chatting with Lotwise.</p>',
    '<p><strong>How did we do?</strong> One click tells us (you can add a comment on the next page):</p>',
    `<p>${button(links.good, '&#128077; Good', '#15803d')}${button(links.bad, '&#128078; Bad', '#b91c1c')}</p>`,
    '<p style="color:#64748b;font-size:13px">The links work for 30 days.</p>',
    '</body></html>',
  ].join('');
  return { subject: 'How did we do?', text, html };
}

/**
 * The rating's jobs and listeners. The ask is due at once when staff resolve (one per session by its
 * dedupe key), and 30 minutes after each staff reply (one job per reply, no key: the job that finds
 * its reply still the session's last message asks; the others find a later message and end quietly).
 */
export function askForRatings(app: FastifyInstance, config: Config): void {
  const { ratingAskDelayMs } = config.chatFollowUp;

  const mail = app.jobs.define('chat-rating-mail', {
    class: 'mail',
    payload: z.object({ sessionId: z.string() }),
    async handle({ sessionId }, context) {
      const session = await repository.findSession(app.db, sessionId);
      // Nobody to ask, or rated already. An address that asked for no more of our mail: the mail policy withholds it.
      if (!session?.senderEmail || session.rating !== null) return;
      // The link's expiry comes from the job, so every retry sends the same mail.
      const token = ratingLinkToken(config.sessionSecret, sessionId, context.dueAt);
      await app.mail.send({ purpose: 'reply', to: session.senderEmail, about: { sessions: [sessionId] }, fromAnonymousChat: true, compose: () => ratingMail(ratingLinks(config.publicUrl, token)) }, context);
    },
  });

  const ask = app.jobs.define('chat-rating-ask', {
    class: 'realtime',
    // `afterSeq`: the staff reply whose 30 minutes are up; absent when staff resolved the session.
    payload: z.object({ sessionId: z.string(), afterSeq: z.number().int().positive().optional() }),
    async handle({ sessionId, afterSeq }) {
      const session = await repository.findSession(app.db, sessionId);
      if (!session || session.rating !== null || session.ratingAskedAt !== null) return;
      // A message came after the reply, or the visitor reopened the resolved session: not the moment.
      if (afterSeq === undefined ? session.status !== 'resolved' : session.lastSeq !== afterSeq) return;
      const present = (await app.visitorSockets.in(rooms.chatSession(sessionId)).fetchSockets()).length > 0;
      await app.write(async (tx) => {
        if (!(await markRatingAsked(tx.db, sessionId, new Date().toISOString()))) return;
        tx.emit({ type: 'chat.rating.asked', sessionId });
        // Set once with the ask, so the mail is promised at most once per session.
        if (!present && session.senderEmail) tx.enqueue(mail.request({ sessionId }, { dedupeKey: `chat-rating-mail:${sessionId}` }));
      });
    },
  });

  app.events.react('chat.session.updated', ({ session }) =>
    session.status === 'resolved' && !session.rating ? ask.request({ sessionId: session.id }, { dedupeKey: `chat-rating-ask:${session.id}` }) : undefined,
  );
  app.events.react('chat.message.created', ({ message }) =>
    message.kind === 'staff'
      ? ask.request({ sessionId: message.sessionId, afterSeq: message.seq }, { runAt: Date.parse(message.createdAt) + ratingAskDelayMs })
      : undefined,
  );
  app.events.on('chat.rating.asked', ({ sessionId }) => {
    app.visitorSockets.to(rooms.chatSession(sessionId)).emit('chat:rating-asked', { sessionId });
  });
}
