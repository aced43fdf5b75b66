import { z } from 'zod';
import { chatSessionIdSchema } from './chat';
import { signedLinkToken } from './common';

// ---------- seen receipts ----------

const upToMessage = 'upTo must be the seq of a message: a whole number of at least 0';
const upTo = z.number({ error: upToMessage }).int(upToMessage).min(0, upToMessage).max(2_147_483_647, upToMessage);

/** The socket's `chat:seen`: the visitor has had messages up to `upTo` (the highest seq on screen) in view. */
export const chatSeenSchema = z.object({ sessionId: chatSessionIdSchema, upTo });
export type ChatSeenInput = z.input<typeof chatSeenSchema>;

/** `POST /api/chat-sessions/:sessionId/seen`, the REST twin of `chat:seen` for the widget's poll path. */
export const chatSeenBodySchema = z.object({ upTo }).strict();

/** What the server keeps: the highest seq the visitor has seen, which only moves forward. */
export const chatSeenAnswer = z.object({ visitorSeenSeq: z.number().int() });

// ---------- the mailed link that reopens a conversation ----------

const chatLinkTokenMessage = 'token must be the one in the link we emailed you';
/** `POST /api/chat-links`: the widget hands in the mailed link's token and gets that one conversation. */
export const chatLinkInputSchema = z
  .object({ token: signedLinkToken(chatLinkTokenMessage) })
  .strict();
export const chatLinkAnswer = z.object({ sessionId: z.string() });
export const chatLinkInvalidMessage = 'This conversation link is not valid. Open the newest email we sent you, or start a new chat.';
export const chatLinkExpiredMessage = 'This conversation link has expired (links last 30 days). Start a new chat and we will pick it up from there.';

// ---------- transcripts ----------

export const transcriptLimits = {
  /** At most one transcript of a conversation this often, whoever asks. */
  perSessionMs: 10 * 60 * 1000,
  /** At most this many transcripts to one address a day. */
  perAddressPerDay: 5,
} as const;

/**
 * `POST /api/chat-sessions/:sessionId/transcript` (the visitor, or staff): mailed to the conversation's
 * own email. `confirmationSent`: that address has not proven it wants our mail yet, so it was mailed
 * a confirmation link (with none of the conversation), and the transcript goes once it is opened.
 */
export const transcriptAnswer = z.object({ email: z.string(), confirmationSent: z.boolean() });
export type TranscriptAnswer = z.infer<typeof transcriptAnswer>;
export const transcriptNoEmailMessage = 'We have no email for this conversation yet: add yours to a message, then ask again.';
export const transcriptUnsubscribedMessage = 'This address unsubscribed from our emails, so no transcript can be sent.';
/** What the widget and the staff toast say when the answer is `confirmationSent`. */
export function transcriptConfirmationText(email: string): string {
  return `We sent a confirmation link to ${email}. Open it and the conversation will follow in a minute or two.`;
}
export function transcriptTooSoonMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `A transcript of this conversation was sent a moment ago: please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} before asking again.`;
}
export const transcriptDailyLimitMessage = `This email address has had ${transcriptLimits.perAddressPerDay} transcripts today: please try again tomorrow.`;
