import { leadKinds } from '../../../api/contract/leads';
import { dataLoadFailed, isUnauthorized } from './lib/failures';
import { useChatSessions } from './stores/chat-sessions-store';
import { useCounts } from './stores/counts-store';
import { useLeads } from './stores/leads-store';

/**
 * The staff inbox's client state, one store per thing it holds: the four lead lists
 * (stores/leads-store.ts), the chat sessions with the open conversation (stores/chat-sessions-store.ts)
 * and the count cards (stores/counts-store.ts). Here: what spans them.
 */

/** The chat inbox: the sessions list and the open conversation. */
export const useInbox = useChatSessions;

/** The dashboard's first screen: the cards, every lead list and the chat sessions; one toast if any fails. */
export async function loadInbox(): Promise<void> {
  const { leads } = useLeads.getState();
  const results = await Promise.allSettled([
    useCounts.getState().load(),
    ...leadKinds.map((kind) => useLeads.getState().load(kind, leads[kind].query)),
    useChatSessions.getState().load(),
  ]);
  const failures = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failures.length > 0 && !failures.some((failure) => isUnauthorized(failure.reason))) dataLoadFailed();
}

/** The inbox's data before sign-in and after sign-out. */
export function resetInbox(): void {
  useLeads.getState().reset();
  useChatSessions.getState().reset();
  useCounts.getState().reset();
}

/** Unread conversations: the figure of the tab label and the page title, the server's when it has one. */
export function useUnreadChats(): number {
  const counted = useCounts((state) => state.counts?.unreadChats);
  const shown = useChatSessions((state) => (counted === undefined ? state.chatSessions.filter((session) => session.unreadCount > 0).length : 0));
  return counted ?? shown;
}
