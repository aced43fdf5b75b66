import type { Db } from '../../../db/client';
import type { ChatMessageRow } from '../../../db/schema';
import type { Writes } from '../../../db/writes';
import { chatLimits } from '../../contract/brand';
import { staffDisplayName } from '../../contract/auth';
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
} from '../../contract/chat';
import { contactSubjects, leadStatusSchema } from '../../contract/leads';
import { HttpError } from '../../plugins/errors';
import * as leadsRepository from '../leads/leads.repository';
import * as repository from './chat.repository';
import { type ChatSendLimits, unlimitedChatSends } from './chat.rate-limit';

/** What the service tells the realtime layer; Socket.IO rooms behind it (chat.pushes.ts). */
export interface ChatPushes {
  /**
   * A newly stored message, for every staff socket as it is, and for its session's room without its
   * author (visitorViewOf). `newOwner` is set on a session's first message; `exceptSocket` is the
   * socket that sent it, which has the ack instead.
   */
  message(message: StaffChatMessage, options?: { newOwner?: string; exceptSocket?: string }): Promise<void> | void;
  sessionUpdated(session: ChatSessionSummary): void;
}

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

/** A message as its visitor may see it: no author (chatMessageRecord). */
export function toChatMessage(row: ChatMessageRow): ChatMessage {
  return {
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
}

/** A message as staff see it, with its author's display name when it has an author whose account is there. */
function toStaffChatMessage(row: ChatMessageRow, author: { email: string; displayName: string | null } | undefined): StaffChatMessage {
  return { ...toChatMessage(row), authorStaffId: row.authorStaffId, authorName: author ? staffDisplayName(author) : null };
}

function authoredToStaffChatMessage(row: repository.AuthoredMessageRow): StaffChatMessage {
  const author = row.authorEmail === null ? undefined : { email: row.authorEmail, displayName: row.authorDisplayName };
  return toStaffChatMessage(row, author);
}

function toSummary(row: repository.ChatSessionSummaryRow): ChatSessionSummary {
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
    status: status.success ? status.data : 'open',
    pageUrl: row.pageUrl,
    referrer: row.referrer,
    userAgent: row.userAgent,
    createdAt: row.createdAt,
  };
}

const userAgentMaxLength = 500;

/**
 * The one chat service behind `POST /api/chat-message`, `chat:send`, `POST /api/admin-chat-reply` and
 * `chat:reply`: every message is checked, stored once and pushed the same way whichever path it took.
 */
export class ChatService {
  /**
   * Messages are written through the app's write path (db/writes.ts; on SQLite every message of one
   * event-loop turn, whichever path it took, shares one transaction). The service's refusals (404,
   * 429) are HttpErrors thrown before anything is written, so they fail alone.
   */
  constructor(
    private readonly db: Db,
    private readonly writes: Writes,
    private readonly pushes: ChatPushes,
    private readonly limits: ChatSendLimits = unlimitedChatSends,
  ) {}

  /**
   * Stores a visitor's message. The first message of a new session id binds the session to the
   * visitor and keeps where they were; a session of someone else is answered as if it did not exist.
   */
  async sendVisitorMessage(visitor: VisitorContext, input: VisitorMessage): Promise<{ message: ChatMessage; created: boolean }> {
    // Counted before anything is written; a session id nobody has used yet starts a session.
    await this.limits.count(visitor, async () => !(await repository.findSession(this.db, input.sessionId)));
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
    // Most sends are a new message to the visitor's existing session: one write of its own.
    const added = await this.writes.runStatement((db) => repository.addMessage(db, draft, author));
    const result = added
      ? { stored: { row: added, created: true }, sessionCreated: false }
      : await this.writes.run(async (db) => {
          // Nothing written: a retried send, a session's first message, or someone else's session.
          const stored = await repository.storeMessage(db, draft, author);
          if (stored?.created) return { stored, sessionCreated: false };
          const existing = await repository.findSession(db, input.sessionId);
          if (existing && existing.visitorId !== visitor.visitorId) throw new HttpError(404, chatSessionNotFoundMessage);
          if (stored) return { stored, sessionCreated: false };
          const session = await repository.createSessionIfAbsent(db, {
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
            await repository.addPageViews(db, input.sessionId, input.pages.map((page) => ({ url: page.url, viewedAt: page.at })));
          }
          const first = await repository.storeMessage(db, draft, author);
          if (!first) throw new Error(`chat session ${input.sessionId} vanished while storing its first message`);
          return { stored: first, sessionCreated: session.created };
        });
    const message = toChatMessage(result.stored.row);
    if (result.stored.created) {
      const options = { newOwner: result.sessionCreated ? visitor.visitorId : undefined, exceptSocket: visitor.socketId };
      await this.pushes.message({ ...message, authorStaffId: null, authorName: null }, options);
    }
    return { message, created: result.stored.created };
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
    const added = await this.writes.runStatement((db) => repository.addMessage(db, reply, { by: 'staff' }));
    const stored = added
      ? { row: added, created: true }
      : await this.writes.run(async (db) => {
          // A retried reply; nothing is written for a session that does not exist.
          const result = await repository.storeMessage(db, reply, { by: 'staff' });
          if (!result) throw new HttpError(404, chatSessionNotFoundMessage);
          return result;
        });
    const { authorStaffId } = stored.row;
    const message = toStaffChatMessage(stored.row, authorStaffId === null ? undefined : await repository.findStaffAuthor(this.db, authorStaffId));
    if (stored.created) await this.pushes.message(message);
    return { message, created: stored.created };
  }

  /**
   * The visitor went on to another page: recorded in their own session, whose oldest views beyond
   * the last 50 go. A stranger's session and one not started yet are not found alike.
   */
  async recordPageView(visitorId: string, view: { sessionId: string; url: string }): Promise<void> {
    const viewedAt = new Date().toISOString();
    const recorded = await this.writes.run((db) => repository.addOwnPageView(db, { ...view, visitorId, viewedAt }, chatLimits.pageViewsPerSession));
    if (!recorded) throw new HttpError(404, chatSessionNotFoundMessage);
  }

  /** Who the visitor of a session is, for staff: where they are and were, and what else they sent us. */
  async context(sessionId: string): Promise<ChatSessionContext> {
    const session = await repository.findSession(this.db, sessionId);
    if (!session) throw new HttpError(404, chatSessionNotFoundMessage);
    const email = session.senderEmail;
    const [pages, related, leads] = await Promise.all([
      repository.listPageViews(this.db, sessionId, chatLimits.pageViewsPerSession),
      repository.listRelatedSessions(this.db, { sessionId, visitorId: session.visitorId, email }, chatContextListLimit),
      email ? leadsRepository.listLeadsByEmail(this.db, email, chatContextListLimit) : [],
    ]);
    return {
      sessionId,
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
      leads: leads.map((row) => ({
        kind: row.kind,
        id: Number(row.id),
        name: row.name,
        email: row.email,
        summary: row.kind === 'contact' ? (contactSubjects.find((subject) => subject.value === row.summary)?.label ?? row.summary) : row.summary,
        status: leadStatusSchema.catch('new').parse(row.status),
        createdAt: row.createdAt,
      })),
    };
  }

  /** True when the visitor started this session; false for a stranger's or a session not started yet. */
  async visitorOwns(visitorId: string, sessionId: string): Promise<boolean> {
    const session = await repository.findSession(this.db, sessionId);
    return session?.visitorId === visitorId;
  }

  /**
   * A visitor's history: their own session's messages, `[]` for a session id nobody has used yet
   * (`isNew`), and a 404 for someone else's.
   */
  async visitorHistory(visitorId: string, sessionId: string): Promise<{ messages: ChatMessage[]; isNew: boolean }> {
    const rows = await repository.listSessionMessagesWithOwner(this.db, sessionId);
    if (rows.length === 0) return { messages: [], isNew: true };
    if (rows[0]!.ownerVisitorId !== visitorId) throw new HttpError(404, chatSessionNotFoundMessage);
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

  async sessions(query: ChatSessionListQuery): Promise<ChatSessionSummary[]> {
    const rows = await repository.listSessionSummaries(this.db, query);
    return rows.map(toSummary);
  }

  async session(sessionId: string): Promise<ChatSessionSummary> {
    const row = await repository.findSessionSummary(this.db, sessionId);
    if (!row) throw new HttpError(404, chatSessionNotFoundMessage);
    return toSummary(row);
  }

  /** Staff change a session's status or mark it read; every staff screen hears of it. */
  async patchSession(sessionId: string, patch: ChatSessionPatch): Promise<ChatSessionSummary> {
    const status: ChatSessionStatus | undefined = patch.status;
    const updated = await repository.updateSession(this.db, sessionId, { status, markRead: patch.read === true });
    if (!updated) throw new HttpError(404, chatSessionNotFoundMessage);
    const summary = await this.session(sessionId);
    this.pushes.sessionUpdated(summary);
    return summary;
  }
}
