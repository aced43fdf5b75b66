import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../../db/client';
import { type ChatMessage, type ChatSessionSummary, chatSessionNotFoundMessage, chatSessionStatusSchema, type StaffChatMessage } from '../../../contract/chat';
import {
  type ChatResyncAnswer,
  type ChatSessionState,
  type StaffChatResyncInput,
  type VisitorChatSessionSummary,
  visitorSessionListLimit,
} from '../../../contract/chat-resync';
import { listLimitDefault } from '../../../contract/leads';
import { rooms } from '../../../contract/socket';
import { HttpError } from '../../../plugins/errors';
import * as repository from './chat.resync.repository';
import { hasGrant } from '../continuity/chat.continuity.repository';
import { ratingOf } from '../rating/chat.rating-record';
import { toChatMessage, toSummary } from '../conversation/chat.service';
import { staffDisplayName } from '../../../contract/auth';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resync by cursor and a visitor's past conversations (chat.resync.ts). */
    chatResync: ChatResync;
  }
}

function toState(row: repository.SessionStateRow): ChatSessionState {
  return {
    sessionId: row.id,
    status: chatSessionStatusSchema.catch('open').parse(row.status),
    lastSeq: Number(row.lastSeq),
    readSeq: Number(row.lastReadSeq),
    version: Number(row.version),
    seenSeq: Number(row.visitorSeenSeq),
    ratingAsked: row.ratingAskedAt !== null,
    rating: ratingOf(row),
  };
}

/**
 * What a reconnecting client missed, by its cursor: a visitor's conversation after the seq it holds
 * (with the session's whole state), a dashboard's sessions whose version moved since it read them.
 * Messages are numbered per session in commit order (seq) and each session counts its changes
 * (version), so neither cursor can skip a write that commits late, on any node.
 */
export class ChatResync {
  constructor(private readonly db: Db) {}

  /**
   * A visitor's conversation after `afterSeq`, and its state; `session: null` for an id nobody has
   * started yet, a 404 for another visitor's. `enter` (the socket's room) runs before the reads, so
   * what commits after them is pushed to it.
   */
  async visitorResync(visitorId: string, input: { sessionId: string; afterSeq: number }, enter?: () => Promise<void>): Promise<ChatResyncAnswer> {
    if (!enter) return this.visitorPoll(visitorId, input);
    const owner = await repository.findSessionState(this.db, input.sessionId);
    if (!owner) return { messages: [], session: null };
    await this.mustSee(owner, visitorId);
    await enter?.();
    const rows = await repository.listMessagesAfter(this.db, input.sessionId, input.afterSeq);
    const state = await repository.findSessionState(this.db, input.sessionId);
    return { messages: rows.map(toChatMessage), session: toState(state ?? owner) };
  }

  /**
   * The widget's poll: two reads, the messages after the cursor (usually none) and then the state,
   * which is thus at least as new as they are. Another visitor's session answers nothing but a 404.
   */
  private async visitorPoll(visitorId: string, input: { sessionId: string; afterSeq: number }): Promise<ChatResyncAnswer> {
    const rows = await repository.listMessagesAfter(this.db, input.sessionId, input.afterSeq);
    const state = await repository.findSessionState(this.db, input.sessionId);
    if (!state) return { messages: [], session: null };
    await this.mustSee(state, visitorId);
    return { messages: rows.map(toChatMessage), session: toState(state) };
  }

  /** Another visitor's session is not found, unless its mailed link let this visitor in (chat.continuity.ts). */
  private async mustSee(session: repository.SessionStateRow, visitorId: string): Promise<void> {
    if (session.visitorId !== visitorId && !(await hasGrant(this.db, visitorId, session.id))) throw new HttpError(404, chatSessionNotFoundMessage);
  }

  /** The visitor identity's own conversations, newest first; never another's. */
  async visitorSessions(visitorId: string): Promise<VisitorChatSessionSummary[]> {
    const rows = await repository.listVisitorSessions(this.db, visitorId, visitorSessionListLimit);
    return rows.map((row) => ({
      id: row.id,
      status: chatSessionStatusSchema.catch('open').parse(row.status),
      lastMessage: row.lastMessage ?? '',
      lastMessageFromUser: Number(row.lastMessageFromUser) === 1,
      lastActivity: row.lastActivity,
      messageCount: Number(row.messageCount ?? 0),
    }));
  }

  /** The state a visitor is pushed when staff change the session. */
  async sessionState(sessionId: string): Promise<ChatSessionState | undefined> {
    const row = await repository.findSessionState(this.db, sessionId);
    return row && toState(row);
  }

  /**
   * A reconnecting dashboard: every session it holds whose version moved (or that is gone from its
   * view's reach), and the newest sessions of the inbox's first page it does not hold at that version.
   */
  async staffResync(input: StaffChatResyncInput): Promise<ChatSessionSummary[]> {
    const held = new Map(input.known.map((session) => [session.id, session.version]));
    const [now, newest] = await Promise.all([
      repository.listSessionVersions(this.db, [...held.keys()]),
      repository.listNewestSessionVersions(this.db, listLimitDefault),
    ]);
    const changed = new Set<string>();
    for (const row of [...now, ...newest]) if (held.get(row.id) !== Number(row.version)) changed.add(row.id);
    const rows = await repository.listSummariesOf(this.db, [...changed]);
    return rows.map(toSummary);
  }

  /** Staff's open conversation after the seq they hold, authors and all. */
  async staffMessagesAfter(sessionId: string, afterSeq: number): Promise<StaffChatMessage[]> {
    const state = await repository.findSessionState(this.db, sessionId);
    if (!state) throw new HttpError(404, chatSessionNotFoundMessage);
    const rows = await repository.listAuthoredMessagesAfter(this.db, sessionId, afterSeq);
    return rows.map((row) => ({
      ...toChatMessage(row),
      authorStaffId: row.authorStaffId,
      authorName: row.authorEmail === null ? null : staffDisplayName({ email: row.authorEmail, displayName: row.authorDisplayName }),
    }));
  }
}

/** Filters a visitor's history to the messages after their cursor. */
export function messagesAfter(messages: ChatMessage[], afterSeq: number | undefined): ChatMessage[] {
  return afterSeq === undefined ? messages : messages.filter((message) => message.seq > afterSeq);
}

/**
 * A session's state changed by staff (resolved, reopened, read): its visitor's sockets get the whole
 * state. Loaded by id after commit, so it is the state as it is now.
 */
export function pushSessionStates(app: FastifyInstance): void {
  app.events.on('chat.session.updated', async ({ session }) => {
    const state = await app.chatResync.sessionState(session.id);
    if (state) app.visitorSockets.to(rooms.chatSession(session.id)).emit('chat:session', state);
  });
}
