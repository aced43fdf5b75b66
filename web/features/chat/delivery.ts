import type { ChatMessage, ChatMessageInput } from '../../../api/contract/chat';
import { ApiError } from '../../lib/api-client';
import { postChatMessage } from './api';
import type { OutgoingMessage } from './outbox';
import { ChatRefusedError, type ChatTransport } from './transport';
import { visitorTimeZone, visitPages } from './visit-pages';

/** What one send of the outbox carries, and the way it goes: the controller decides when, and what the panel shows. */

export function failureText(error: unknown): string {
  if (error instanceof ChatRefusedError) return error.message;
  if (error instanceof ApiError && error.body) {
    const fieldMessage = error.body.errors ? Object.values(error.body.errors)[0] : undefined;
    return fieldMessage ?? error.body.message;
  }
  return 'Not sent';
}

/** The server answered no (too many, too long...): sending the same again would not help. Anything else may pass later. */
export function isRefusal(error: unknown): boolean {
  return error instanceof ChatRefusedError || (error instanceof ApiError && error.status < 500);
}

export function newClientId(): string {
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/** A message of the outbox as the server takes it; `withVisit` until the conversation exists. */
export function messageInput(message: OutgoingMessage, withVisit: boolean): ChatMessageInput {
  return {
    sessionId: message.sessionId,
    message: message.text,
    clientId: message.clientId,
    ...(message.senderEmail ? { senderEmail: message.senderEmail } : {}),
    ...(message.senderName ? { senderName: message.senderName } : {}),
    // Not the query or fragment: a page such as the reset link's carries a secret there.
    pageUrl: `${window.location.origin}${window.location.pathname}`,
    ...(document.referrer ? { referrer: document.referrer } : {}),
    // The visit so far, until the conversation exists: the server keeps it with the first message only.
    ...(withVisit ? { pages: visitPages(), timeZone: visitorTimeZone() } : {}),
  };
}

/** Over the socket when connected, else by REST; a send the socket may have missed is retried by REST with the same clientId. */
export async function sendMessageInput(transport: ChatTransport, outgoing: ChatMessageInput): Promise<ChatMessage> {
  if (!transport.isConnected()) return postChatMessage(outgoing);
  try {
    return await transport.send(outgoing);
  } catch (error) {
    if (error instanceof ChatRefusedError) throw error;
    return postChatMessage(outgoing);
  }
}
