import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { staffDisplayName } from '../../contract/auth';
import { brand } from '../../contract/brand';
import { chatSessionNotFoundMessage } from '../../contract/chat';
import { errorBodySchema } from '../../contract/common';
import { chatLinkAnswer, chatLinkExpiredMessage, chatLinkInputSchema, chatLinkInvalidMessage } from '../../contract/continuity';
import { apiPaths, chatLinkQueryParam } from '../../contract/paths';
import { HttpError } from '../../plugins/errors';
import type { JobContext } from '../../jobs';
import {
  addGrant,
  addUnsubscribe,
  claimContinuityMail,
  findContinuityMail,
  isUnsubscribed,
  staffRepliesBetween,
} from './chat.continuity.repository';
import { chatLinkToken, checkChatLinkToken, checkUnsubscribeToken, unsubscribeToken } from './chat.links';
import { continuityMail, escapeHtml, type MailedMessage, mailTime } from './chat.mail-text';
import { findSession } from './chat.repository';

/** The page a person opens from a mail's unsubscribe link (and a mail client POSTs to, RFC 8058). */
export const unsubscribePath = '/unsubscribe';

/** A visitor mail's unsubscribe link, signed with the address it stops (every mail to a visitor carries it). */
export function unsubscribeLinkFor(config: Config, email: string): string {
  return `${config.publicUrl}${unsubscribePath}?token=${unsubscribeToken(config.sessionSecret, email)}`;
}

/** The headers of a mail to a visitor: its unsubscribe link, and one-click unsubscribe (RFC 8058). */
export function unsubscribeHeaders(link: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

const continuityPayload = z.object({ sessionId: z.string().min(1).max(100) });

/**
 * Email continuity (DESIGN.md 10): a staff reply the visitor has not seen within
 * CONTINUITY_DELAY_SECONDS, in a chat with their email, is mailed to them with every other unseen
 * reply, at most one mail per chat per 10 minutes, with a signed link that reopens the chat in the
 * widget on any device and a List-Unsubscribe that is honoured.
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
    if (!session || !email || (await isUnsubscribed(app.db, email))) return;
    const now = Date.now();
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
      from: reply.authorEmail === null ? `${brand.product} support` : `${staffDisplayName({ email: reply.authorEmail, displayName: reply.authorDisplayName })} at ${brand.product}`,
      at: mailTime(reply.createdAt, session.timeZone),
      text: reply.message,
    }));
    const unsubscribeLink = unsubscribeLinkFor(config, email);
    const mail = continuityMail({ replies: mailed, link: linkTo(sessionId, now), unsubscribeLink });
    await app.mailer.send({
      to: email,
      ...mail,
      headers: unsubscribeHeaders(unsubscribeLink),
      messageId: app.mailer.messageIdOf(context),
    });
  }

  const job = app.jobs.define('chat-continuity-mail', { class: 'mail', payload: continuityPayload, handle });

  app.events.react('chat.message.created', ({ message }) =>
    message.kind === 'staff'
      ? job.request({ sessionId: message.sessionId }, { runAt: Date.now() + delayMs, dedupeKey: `chat-continuity-mail:${message.sessionId}:${message.seq}` })
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
    });
    return { sessionId };
  });
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} | ${brand.product}</title>
<style>body{font-family:system-ui,Arial,sans-serif;background:#f8fafc;color:#0f172a;margin:0;padding:48px 16px}main{max-width:440px;margin:0 auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 1px 3px rgba(0,0,0,.1)}h1{font-size:22px;margin:0 0 12px}p{line-height:1.5}button{background:#333399;color:#fff;border:0;border-radius:8px;padding:10px 18px;font-size:16px;font-weight:600;cursor:pointer}a{color:#333399}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}<p><a href="/">Back to the ${brand.product} website</a></p></main></body></html>`;
}

/** `a***@example.com`: enough for a person to know it is theirs, not enough for a page left open to tell it. */
function maskedEmail(email: string): string {
  const at = email.indexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/**
 * The unsubscribe link of the visitor mails (chat mails and lead confirmations), signed with the
 * address it stops. A person opening it gets a page with one button (a link scanner's GET changes
 * nothing); the button, and a mail client's one-click POST (RFC 8058: `List-Unsubscribe=One-Click`),
 * unsubscribe. Its own scope takes the form-encoded body those send; the API elsewhere still refuses one.
 */
export async function unsubscribeRoutes(app: FastifyInstance, options: { config: Config }): Promise<void> {
  const secret = options.config.sessionSecret;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));
  const querySchema = z.object({ token: z.string().max(500).optional() });
  const invalid = page('This link is not valid', `<p>This unsubscribe link is not valid. Use the link in the newest email we sent you, or write to <a href="mailto:${brand.supportEmail}">${brand.supportEmail}</a>.</p>`);

  app.get(unsubscribePath, async (request, reply) => {
    const { token } = querySchema.catch({}).parse(request.query);
    const email = token === undefined ? undefined : checkUnsubscribeToken(secret, token);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!email) return reply.code(400).send(invalid);
    const action = `${unsubscribePath}?token=${encodeURIComponent(token!)}`;
    // The pages' no-referrer policy makes a browser's form post say `Origin: null`, which the Origin
    // check refuses when the browser holds our cookies: this page's form names its own origin.
    reply.header('referrer-policy', 'same-origin');
    return page(
      `Unsubscribe from ${brand.product} emails`,
      // The link is in chat mails and in lead confirmations alike.
      `<p>Stop the emails from ${brand.product} about your requests and chats to <strong>${escapeHtml(maskedEmail(email))}</strong>?</p><form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`,
    );
  });

  app.post(unsubscribePath, async (request, reply) => {
    const { token } = querySchema.catch({}).parse(request.query);
    const email = token === undefined ? undefined : checkUnsubscribeToken(secret, token);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!email) return reply.code(400).send(invalid);
    await app.write((tx) => addUnsubscribe(tx.db, email, new Date().toISOString()));
    return page("You're unsubscribed", `<p>We won't email <strong>${escapeHtml(maskedEmail(email))}</strong> about your requests and chats any more. You can still chat with us on the website any time.</p>`);
  });
}
