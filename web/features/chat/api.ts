import type { ChatMessage, ChatMessageInput } from '../../../api/contract/chat';
import { api, ApiError } from '../../lib/api-client';
import { apiPaths, pathTo } from '../../../api/contract/paths';

/** The session's history by REST (the poll while the socket is down); a session not started yet has none. */
export async function fetchChatHistory(sessionId: string): Promise<ChatMessage[]> {
  try {
    return await api.get<ChatMessage[]>(pathTo(apiPaths.chatHistory, { sessionId }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export function postChatMessage(message: ChatMessageInput): Promise<ChatMessage> {
  return api.post<ChatMessage>(apiPaths.chatMessage, { ...message, isFromUser: true });
}
