import type { QueryClient } from '@tanstack/react-query';
import type { ChatSessionSummary, StaffChatMessage } from '../../../../api/contract/chat';
import { staffResyncMaxKnown } from '../../../../api/contract/chat-resync';
import { adminApi } from './admin-api';
import { adminQueryKeys, byLastActivity, cachedLists } from './live-cache';

/**
 * The chat sessions this dashboard holds, each at the version it holds (the newest by activity, as
 * many as the server compares): what it tells the server on a reconnect.
 */
export function heldChatVersions(queryClient: QueryClient): { id: string; version: number }[] {
  const held = new Map<string, ChatSessionSummary>();
  for (const list of cachedLists<ChatSessionSummary, string>(queryClient, adminQueryKeys.chatSessions)) {
    for (const row of list.data.pages.flat()) {
      const known = held.get(row.id);
      if (!known || row.version > known.version) held.set(row.id, row);
    }
  }
  return [...held.values()]
    .sort(byLastActivity)
    .slice(0, staffResyncMaxKnown)
    .map((row) => ({ id: row.id, version: row.version }));
}

/** The highest seq up to which a conversation's messages are all held (seqs run 1, 2, 3 with no holes). */
export function heldMessageCursor(messages: readonly StaffChatMessage[]): number {
  const held = new Set(messages.map((message) => message.seq));
  let cursor = 0;
  while (held.has(cursor + 1)) cursor += 1;
  return cursor;
}

/**
 * What a reconnecting dashboard missed of the chats, by cursor rather than by reading every list
 * again: the sessions whose version moved (status, read, last message) or that are new on the
 * inbox's first page, and the open conversation's messages after the seq it holds. The caller
 * applies them as it applies pushes, which replace rows by id and add messages by id: nothing twice.
 */
export async function missedChats(queryClient: QueryClient, openSessionId: string | null): Promise<{ sessions: ChatSessionSummary[]; messages: StaffChatMessage[] }> {
  const openMessages = openSessionId ? queryClient.getQueryData<StaffChatMessage[]>(adminQueryKeys.chatMessages(openSessionId)) : undefined;
  const [{ sessions }, messages] = await Promise.all([
    adminApi.resyncChats(heldChatVersions(queryClient)),
    openSessionId && openMessages ? adminApi.chatMessagesAfter(openSessionId, heldMessageCursor(openMessages)) : Promise.resolve([]),
  ]);
  return { sessions, messages };
}
