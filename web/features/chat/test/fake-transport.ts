import type { ChatMessage, ChatMessageInput, ChatPageInput } from '../../../../api/contract/chat';
import type { ChatSeenInput } from '../../../../api/contract/continuity';
import type { ChatResyncAnswer, ChatSessionState } from '../../../../api/contract/chat-resync';
import type { TypingPayload } from '../../../../api/contract/socket';
import type { ChatTransport, TransportHandlers } from '../transport';

/** A stored chat row as the server sends it, from the visitor unless said otherwise; its seq is its id unless given. */
export function chatRow(fields: Partial<ChatMessage> & { id: number; message: string; sessionId: string }): ChatMessage {
  return {
    seq: fields.id,
    senderEmail: null,
    senderName: null,
    isFromUser: true,
    clientId: null,
    createdAt: new Date().toISOString(),
    kind: fields.isFromUser === false ? 'staff' : 'visitor',
    ...fields,
  };
}

/** A stand-in for the socket side, driven by the test: connect, drop, push. */
export class FakeTransport implements ChatTransport {
  handlers!: TransportHandlers;
  connected = false;
  stopped = false;
  history: ChatMessage[] = [];
  sent: ChatMessageInput[] = [];
  typed: TypingPayload[] = [];
  /** `chat:page` events, sent only while connected (as the socket transport does). */
  pages: ChatPageInput[] = [];
  /** `chat:seen` events, sent only while connected. */
  seens: ChatSeenInput[] = [];
  joins = 0;
  /** The state a resync answers (null: a session not started yet). */
  sessionState: ChatSessionState | null = null;
  /** Every resync's cursor, in order. */
  resyncCursors: number[] = [];
  /** When set, the next join is refused with it (as a timed-out or refused ack is). */
  joinError: Error | null = null;
  sendResult: ((message: ChatMessageInput) => Promise<ChatMessage>) | null = null;
  nextId = 100;

  start(handlers: TransportHandlers) {
    this.handlers = handlers;
  }
  stop() {
    this.stopped = true;
  }
  isConnected() {
    return this.connected;
  }
  async join() {
    this.joins += 1;
    const error = this.joinError;
    this.joinError = null;
    if (error) throw error;
    return this.history;
  }
  /** A join with a cursor: counted as a join, answering the history after it and the state. */
  async resync(sessionId: string, afterSeq: number): Promise<ChatResyncAnswer> {
    this.resyncCursors.push(afterSeq);
    const messages = await this.join();
    return { messages: messages.filter((message) => message.sessionId === sessionId && message.seq > afterSeq), session: this.sessionState };
  }
  async send(message: ChatMessageInput) {
    this.sent.push(message);
    if (this.sendResult) return this.sendResult(message);
    return chatRow({ id: (this.nextId += 1), sessionId: message.sessionId, message: message.message, clientId: message.clientId });
  }
  typing(payload: TypingPayload) {
    this.typed.push(payload);
  }
  page(payload: ChatPageInput) {
    if (this.connected) this.pages.push(payload);
  }
  seen(payload: ChatSeenInput) {
    if (this.connected) this.seens.push(payload);
  }

  connect() {
    this.connected = true;
    this.handlers.onConnect();
  }
  /** Staff resolved the session (or their reply waited): the server's `chat:rating-asked`. */
  askRating(sessionId: string) {
    this.handlers.onRatingAsked(sessionId);
  }
  drop() {
    this.connected = false;
    this.handlers.onDisconnect();
  }
}
