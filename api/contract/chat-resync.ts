import { z } from 'zod';
import { isoDate } from './common';
import { chatRatingRecord } from './chat-rating';
import { chatMessageRecord, chatSessionIdSchema, chatSessionStatusSchema, chatSessionSummary } from './chat';

// ---------- resync by cursor (DESIGN 10 "Resync") and a visitor's past conversations ----------

/**
 * A session's state as its visitor may see it, always sent whole (a resync, a `chat:session` push):
 * the receiver replaces what it held. State added later (seen receipts, a rating) goes in here as
 * new fields, and so rides along with every resync and push.
 */
export const chatSessionState = z.object({
  sessionId: z.string(),
  status: chatSessionStatusSchema,
  /** The seq of the session's newest message. */
  lastSeq: z.number().int().nonnegative(),
  /** Staff have read the visitor's messages up to this seq. */
  readSeq: z.number().int().nonnegative(),
  /** Counts the session's changes: of two states, the higher version is the newer. */
  version: z.number().int().nonnegative(),
  /** The visitor has had the messages up to this seq on screen (seen receipts). */
  seenSeq: z.number().int().nonnegative(),
  /** "How did we do?" was asked (staff resolved it, or their last reply waited). */
  ratingAsked: z.boolean(),
  /** The visitor's rating, once given. */
  rating: chatRatingRecord.nullable(),
});
export type ChatSessionState = z.infer<typeof chatSessionState>;

const afterSeqMessage = 'afterSeq must be a whole number, 0 or more';
/** The cursor of one conversation: the highest seq the client holds (0: none). */
export const afterSeqSchema = z.coerce.number({ error: afterSeqMessage }).int(afterSeqMessage).nonnegative(afterSeqMessage).max(2 ** 31 - 1, afterSeqMessage);

/** `?afterSeq=` on the history and resync paths: only the messages after it. */
export const afterSeqQuerySchema = z.object({ afterSeq: afterSeqSchema.optional() });

/** The socket's `chat:resync`, and the REST twin's params and query together. */
export const chatResyncInputSchema = z.object({ sessionId: chatSessionIdSchema, afterSeq: afterSeqSchema.default(0) });
export type ChatResyncInput = z.input<typeof chatResyncInputSchema>;

/** What a visitor resync answers: the messages after the cursor in seq order, and the session's state (null: not started yet). */
export const chatResyncAnswer = z.object({ messages: z.array(chatMessageRecord), session: chatSessionState.nullable() });
export type ChatResyncAnswer = z.infer<typeof chatResyncAnswer>;

/** One of a visitor's own conversations, as the widget lists them. */
export const visitorChatSessionSummary = z.object({
  id: z.string(),
  status: chatSessionStatusSchema,
  lastMessage: z.string(),
  /** Whether the visitor wrote the last message ("You: ..."). */
  lastMessageFromUser: z.boolean(),
  lastActivity: isoDate,
  messageCount: z.number().int(),
});
export type VisitorChatSessionSummary = z.infer<typeof visitorChatSessionSummary>;
/** How many of their conversations a visitor is shown, newest first. */
export const visitorSessionListLimit = 20;

/** A session version a reconnecting dashboard holds. */
const knownSessionSchema = z.object({ id: chatSessionIdSchema, version: z.number({ error: 'version must be a number' }).int().nonnegative() });
export const staffResyncMaxKnown = 500;
/** `POST /api/chat-sessions/resync` (staff): the sessions it holds, by version. */
export const staffChatResyncSchema = z
  .object({
    known: z.array(knownSessionSchema, { error: 'known must be a list of { id, version }' }).max(staffResyncMaxKnown, `known may list at most ${staffResyncMaxKnown} sessions`),
  })
  .strict();
export type StaffChatResyncInput = z.infer<typeof staffChatResyncSchema>;
/** The sessions that changed since the versions held, and the newest ones not held at all: newest activity first. */
export const staffChatResyncAnswer = z.object({ sessions: z.array(chatSessionSummary) });
export type StaffChatResyncAnswer = z.infer<typeof staffChatResyncAnswer>;
