import { z } from 'zod';
import { chatLimits } from './brand';
import { assigneeFields, assigneeQuerySchema } from './assignment';
import { chatRatingRecord } from './chat-rating';
import { controlCharacterMessage, cursorDateMessage, emailMessage, hasRefusedCharacters, isIsoTimestamp, isoDate, optionalLine, rowId } from './common';
import { leadKindSchema, leadStatusSchema, listQuerySchema } from './leads';

/** `session_` + timestamp + random string in the widget; anything of that alphabet is accepted. */
export const chatSessionIdSchema = z
  .string({ error: 'sessionId is required' })
  .regex(/^[A-Za-z0-9_-]{8,100}$/, 'sessionId must be 8-100 letters, digits, _ or -');

export const chatMessageTextSchema = z
  .string({ error: 'Message cannot be empty' })
  .trim()
  .min(1, 'Message cannot be empty')
  .max(chatLimits.messageMaxLength, `Message must be at most ${chatLimits.messageMaxLength} characters`)
  .refine((value) => !hasRefusedCharacters(value, { multiline: true }), controlCharacterMessage);

export const clientIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'clientId must be 1-64 letters, digits, _ or -');

/** `url` without its query and fragment, where a page carries its secrets (a reset link's token). */
export function withoutQueryOrFragment(url: string): string {
  return url.replace(/[?#].*/s, '');
}

/** The origin of an http(s) URL; undefined for anything else. */
function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** A page address as it is kept: at most `pageTextStoredMaxLength` characters, a longer one cut and ending in "…". */
export function storedPageText(text: string): string {
  const max = chatLimits.pageTextStoredMaxLength;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const storedOrUndefined = (text: string | undefined) => (text ? storedPageText(text) : undefined);

/**
 * Where the visitor is, as staff may see it: the page without query or fragment, and so is a referrer
 * on the page's own site (the reset page, say); another site's referrer stays as sent. Applied here, on
 * the server, so an old widget that sends its whole address cannot store a token either.
 */
function withoutSiteSecrets<T extends { pageUrl?: string; referrer?: string }>(input: T): T {
  const { pageUrl, referrer } = input;
  // Most messages carry neither (only a session's first does): no copy of the input for them.
  if (pageUrl === undefined && referrer === undefined) return input;
  const siteOrigin = pageUrl === undefined ? undefined : originOf(pageUrl);
  const referrerOnSite = referrer !== undefined && siteOrigin !== undefined && originOf(referrer) === siteOrigin;
  return {
    ...input,
    pageUrl: pageUrl === undefined ? undefined : storedOrUndefined(withoutQueryOrFragment(pageUrl)),
    referrer: storedOrUndefined(referrerOnSite ? withoutQueryOrFragment(referrer) : referrer),
  };
}

/** A page as staff see it: the origin and path of an http(s) address, never its query or fragment; undefined for anything else. */
function pageAddress(text: string): string | undefined {
  try {
    const { protocol, origin, pathname } = new URL(text);
    return protocol === 'http:' || protocol === 'https:' ? `${origin}${pathname}` : undefined;
  } catch {
    return undefined;
  }
}

const pageUrlMessage = `A page's url must be an http(s) address of at most ${chatLimits.pageUrlMaxLength} characters`;
/** A page of the visit, kept as origin and path (pageAddress), cut to what is stored (storedPageText). */
export const pageUrlSchema = z
  .string({ error: pageUrlMessage })
  .max(chatLimits.pageUrlMaxLength, pageUrlMessage)
  .transform((text, context) => {
    const address = pageAddress(text);
    if (address !== undefined && address.length <= chatLimits.pageUrlMaxLength) return storedPageText(address);
    context.addIssue({ code: 'custom', message: pageUrlMessage });
    return z.NEVER;
  });

const timeZoneMaxLength = 64;
const timeZoneMessage = 'timeZone must be an IANA time zone such as America/Chicago';
/** Zones found valid once: making an Intl.DateTimeFormat to ask costs about 0.3 ms, each new conversation's first message asks, and there are a few hundred zones. */
const knownTimeZones = new Set<string>();
function isTimeZone(name: string): boolean {
  if (knownTimeZones.has(name)) return true;
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: name });
    knownTimeZones.add(name);
    return true;
  } catch {
    return false;
  }
}

const pageAtMessage = "A page's at must be a UTC timestamp such as 2025-01-31T12:00:00.000Z";
const pagesMessage = `pages must be a list of at most ${chatLimits.pagesPerVisit} pages`;

/** The visitor's optional email on a message: the widget checks it by this too, and leaves out one that fails. */
export const chatSenderEmailSchema = z
  .string({ error: emailMessage })
  .trim()
  .max(254, emailMessage)
  .pipe(z.union([z.literal(''), z.email({ error: emailMessage })]))
  .optional()
  .transform((value) => value || undefined);

/** `POST /api/chat-message` and the socket's `chat:send`: always the visitor's own words. */
export const chatMessageInputSchema = z
  .object({
    sessionId: chatSessionIdSchema,
    message: chatMessageTextSchema,
    senderEmail: chatSenderEmailSchema,
    senderName: optionalLine(100, 'Name'),
    isFromUser: z.literal(true, { error: 'Visitors can only send their own messages' }).default(true),
    clientId: clientIdSchema.optional(),
    /** Where the visitor is, stored on the chat session with its first message. */
    pageUrl: optionalLine(2000, 'Page URL'),
    referrer: optionalLine(2000, 'Referrer'),
    /** The visitor's time zone and the pages of their visit so far: kept with the first message only. */
    timeZone: z.string({ error: timeZoneMessage }).max(timeZoneMaxLength, timeZoneMessage).refine(isTimeZone, timeZoneMessage).optional(),
    pages: z
      .array(z.object({ url: pageUrlSchema, at: z.string({ error: pageAtMessage }).refine(isIsoTimestamp, pageAtMessage) }), { error: pagesMessage })
      .max(chatLimits.pagesPerVisit, pagesMessage)
      .optional(),
  })
  .transform(withoutSiteSecrets);
export type ChatMessageInput = z.input<typeof chatMessageInputSchema>;

export const adminChatReplySchema = z.object({
  sessionId: chatSessionIdSchema,
  message: chatMessageTextSchema,
  clientId: clientIdSchema.optional(),
});
export type AdminChatReplyInput = z.input<typeof adminChatReplySchema>;

/** Who wrote a message: the visitor, a staff member, or the system (`isFromUser` is true for the visitor's alone). */
export const chatMessageKinds = ['visitor', 'staff', 'system'] as const;
export const chatMessageKindSchema = z.enum(chatMessageKinds);
export type ChatMessageKind = z.infer<typeof chatMessageKindSchema>;

/** A message as a visitor sees it: the spec's fields, and `kind`. A staff reply names its author only by the display name they chose (`staffName`), never by id or email. */
export const chatMessageRecord = z.object({
  id: rowId,
  sessionId: z.string(),
  /** The message's place in its session (1, 2, 3...): its order there, whatever the ids (which only the server's order of inserts gives). */
  seq: z.number().int().positive(),
  message: z.string(),
  senderEmail: z.string().nullable(),
  senderName: z.string().nullable(),
  isFromUser: z.boolean(),
  clientId: z.string().nullable(),
  createdAt: isoDate,
  kind: chatMessageKindSchema,
  /** A staff reply's author as the visitor sees them: the display name they chose ("Dana"), never an email; absent when none was chosen. */
  staffName: z.string().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageRecord>;

/** A message as staff see it: also who on the staff wrote it. */
export const staffChatMessageRecord = chatMessageRecord.extend({
  /** The staff account that wrote a staff message; null for the others, for replies stored before authors, and once the account is gone. */
  authorStaffId: rowId.nullable(),
  /** That account's display name (staffDisplayName), as other staff see it. */
  authorName: z.string().nullable(),
});
export type StaffChatMessage = z.infer<typeof staffChatMessageRecord>;

/**
 * `GET /api/chat-messages/:sessionId` answers staff and the visitor on one path: the author fields
 * are there for staff only (a visitor's messages are built without them: visitorViewOf).
 */
export const chatHistoryEntry = staffChatMessageRecord.partial({ authorStaffId: true, authorName: true });

/** What a visitor may be shown of a message: every field but the author's, copied one by one so nothing else rides along. */
export function visitorViewOf(message: ChatMessage): ChatMessage {
  return {
    id: message.id,
    sessionId: message.sessionId,
    seq: message.seq,
    message: message.message,
    senderEmail: message.senderEmail,
    senderName: message.senderName,
    isFromUser: message.isFromUser,
    clientId: message.clientId,
    createdAt: message.createdAt,
    kind: message.kind,
    ...(message.staffName === undefined ? {} : { staffName: message.staffName }),
  };
}

export const chatSessionStatuses = ['open', 'resolved'] as const;
export const chatSessionStatusSchema = z.enum(chatSessionStatuses);
export type ChatSessionStatus = z.infer<typeof chatSessionStatusSchema>;

/** One row of `GET /api/chat-sessions`, aggregated in SQL. */
export const chatSessionSummary = z.object({
  id: z.string(),
  senderName: z.string().nullable(),
  senderEmail: z.string().nullable(),
  hasCustomerMessage: z.boolean(),
  lastMessage: z.string(),
  messageCount: z.number().int(),
  /** The id of the newest message counted in this row. */
  lastMessageId: z.number().int(),
  /** The seq of the newest message counted in this row: a live message of the session at or below it is already in. */
  lastMessageSeq: z.number().int(),
  lastActivity: isoDate,
  unreadCount: z.number().int(),
  /** The highest seq the visitor has had on screen: staff show "Seen" under the last reply at or below it. */
  visitorSeenSeq: z.number().int(),
  status: chatSessionStatusSchema,
  /** Counts the session's changes: a reconnecting dashboard sends the versions it holds (contract/chat-resync.ts). */
  version: z.number().int(),
  pageUrl: z.string().nullable(),
  referrer: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: isoDate,
  /** The visitor's rating, once given (chat-rating.ts). */
  rating: chatRatingRecord.nullable().optional(),
  ...assigneeFields,
});
export type ChatSessionSummary = z.infer<typeof chatSessionSummary>;

export const chatSessionPatchSchema = z
  .object({
    status: z.enum(chatSessionStatuses, { error: 'Status must be open or resolved' }).optional(),
    read: z.literal(true, { error: 'read can only be true' }).optional(),
  })
  .strict()
  .refine((patch) => patch.status !== undefined || patch.read !== undefined, {
    message: 'Nothing to change: send status or read',
    path: ['status'],
  });
export type ChatSessionPatch = z.infer<typeof chatSessionPatchSchema>;

/** A lead of a contact's, as the staff see it beside a conversation and in a timeline (contacts.ts). */
export const contactLeadSchema = z.object({
  kind: leadKindSchema,
  id: rowId,
  name: z.string(),
  email: z.string(),
  /** What it is about: a contact's subject, a ticket's subject, a demo's company, a get-started's dealership. */
  summary: z.string(),
  status: leadStatusSchema,
  createdAt: isoDate,
});

/** `GET /api/chat-sessions/:sessionId/context` (staff): who the visitor is, beside the conversation. */
export const chatSessionContext = z.object({
  sessionId: z.string(),
  /** The email the visitor gave, as typed; null when none: the key of their timeline (contacts.ts). */
  email: z.string().nullable().optional(),
  pageUrl: z.string().nullable(),
  referrer: z.string().nullable(),
  userAgent: z.string().nullable(),
  timeZone: z.string().nullable(),
  /** The pages of the visit, oldest first: those sent with the first message, then each page since. */
  pages: z.array(z.object({ url: z.string(), at: isoDate })),
  /** The visitor's other conversations (the same email in any case, or the same visitor identity), newest first. */
  earlierConversations: z.array(
    z.object({ id: z.string(), lastMessage: z.string(), lastActivity: isoDate, status: chatSessionStatusSchema, messageCount: z.number().int() }),
  ),
  /** Leads of the four forms with the same email in any case, newest first. */
  leads: z.array(contactLeadSchema),
});
export type ChatSessionContext = z.infer<typeof chatSessionContext>;
/** How many earlier conversations and leads the context lists. */
export const chatContextListLimit = 20;

/** Who the sender is, as the staff inbox shows it: email, else name, else Anonymous. */
export function chatSenderLabel(row: { senderEmail: string | null; senderName: string | null }): string {
  return row.senderEmail || row.senderName || 'Anonymous';
}

// ---------- REST params, list queries and errors of the chat endpoints ----------

export const chatSessionParamsSchema = z.object({ sessionId: chatSessionIdSchema });

/** `GET /api/chat-messages` (staff): every message, newest first, keyset on `createdAt,id` like the lead lists. */
export const chatMessageListQuerySchema = listQuerySchema.pick({ limit: true, before: true });
export type ChatMessageListQuery = z.infer<typeof chatMessageListQuerySchema>;

/** A chat-session cursor is `<lastActivity>,<sessionId>` of the last row of the previous page. */
export function chatSessionCursor(row: { lastActivity: string; id: string }): string {
  return `${row.lastActivity},${row.id}`;
}

/** `GET /api/chat-sessions` (staff): newest activity first, keyset on `lastActivity,id`, `?q=` search. */
export const chatSessionListQuerySchema = z.object({
  limit: listQuerySchema.shape.limit,
  before: z
    .string()
    .regex(/^[^,]+,[A-Za-z0-9_-]{8,100}$/, { message: 'before must be a cursor of the form <lastActivity>,<sessionId>', abort: true })
    .refine((cursor) => isIsoTimestamp(cursor.slice(0, cursor.indexOf(','))), cursorDateMessage)
    .transform((cursor) => {
      const comma = cursor.indexOf(',');
      return { lastActivity: cursor.slice(0, comma), id: cursor.slice(comma + 1) };
    })
    .optional(),
  q: listQuerySchema.shape.q,
  status: z.enum(chatSessionStatuses, { error: 'status must be open or resolved' }).optional(),
  assignee: assigneeQuerySchema.shape.assignee,
});
export type ChatSessionListQuery = z.infer<typeof chatSessionListQuerySchema>;

/** The socket's `chat:page`: the visitor went on to another page of the site. */
export const chatPageSchema = z.object({ sessionId: chatSessionIdSchema, url: pageUrlSchema });
export type ChatPageInput = z.input<typeof chatPageSchema>;

export const chatTypingSchema = z.object({
  sessionId: chatSessionIdSchema,
  typing: z.boolean({ error: 'typing must be true or false' }),
});

/** A stranger's session and a session that does not exist get the same answer: ids reveal nothing. */
export const chatSessionNotFoundMessage = 'Chat session not found';
export function chatRateLimitedMessage(retryAfterSeconds: number): string {
  return `Too many messages: please wait ${retryAfterSeconds} seconds and try again`;
}
