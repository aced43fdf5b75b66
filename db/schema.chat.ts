import type { ColumnType } from 'kysely';
import type { Id, OptionalId, OptionalText } from './schema.columns';

/** The chat's tables (db/schema.ts's `Database` lists every table). */

export interface ChatSessionsTable {
  id: string;
  /** The visitor cookie's identity that started the session; only it may read or write. */
  visitorId: string;
  status: ColumnType<string, string | undefined, string>;
  pageUrl: string | null;
  referrer: string | null;
  userAgent: string | null;
  senderEmail: string | null;
  /** The visitor's IANA time zone (`America/Chicago`), given with the first message. */
  timeZone: string | null;
  /** The seq of the session's newest message (db/migrations/2026-12-01T0000_chat_message_seq.ts). */
  lastSeq: ColumnType<number, number | undefined, number>;
  /** Highest message seq staff have read; visitor messages above it are unread. */
  lastReadSeq: ColumnType<number, number | undefined, number>;
  /** Highest message seq the visitor has had on screen (db/migrations/2026-12-20T0300_chat_continuity.ts). */
  visitorSeenSeq: ColumnType<number, number | undefined, number>;
  /** Counts the session's state changes (db/migrations/2026-12-20T0200_chat_session_version.ts). */
  version: ColumnType<number, number | undefined, number>;
  lastMessageAt: string;
  createdAt: string;
  /** The visitor's rating, given once (db/migrations/2026-12-20T0400_chat_rating.ts). */
  rating: ColumnType<ChatRatingColumn | null, ChatRatingColumn | null | undefined, ChatRatingColumn | null>;
  ratingComment: OptionalText;
  ratedAt: OptionalText;
  /** When the visitor was asked to rate (the widget, or a mail to one who left); set once. */
  ratingAskedAt: OptionalText;
  /** When an unread visitor message was last mailed to NOTIFY_EMAIL. */
  escalatedAt: OptionalText;
  /** The newest visitor message an escalation mail covered (db/migrations/2026-12-20T0500_chat_escalated_seq.ts). */
  escalatedSeq: ColumnType<number, number | undefined, number>;
  /** When staff last resolved it, and who (db/migrations/2026-12-21T0400_chat_resolution.ts): for the reports. */
  resolvedAt: OptionalText;
  resolvedByStaffId: OptionalId;
  /** The staff account working it, and when it was given to them (db/migrations/2026-12-21T0200_assignment.ts). */
  assigneeId: OptionalId;
  assignedAt: OptionalText;
}

export type ChatRatingColumn = 'good' | 'bad';

/** Who wrote a chat message (db/migrations/2026-12-10T0000_message_authors.ts). */
export type ChatMessageKindColumn = 'visitor' | 'staff' | 'system';

export interface ChatMessagesTable {
  id: Id;
  sessionId: string;
  message: string;
  senderEmail: string | null;
  senderName: string | null;
  isFromUser: number;
  kind: ChatMessageKindColumn;
  /** The staff account that wrote a staff message; null for the others, for replies stored before authors, and once the account is gone. */
  authorStaffId: OptionalId;
  /** The message's place in its session, 1, 2, 3...: commit order within the session, whatever the ids. */
  seq: number;
  /** The sender's own id for the message: makes a retried send idempotent and matches optimistic copies. */
  clientId: string | null;
  createdAt: string;
}

/** A page of the visitor's visit (origin and path only); the last 50 of a session are kept. */
export interface ChatPageViewsTable {
  id: Id;
  sessionId: string;
  url: string;
  viewedAt: string;
}

/** The last continuity mail of a session (api/modules/chat/continuity/chat.continuity.ts). Times are epoch milliseconds. */
export interface ChatContinuityMailsTable {
  sessionId: string;
  mailedAt: number;
  /** The job that sent it: a retry of that job sends it again, with the same Message-ID. */
  jobId: number;
  /** That mail had the staff replies with seq in `(afterSeq, upToSeq]`. */
  afterSeq: number;
  upToSeq: number;
}

/** A visitor identity that opened a session's mailed link: it may act in that one session. */
export interface ChatSessionGrantsTable {
  visitorId: string;
  sessionId: string;
  createdAt: string;
  /** When the mailed link's token expires (ISO): the grant lets nobody in after it. */
  expiresAt: string;
}

/** A transcript mailed (or promised), for its limits. `email` is lower case; `requestedAt` epoch ms. */
export interface ChatTranscriptRequestsTable {
  id: Id;
  sessionId: string;
  email: string;
  requestedAt: number;
}

/** A private note in a conversation: staff only, apart from its messages (db/migrations/2026-12-21T0300_notes_canned.ts). */
export interface ChatNotesTable {
  id: Id;
  sessionId: string;
  text: string;
  authorStaffId: OptionalId;
  createdAt: string;
}
