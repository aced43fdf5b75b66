import type { ChatResyncAnswer, ChatSessionState, VisitorChatSessionSummary } from '../../../api/contract/chat-resync';
import { apiPaths, pathTo, withQuery } from '../../../api/contract/paths';
import { api, ApiError } from '../../lib/api-client';
import type { ChatEntry } from './messages';

/**
 * The conversation after the visitor's cursor, and its state, by REST (the poll while the socket is
 * down, and the first load then): a session not started yet has neither.
 */
export async function fetchChatResync(sessionId: string, afterSeq: number): Promise<ChatResyncAnswer> {
  try {
    return await api.get<ChatResyncAnswer>(withQuery(pathTo(apiPaths.visitorChatResync, { sessionId }), { afterSeq }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { messages: [], session: null };
    throw error;
  }
}

/** The visitor's own conversations, newest first. */
export function fetchVisitorSessions(): Promise<VisitorChatSessionSummary[]> {
  return api.get<VisitorChatSessionSummary[]>(apiPaths.visitorChatSessions);
}

/**
 * The visitor's cursor: the highest seq up to which every message is held (0: none). A session's
 * seqs run 1, 2, 3 with no holes, so a reply missed before one of the visitor's own sends (whose
 * stored copy comes back with a higher seq) is still after the cursor.
 */
export function cursorOf(entries: readonly ChatEntry[]): number {
  const held = new Set(entries.map((entry) => entry.seq));
  let cursor = 0;
  while (held.has(cursor + 1)) cursor += 1;
  return cursor;
}

/** Whether `incoming` replaces `held`: a state is sent whole, and of two the higher version is the newer. */
export function isNewerState(held: ChatSessionState | null, incoming: ChatSessionState): boolean {
  return held === null || held.sessionId !== incoming.sessionId || incoming.version >= held.version;
}
