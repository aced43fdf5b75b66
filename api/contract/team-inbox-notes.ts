import { z } from 'zod';
import { chatLimits } from './brand';
import { chatSessionIdSchema } from './chat';
import { controlCharacterMessage, hasRefusedCharacters, isoDate, requiredText, rowId, rowIdParam } from './common';

// ---------- Private notes (DESIGN.md 11): staff-only lines in a conversation ----------

const noteEmptyMessage = 'A note cannot be empty';
/** `POST /api/chat-sessions/:sessionId/notes` (staff): as long as a reply may be. */
export const chatNoteInputSchema = z.object({
  text: z
    .string({ error: noteEmptyMessage })
    .trim()
    .min(1, noteEmptyMessage)
    .max(chatLimits.messageMaxLength, `A note must be at most ${chatLimits.messageMaxLength} characters`)
    .refine((value) => !hasRefusedCharacters(value, { multiline: true }), controlCharacterMessage),
});
export type ChatNoteInput = z.input<typeof chatNoteInputSchema>;

/**
 * A note as staff see it. Notes live in their own table, apart from `chat_messages`: no visitor path
 * (history, resync, poll, transcript, continuity or rating mail, the visitor's socket) reads that table.
 */
export const chatNoteRecord = z.object({
  id: rowId,
  sessionId: z.string(),
  text: z.string(),
  /** The staff account that wrote it; null once the account is gone. */
  authorStaffId: rowId.nullable(),
  authorName: z.string().nullable(),
  createdAt: isoDate,
});
export type ChatNote = z.infer<typeof chatNoteRecord>;

// ---------- Canned replies: a team list of title + text ----------

export const cannedReplyLimits = { titleMaxLength: 100, textMaxLength: chatLimits.messageMaxLength, maxCount: 500 } as const;

export const cannedReplyInputSchema = z
  .object({
    title: requiredText(1, 'A title is required', cannedReplyLimits.titleMaxLength, 'Title'),
    text: requiredText(1, 'The reply text is required', cannedReplyLimits.textMaxLength, 'Text', { multiline: true }),
  })
  .strict();
export type CannedReplyInput = z.input<typeof cannedReplyInputSchema>;

export const cannedReplyRecord = z.object({
  id: rowId,
  title: z.string(),
  text: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type CannedReply = z.infer<typeof cannedReplyRecord>;

export const cannedReplyParamsSchema = z.object({ id: rowIdParam('Canned reply id') });
export const cannedReplyNotFoundMessage = 'Canned reply not found';
export const cannedReplyLimitMessage = `The team list holds at most ${cannedReplyLimits.maxCount} canned replies: delete one first`;

/** What a visitor's placeholders are filled from: the conversation's name and email, either unknown. */
export interface CannedReplyVisitor {
  name: string | null;
  email: string | null;
}

/**
 * A canned reply's text with `{name}` and `{email}` filled in from the conversation. An unknown value
 * leaves no gap: "Hi {name}, thanks" becomes "Hi, thanks", not "Hi , thanks". Other braces stay as written.
 */
export function fillCannedReply(text: string, visitor: CannedReplyVisitor): string {
  const values: Record<string, string> = { name: visitor.name?.trim() ?? '', email: visitor.email?.trim() ?? '' };
  const filled = text.replace(/\{(name|email)\}/gi, (_, key: string) => values[key.toLowerCase()] ?? '');
  return filled
    .replace(/[ \t]+([,.!?;:])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/^[ \t]+|[ \t]+$/gm, '')
    .trim();
}

// ---------- Collision: who else has a conversation open, and who is typing a reply ----------

/** `chat:viewing`: the conversation this staff socket shows now, or null when it shows none. */
export const staffViewingSchema = z.object({ sessionId: chatSessionIdSchema.nullable() });
/** `chat:typing-reply`: this staff member typed in a conversation's reply box (true), or stopped (false). */
export const staffTypingReplySchema = z.object({ sessionId: chatSessionIdSchema, typing: z.boolean({ error: 'typing must be true or false' }) });

export interface ConversationViewer {
  staffId: number;
  name: string;
}
/** The staff who have one conversation open now, each once however many tabs. */
export interface ConversationViewers {
  sessionId: string;
  viewers: ConversationViewer[];
}
export interface StaffTypingReply extends ConversationViewer {
  sessionId: string;
  typing: boolean;
}

/**
 * A reply typist says so again this often while typing; the others drop "is typing a reply" this long
 * after the last word (a closed tab says nothing).
 */
export const replyTypingTimings = { announceEveryMs: 2000, shownMaxMs: 5000 } as const;
