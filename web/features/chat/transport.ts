import type { ChatMessage, ChatMessageInput, ChatPageInput } from '../../../api/contract/chat';
import type { ChatSeenInput } from '../../../api/contract/continuity';
import type { ChatResyncAnswer, ChatSessionState } from '../../../api/contract/chat-resync';
import type { AckAnswer, TypingPayload } from '../../../api/contract/socket';
import { connectVisitorSocket } from '../../lib/socket';

export interface TransportHandlers {
  onConnect: () => void;
  onDisconnect: () => void;
  onMessage: (message: ChatMessage) => void;
  onTyping: (payload: TypingPayload) => void;
  onPresence: (online: boolean) => void;
  /** Staff resolved the session, or their last reply waited: "How did we do?". */
  onRatingAsked: (sessionId: string) => void;
  /** The session's whole state, pushed when staff change it (`chat:session`). */
  onSessionState: (state: ChatSessionState) => void;
}

/** The realtime side of the widget: Socket.IO in the browser, a stand-in in component tests. */
export interface ChatTransport {
  start(handlers: TransportHandlers): void;
  stop(): void;
  isConnected(): boolean;
  /** The session's history; joins its room so replies are pushed here. */
  join(sessionId: string): Promise<ChatMessage[]>;
  /** `chat:resync`: the messages after `afterSeq` and the session's state; joins its room like join. */
  resync(sessionId: string, afterSeq: number): Promise<ChatResyncAnswer>;
  /** A visitor message, as `POST /api/chat-message` takes it too. */
  send(message: ChatMessageInput): Promise<ChatMessage>;
  typing(payload: TypingPayload): void;
  /** The visitor went on to another page (`chat:page`), while connected. */
  page(payload: ChatPageInput): void;
  /** The visitor has had the session's messages up to `upTo` on screen (`chat:seen`), while connected. */
  seen(payload: ChatSeenInput): void;
}

/** An answer from the server that refused the message: retrying by REST would not help. */
export class ChatRefusedError extends Error {}

const ackTimeoutMs = 5000;

export function socketTransport(): ChatTransport {
  let socket: ReturnType<typeof connectVisitorSocket> | null = null;
  return {
    start(handlers) {
      socket = connectVisitorSocket();
      socket.on('connect', handlers.onConnect);
      socket.on('disconnect', handlers.onDisconnect);
      socket.on('chat:message', handlers.onMessage);
      socket.on('chat:typing', handlers.onTyping);
      socket.on('staff:presence', ({ online }) => handlers.onPresence(online));
      socket.on('chat:rating-asked', ({ sessionId }) => handlers.onRatingAsked(sessionId));
      socket.on('chat:session', handlers.onSessionState);
    },
    stop() {
      socket?.removeAllListeners();
      socket?.disconnect();
      socket = null;
    },
    isConnected: () => socket?.connected ?? false,
    async join(sessionId) {
      if (!socket) throw new Error('not started');
      // Socket.IO types a timed ack loosely: the answer is the contract's.
      const answer = (await socket.timeout(ackTimeoutMs).emitWithAck('chat:join', { sessionId })) as AckAnswer<{ messages: ChatMessage[] }>;
      if (!answer.ok) throw new ChatRefusedError(answer.error);
      return answer.messages;
    },
    async resync(sessionId, afterSeq) {
      if (!socket) throw new Error('not started');
      const answer = (await socket.timeout(ackTimeoutMs).emitWithAck('chat:resync', { sessionId, afterSeq })) as AckAnswer<ChatResyncAnswer>;
      if (!answer.ok) throw new ChatRefusedError(answer.error);
      return { messages: answer.messages, session: answer.session };
    },
    async send(message) {
      if (!socket) throw new Error('not started');
      const answer = (await socket.timeout(ackTimeoutMs).emitWithAck('chat:send', message)) as AckAnswer<{ message: ChatMessage }>;
      if (!answer.ok) throw new ChatRefusedError(answer.error);
      return answer.message;
    },
    typing(payload) {
      if (socket?.connected) socket.emit('chat:typing', payload);
    },
    page(payload) {
      if (socket?.connected) socket.emit('chat:page', payload);
    },
    seen(payload) {
      if (socket?.connected) socket.emit('chat:seen', payload);
    },
  };
}
