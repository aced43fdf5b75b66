import type { Db } from '../../../../db/client';
import type { ChatMessageRow } from '../../../../db/schema';
import { isUniqueViolation } from '../../../../db/query-helpers';
import { chatLimits } from '../../../contract/brand';
import { assigneeCondition } from '../../../contract/assignment';
import { staffDisplayName } from '../../../contract/auth';
import {
  type ChatMessage,
  type ChatMessageListQuery,
  type ChatSessionListQuery,
  type ChatSessionPatch,
  type ChatSessionStatus,
  type ChatSessionContext,
  type ChatSessionSummary,
  chatContextListLimit,
  chatSessionNotFoundMessage,
  chatSessionStatusSchema,
  type StaffChatMessage,
} from '../../../contract/chat';
import { HttpError } from '../../../plugins/errors';
import type { Tx, Write } from '../../../events';
import { leadsByEmail } from '../../leads';
import * as repository from './chat.repository';
import * as inbox from './chat.inbox.repository';
import * as context from '../context/chat.context.repository';
import { findVisibleSession, hasGrant } from '../continuity/chat.continuity.repository';
import { ratingOf } from '../rating/chat.rating-record';
import { reopenSession } from '../resync/chat.resync.repository';
import { type ChatSendLimits, unlimitedChatSends } from '../limits/chat.rate-limit';

/** Who sends a visitor message: the visitor cookie's identity and what the transport knows. */
export interface VisitorContext {
  visitorId: string;
  userAgent?: string;
  /** The client address, by the TRUST_PROXY rule: the per-address limits count it. */
  ip?: string;
  /** The socket the message came over, if it did. */
  socketId?: string;
}

/** A visitor message as the REST body and the `chat:send` payload carry it, already validated. */
export interface VisitorMessage {
  sessionId: string;
  message: string;
  senderEmail?: string;
  senderName?: string;
  clientId?: string;
  pageUrl?: string;
  referrer?: string;
  /** Kept only when the message starts the session, like pageUrl and referrer. */
  timeZone?: string;
  pages?: { url: string; at: string }[];
}

export interface StaffReply {
  sessionId: string;
  message: string;
  clientId?: string;
}

/** The staff member a reply is from: the account signed in on the REST session or the socket's. */
export interface StaffAuthor {
  staffId: number;
}

/** A message as its visitor may see it: of its author, only the display name they chose (chatMessageRecord). */
export function toChatMessage(row: ChatMessageRow & { authorDisplayName?: string | null }): ChatMessage {
  const message: ChatMessage = {
    id: row.id,
    sessionId: row.sessionId,
    seq: row.seq,
    message: row.message,
    senderEmail: row.senderEmail,
    senderName: row.senderName,
    isFromUser: row.isFromUser === 1,
    clientId: row.clientId,
    createdAt: row.createdAt,
    kind: row.kind,
  };
  if (row.kind === 'staff' && row.authorDisplayName) message.staffName = row.authorDisplayName;
  return message;
}

/** A message as staff see it, with its author's display name when it has an author whose account is there. */
function toStaffChatMessage(row: ChatMessageRow, author: { email: string; displayName: string | null } | undefined): StaffChatMessage {
  const message = toChatMessage(author ? { ...row, authorDisplayName: author.displayName } : row);
  return { ...message, authorStaffId: row.authorStaffId, authorName: author ? staffDisplayName(author) : null };
}

function authoredToStaffChatMessage(row: repository.AuthoredMessageRow): StaffChatMessage {
  const author = row.authorEmail === null ? undefined : { email: row.authorEmail, displayName: row.authorDisplayName };
  return toStaffChatMessage(row, author);
}

export function toSummary(row: inbox.ChatSessionSummaryRow): ChatSessionSummary {
  const status = chatSessionStatusSchema.safeParse(row.status);
  return {
    id: row.id,
    senderName: row.senderName,
    senderEmail: row.senderEmail,
    hasCustomerMessage: Number(row.hasCustomerMessage) === 1,
    lastMessage: row.lastMessage ?? '',
    messageCount: Number(row.messageCount),
    lastMessageId: Number(row.lastMessageId ?? 0),
    lastMessageSeq: Number(row.lastMessageSeq),
    lastActivity: row.lastActivity,
    unreadCount: Number(row.unreadCount),
    visitorSeenSeq: Number(row.visitorSeenSeq),
    status: status.success ? status.data : 'open',
    version: Number(row.version),
    pageUrl: row.pageUrl,
    referrer: row.referrer,
    userAgent: row.userAgent,
    createdAt: row.createdAt,
    rating: ratingOf(row),
    assigneeId: row.assigneeId === null ? null : Number(row.assigneeId),
    assigneeName: row.assigneeEmail === null ? null : staffDisplayName({ email: row.assigneeEmail, displayName: row.assigneeDisplayName }),
  };
}

const userAgentMaxLength = 500;

/**
 * The one chat service behind `POST /api/chat-message`, `chat:send`, `POST /api/admin-chat-reply` and
 * `chat:reply`: every message is checked, stored once and pushed the same way whichever path it took.
 */
export class ChatService {
  /**
   * Messages are written through `app.write` (on SQLite every message of one event-loop turn,
   * whichever path it took, shares one commit); each says what happened with an event, which the
   * module's listeners push (chat.pushes.ts). A refusal (404, 429) undoes its own write alone.
   */
  constructor(
    private readonly db: Db,
    private readonly write: Write,
    private readonly limits: ChatSendLimits = unlimitedChatSends,
  ) {}

  /**
   * A message write, run again once if it lost a race to the same clientId on another connection
   * (PostgreSQL ends a transaction at the unique key): the second run finds the winner's row.
   */
  private async writeMessage<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.write(work);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return this.write(work);
    }
  }

  /**
   * Stores a visitor's message. The first message of a new session id binds the session to the
   * visitor and keeps where they were; a session of someone else is answered as if it did not exist.
   */
  async sendVisitorMessage(visitor: VisitorContext, input: VisitorMessage): Promise<{ message: ChatMessage; created: boolean }> {
    // Counted before anything is written; a new session is counted below, only if it is one.
    await this.limits.countMessage(visitor);
    const now = new Date().toISOString();
    const draft = {
      sessionId: input.sessionId,
      message: input.message,
      senderEmail: input.senderEmail ?? null,
      senderName: input.senderName ?? null,
      isFromUser: 1,
      kind: 'visitor',
      authorStaffId: null,
      clientId: input.clientId ?? null,
      createdAt: now,
    } as const;
    const author = { by: 'visitor', visitorId: visitor.visitorId, senderEmail: input.senderEmail ?? null } as const;
    // Most sends are a new message to the visitor's existing session: one statement, no read.
    const added = await this.writeMessage(async (tx) => {
      const added = await repository.addMessage(tx.db, draft, author);
      return added && this.created(tx, added, visitor, false);
    });
    if (added) return { message: added, created: true };
    // Nothing written: a session id nobody has used yet starts a session, counted before it is made.
    await this.limits.countNewSession(visitor, async () => !(await repository.findSession(this.db, input.sessionId)));
    return this.writeMessage(async (tx) => {
      const result = await this.storeFirstOrRetried(tx, visitor, input, draft, author);
      const { row, created } = result.stored;
      return { message: created ? this.created(tx, result.stored, visitor, result.sessionCreated) : toChatMessage(row), created };
    });
  }

  /** Says a visitor's message was stored: the chat's listeners push it (chat.pushes.ts). */
  private created(tx: Tx, added: { row: ChatMessageRow; opensUnread?: boolean }, visitor: VisitorContext, sessionCreated: boolean): ChatMessage {
    const message = toChatMessage(added.row);
    tx.emit({
      type: 'chat.message.created',
      message: { ...message, authorStaffId: null, authorName: null },
      ...(added.opensUnread ? { opensUnread: true } : {}),
      ...(sessionCreated ? { startedBy: visitor.visitorId } : {}),
      ...(visitor.socketId ? { fromSocket: visitor.socketId } : {}),
    });
    return message;
  }

  /** Nothing written by the one statement: a retried send, a session's first message, or someone else's session. */
  private async storeFirstOrRetried(
    tx: Tx,
    visitor: VisitorContext,
    input: VisitorMessage,
    draft: Parameters<typeof repository.storeMessage>[1],
    author: repository.MessageAuthor,
  ): Promise<{ stored: repository.StoredMessage; sessionCreated: boolean }> {
    const stored = await repository.storeMessage(tx.db, draft, author);
    if (stored?.created) return { stored, sessionCreated: false };
    const existing = await repository.findSession(tx.db, input.sessionId);
    if (existing && existing.visitorId !== visitor.visitorId) {
      if (!(await hasGrant(tx.db, visitor.visitorId, input.sessionId))) throw new HttpError(404, chatSessionNotFoundMessage);
      if (stored) return { stored, sessionCreated: false };
      // A visitor that session's mailed link let in (chat.continuity.ts) writes there as its owner would, reopening it too.
      const owner = { by: 'visitor', visitorId: existing.visitorId, senderEmail: input.senderEmail ?? null } as const;
      if (existing.status === 'resolved') return { stored: await this.reopenWith(tx, { ...visitor, visitorId: existing.visitorId }, draft, owner), sessionCreated: false };
      const granted = await repository.storeMessage(tx.db, draft, owner);
      if (!granted) throw new Error(`chat session ${input.sessionId} vanished while storing a message`);
      return { stored: granted, sessionCreated: false };
    }
    if (stored) return { stored, sessionCreated: false };
    if (existing?.status === 'resolved') return { stored: await this.reopenWith(tx, visitor, draft, author), sessionCreated: false };
    const now = draft.createdAt;
    const session = await repository.createSessionIfAbsent(tx.db, {
      id: input.sessionId,
      visitorId: visitor.visitorId,
      pageUrl: input.pageUrl ?? null,
      referrer: input.referrer ?? null,
      userAgent: visitor.userAgent?.slice(0, userAgentMaxLength) ?? null,
      senderEmail: input.senderEmail ?? null,
      timeZone: input.timeZone ?? null,
      lastMessageAt: now,
      createdAt: now,
    });
    // Another visitor's first message made it a moment ago: still nothing of ours written.
    if (session.row.visitorId !== visitor.visitorId) throw new HttpError(404, chatSessionNotFoundMessage);
    if (session.created && input.pages) {
      await context.addPageViews(tx.db, input.sessionId, input.pages.map((page) => ({ url: page.url, viewedAt: page.at })));
    }
    const first = await repository.storeMessage(tx.db, draft, author);
    if (!first) throw new Error(`chat session ${input.sessionId} vanished while storing its first message`);
    return { stored: first, sessionCreated: session.created };
  }

  /** The visitor wrote to their resolved session: it reopens with the message, and staff hear of both. */
  private async reopenWith(
    tx: Tx,
    visitor: VisitorContext,
    draft: Parameters<typeof repository.storeMessage>[1],
    author: repository.MessageAuthor,
  ): Promise<repository.StoredMessage> {
    // False when a concurrent message reopened it first: that one tells staff.
    const reopened = await reopenSession(tx.db, draft.sessionId, visitor.visitorId);
    const stored = await repository.storeMessage(tx.db, draft, author);
    if (!stored) throw new Error(`chat session ${draft.sessionId} vanished while reopening`);
    const row = reopened ? await inbox.findSessionSummary(tx.db, draft.sessionId) : undefined;
    if (row) tx.emit({ type: 'chat.session.updated', session: toSummary(row) });
    return stored;
  }

  /**
   * A staff reply, recorded as the author's: the session must exist; replying also marks the
   * visitor's messages read. A retried reply answers the reply as first stored, author and all.
   */
  async replyAsStaff(author: StaffAuthor, input: StaffReply): Promise<{ message: StaffChatMessage; created: boolean }> {
    const now = new Date().toISOString();
    const reply = {
      sessionId: input.sessionId,
      message: input.message,
      senderEmail: null,
      senderName: null,
      isFromUser: 0,
      kind: 'staff' as const,
      authorStaffId: author.staffId,
      clientId: input.clientId ?? null,
      createdAt: now,
    };
    return this.writeMessage(async (tx) => {
      const added = await repository.addMessage(tx.db, reply, { by: 'staff' });
      // Nothing written: a retried reply (answered as first stored, author and all), or no such session.
      const stored = added ? { row: added.row, created: true } : await repository.storeMessage(tx.db, reply, { by: 'staff' });
      if (!stored) throw new HttpError(404, chatSessionNotFoundMessage);
      const { authorStaffId } = stored.row;
      const message = toStaffChatMessage(stored.row, authorStaffId === null ? undefined : await repository.findStaffAuthor(tx.db, authorStaffId));
      if (stored.created) tx.emit({ type: 'chat.message.created', message });
      return { message, created: stored.created };
    });
  }

  /**
   * The visitor went on to another page: recorded in their own session, whose oldest views beyond
   * the last 50 go. A stranger's session and one not started yet are not found alike.
   */
  async recordPageView(visitorId: string, view: { sessionId: string; url: string }): Promise<void> {
    const viewedAt = new Date().toISOString();
    const recorded = await this.write(async (tx) => {
      if (await context.addOwnPageView(tx.db, { ...view, visitorId, viewedAt }, chatLimits.pageViewsPerSession)) return true;
      // A visitor the mailed link let in records as the owner would.
      const session = await findVisibleSession(tx.db, visitorId, view.sessionId);
      return session !== undefined && context.addOwnPageView(tx.db, { ...view, visitorId: session.visitorId, viewedAt }, chatLimits.pageViewsPerSession);
    });
    if (!recorded) throw new HttpError(404, chatSessionNotFoundMessage);
  }

  /** Who the visitor of a session is, for staff: where they are and were, and what else they sent us. */
  async context(sessionId: string): Promise<ChatSessionContext> {
    const session = await repository.findSession(this.db, sessionId);
    if (!session) throw new HttpError(404, chatSessionNotFoundMessage);
    const email = session.senderEmail;
    const [pages, related, leads] = await Promise.all([
      context.listPageViews(this.db, sessionId, chatLimits.pageViewsPerSession),
      context.listRelatedSessions(this.db, { sessionId, visitorId: session.visitorId, email }, chatContextListLimit),
      email ? leadsByEmail(this.db, email, chatContextListLimit) : [],
    ]);
    return {
      sessionId,
      email,
      pageUrl: session.pageUrl,
      referrer: session.referrer,
      userAgent: session.userAgent,
      timeZone: session.timeZone,
      pages: pages.map((page) => ({ url: page.url, at: page.viewedAt })),
      earlierConversations: related.map((row) => ({
        id: row.id,
        lastMessage: row.lastMessage ?? '',
        lastActivity: row.lastActivity,
        status: chatSessionStatusSchema.catch('open').parse(row.status),
        messageCount: Number(row.messageCount),
      })),
      leads,
    };
  }

  /** True when the visitor started this session; false for a stranger's or a session not started yet. */
  async visitorOwns(visitorId: string, sessionId: string): Promise<boolean> {
    const session = await repository.findSession(this.db, sessionId);
    if (!session) return false;
    return session.visitorId === visitorId || hasGrant(this.db, visitorId, sessionId);
  }

  /**
   * A visitor's history: their own session's messages, `[]` for a session id nobody has used yet
   * (`isNew`), and a 404 for someone else's.
   */
  async visitorHistory(visitorId: string, sessionId: string): Promise<{ messages: ChatMessage[]; isNew: boolean }> {
    const rows = await repository.listSessionMessagesWithOwner(this.db, sessionId);
    if (rows.length === 0) return { messages: [], isNew: true };
    // The owner's poll reads one statement; only someone else's asks whether the mailed link let them in.
    if (rows[0]!.ownerVisitorId !== visitorId && !(await hasGrant(this.db, visitorId, sessionId))) throw new HttpError(404, chatSessionNotFoundMessage);
    return { messages: rows.map(toChatMessage), isNew: false };
  }

  /** Staff read any session; one that does not exist is a 404. */
  async staffHistory(sessionId: string): Promise<StaffChatMessage[]> {
    const session = await repository.findSession(this.db, sessionId);
    if (!session) throw new HttpError(404, chatSessionNotFoundMessage);
    const rows = await repository.listSessionMessages(this.db, sessionId);
    return rows.map(authoredToStaffChatMessage);
  }

  async allMessages(query: ChatMessageListQuery): Promise<StaffChatMessage[]> {
    const rows = await repository.listAllMessages(this.db, query);
    return rows.map(authoredToStaffChatMessage);
  }

  /** A page of the inbox; `staffId` is who asks, whose rows `assignee=mine` shows. */
  async sessions(query: ChatSessionListQuery, staffId: number): Promise<ChatSessionSummary[]> {
    const rows = await inbox.listSessionSummaries(this.db, { ...query, assigneeId: assigneeCondition(query.assignee, staffId) });
    return rows.map(toSummary);
  }

  async session(sessionId: string): Promise<ChatSessionSummary> {
    const row = await inbox.findSessionSummary(this.db, sessionId);
    if (!row) throw new HttpError(404, chatSessionNotFoundMessage);
    return toSummary(row);
  }

  /** Staff change a session's status or mark it read; every staff screen hears of it. */
  async patchSession(sessionId: string, patch: ChatSessionPatch, byStaffId?: number): Promise<ChatSessionSummary> {
    const status: ChatSessionStatus | undefined = patch.status;
    return this.write(async (tx) => {
      const updated = await repository.updateSession(tx.db, sessionId, { status, markRead: patch.read === true, byStaffId });
      const row = updated ? await inbox.findSessionSummary(tx.db, sessionId) : undefined;
      if (!row) throw new HttpError(404, chatSessionNotFoundMessage);
      const summary = toSummary(row);
      tx.emit({ type: 'chat.session.updated', session: summary });
      return summary;
    });
  }
}
