import type { ChatMessage, ChatMessageInput, ChatPageInput, ChatSessionSummary, StaffChatMessage } from './chat';
import type { ChatSeenInput } from './continuity';
import type { AnonymousBudgetStatus } from './operations';
import type { ChatResyncAnswer, ChatResyncInput, ChatSessionState } from './chat-resync';
import type { Lead, LeadByKind, LeadKind } from './leads';
import type { ChatNote, ConversationViewer, ConversationViewers, StaffTypingReply } from './team-inbox-notes';

/** What an acknowledged event answers: `{ ok: true, ... }`, or `{ ok: false, error }` with a sentence to show. */
export type AckAnswer<T extends object = object> = ({ ok: true } & T) | { ok: false; error: string };
export type Ack<T extends object = object> = (answer: AckAnswer<T>) => void;

export interface TypingPayload {
  sessionId: string;
  typing: boolean;
}

export type SubmissionNew = { [K in LeadKind]: { kind: K; item: LeadByKind[K] } }[LeadKind];

// ---------- namespace "/" (visitors) ----------

export interface VisitorClientToServerEvents {
  'chat:join': (payload: { sessionId: string }, ack: Ack<{ messages: ChatMessage[] }>) => void;
  'chat:send': (payload: ChatMessageInput, ack: Ack<{ message: ChatMessage }>) => void;
  'chat:typing': (payload: TypingPayload) => void;
  /** The visitor went on to another page; recorded for their own session only (a stranger's is refused as not found). */
  'chat:page': (payload: ChatPageInput, ack?: Ack) => void;
  /** The visitor has had their session's messages up to `upTo` on screen (api/contract/continuity.ts). */
  'chat:seen': (payload: ChatSeenInput, ack?: Ack<{ visitorSeenSeq: number }>) => void;
  /** `chat:join` with a cursor: the messages after `afterSeq` and the session's state; joins its room. */
  'chat:resync': (payload: ChatResyncInput, ack: Ack<ChatResyncAnswer>) => void;
}

export interface VisitorServerToClientEvents {
  'chat:message': (message: ChatMessage) => void;
  'chat:typing': (payload: TypingPayload) => void;
  'staff:presence': (payload: { online: boolean }) => void;
  /** "How did we do?": staff resolved the conversation, or their last reply is 30 minutes old. */
  'chat:rating-asked': (payload: { sessionId: string }) => void;
  /** The session's state changed (staff resolved it, say): the whole state, to replace what is held. */
  'chat:session': (state: ChatSessionState) => void;
}

// ---------- namespace "/admin" (staff) ----------

export interface StaffClientToServerEvents {
  'chat:reply': (payload: { sessionId: string; message: string; clientId?: string }, ack: Ack<{ message: StaffChatMessage }>) => void;
  'chat:typing': (payload: TypingPayload) => void;
  /** Collision: the conversation this socket shows now (null: none); answers who views it. */
  'chat:viewing': (payload: { sessionId: string | null }, ack?: Ack<{ viewers: ConversationViewer[] }>) => void;
  /** Collision: typing in a conversation's reply box (staff only; the visitor's `chat:typing` is apart). */
  'chat:typing-reply': (payload: { sessionId: string; typing: boolean }) => void;
  /** Collision: who views each conversation now, and this socket's own staff id (to leave out of "who else"). */
  'chat:viewers': (ack: Ack<{ staffId: number; sessions: ConversationViewers[] }>) => void;
}

export interface StaffServerToClientEvents {
  'chat:message': (message: StaffChatMessage) => void;
  'chat:typing': (payload: TypingPayload) => void;
  'submission:new': (payload: SubmissionNew) => void;
  'lead:updated': (payload: { kind: LeadKind; item: Lead }) => void;
  'chat-session:updated': (session: ChatSessionSummary) => void;
  'session:expired': () => void;
  /** Who views a conversation now, after someone opened, left or dropped it. */
  'chat:viewers': (payload: ConversationViewers) => void;
  'chat:typing-reply': (payload: StaffTypingReply) => void;
  /** A private note: to staff only (the `/admin` namespace). */
  'chat:note': (note: ChatNote) => void;
  /** A node passed its daily bound on anonymous traffic: mail caused by it stops for the day (once per node per day). */
  'alert:anonymous-budget': (status: AnonymousBudgetStatus) => void;
}

/** Room names: pushes go to rooms, never to lists of sockets held in memory, so another process's sockets get them too. */
export const rooms = {
  chatSession: (sessionId: string) => `chat:${sessionId}`,
  /** Every socket of one staff sign-in, so logout and expiry can disconnect them. */
  staffSession: (sessionId: string) => `staff-session:${sessionId}`,
  /** Every socket of one visitor identity, so a session's owner can be told apart from the others in its room. */
  visitor: (visitorId: string) => `visitor:${visitorId}`,
  /** Staff sockets that show one conversation now (collision): the adapter holds who is in it, on every node. */
  staffViewing: (sessionId: string) => `staff-viewing:${sessionId}`,
} as const;

export const socketLimits = {
  /** Largest socket payload accepted, in bytes (the REST body limit is 64 KiB too). */
  maxPayloadBytes: 64 * 1024,
  /** Chat sends a visitor may make per minute, over REST and socket together. */
  chatSendsPerMinute: 30,
} as const;
