import type { ChatMessage, ChatMessageInput } from '../../../api/contract/chat';
import type { ChatRating, ChatRatingByLinkInput, ChatRatingInput, ChatRatingState } from '../../../api/contract/chat-rating';
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

/** Whether the visitor was asked to rate their session, and their rating once given. */
export function fetchRatingState(sessionId: string): Promise<ChatRatingState> {
  return api.get<ChatRatingState>(pathTo(apiPaths.chatRating, { sessionId }));
}

export function postRating(sessionId: string, rating: ChatRatingInput): Promise<ChatRating> {
  return api.post<ChatRating>(pathTo(apiPaths.chatRating, { sessionId }), rating);
}

/** The confirm page of a mailed rating link. */
export function postRatingByLink(input: ChatRatingByLinkInput): Promise<ChatRating> {
  return api.post<ChatRating>(apiPaths.chatRatingByLink, input);
}
