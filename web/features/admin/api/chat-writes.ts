import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { type ChatMessage, type ChatSessionStatus, type ChatSessionSummary, type StaffChatMessage } from '../../../../api/contract/chat';
import { toast } from '../../../components/ui/toast';
import { isUnauthorized, saveFailed } from '../lib/failures';
import { type ListFilter } from '../stores/list-filters-store';
import { adminApi } from './admin-api';
import {
  adminQueryKeys,
  type ChatRowResult,
  countedAhead,
  heldChatRow,
  mapRows,
  moveCounts,
  type Pages,
  prependRow,
  putChatRow,
  shownUnread,
  withMessage,
} from './live-cache';

/**
 * The dashboard's own chat writes and what they change in the held data: marking read, a reply,
 * a status, and a stored message (pushed or our own) put in its conversation and the lists.
 */

/** The row and the cards follow an answer of the dashboard's own call; what it cannot tell is read for that session. */
function applyOwnRow(queryClient: QueryClient, result: ChatRowResult, sessionId: string): void {
  moveCounts(queryClient, result.counts);
  if (result.reread) void refreshChatRow(queryClient, sessionId);
}

async function refreshChatRow(queryClient: QueryClient, sessionId: string): Promise<void> {
  try {
    const row = await adminApi.chatSession(sessionId);
    moveCounts(queryClient, putChatRow(queryClient, row, 'answer').counts);
  } catch {
    // The next push or reconnect brings it.
  }
}

function patchChatRows(queryClient: QueryClient, sessionId: string, change: (row: ChatSessionSummary) => ChatSessionSummary): void {
  queryClient.setQueriesData<Pages<ChatSessionSummary>>({ queryKey: adminQueryKeys.chatSessions }, (data) =>
    data && mapRows(data, (row) => (row.id === sessionId ? change(row) : row)),
  );
}

/** Marks a session read: at once on this screen, then as the server answers. */
export async function markRead(queryClient: QueryClient, sessionId: string): Promise<void> {
  if (shownUnread(queryClient, sessionId)) {
    countedAhead(queryClient).delete(sessionId);
    patchChatRows(queryClient, sessionId, (row) => ({ ...row, unreadCount: 0 }));
    moveCounts(queryClient, { unreadChats: -1 });
  }
  try {
    const row = await adminApi.patchChatSession(sessionId, { read: true });
    applyOwnRow(queryClient, putChatRow(queryClient, row, 'answer'), sessionId);
  } catch {
    // The badge comes back with the next update from the server; reading is not worth a toast.
  }
}

/** Marks the open conversation read if visitor messages came while the tab was hidden. */
export function useMarkReadIfUnread(): (sessionId: string) => void {
  const queryClient = useQueryClient();
  return useCallback((sessionId) => {
    if (shownUnread(queryClient, sessionId)) void markRead(queryClient, sessionId);
  }, [queryClient]);
}

export interface ChatMessageResult extends ChatRowResult {
  /** A visitor's message nobody has seen on this screen. */
  unseen: boolean;
  /** Seen in the open conversation: the session is read. */
  markRead: boolean;
}

/**
 * A stored chat message, pushed or our own reply: appended to its conversation, and what it says
 * (last message, activity) shown in the lists at once; its figures come with the server's row.
 */
export function putChatMessage(queryClient: QueryClient, message: StaffChatMessage, seen: boolean): ChatMessageResult {
  const { sessionId } = message;
  const result: ChatMessageResult = { counts: {}, reread: false, recount: false, unseen: message.isFromUser && !seen, markRead: false };
  queryClient.setQueryData<StaffChatMessage[]>(adminQueryKeys.chatMessages(sessionId), (messages) => messages && withMessage(messages, message));
  const held = heldChatRow(queryClient, sessionId);
  // The row was read after this message was stored (a catch-up, our own reply): it holds it.
  if (held && held.lastMessageSeq >= message.seq) return result;
  if (seen && message.isFromUser) result.markRead = true;
  else result.reread = true;
  if (result.unseen && !shownUnread(queryClient, sessionId)) {
    result.counts.unreadChats = 1;
    countedAhead(queryClient).add(sessionId);
  }
  const news = { lastMessage: message.message, lastMessageId: message.id, lastMessageSeq: message.seq, lastActivity: message.createdAt };
  let shownNew = false;
  for (const [key, data] of queryClient.getQueriesData<Pages<ChatSessionSummary>>({ queryKey: adminQueryKeys.chatSessions })) {
    if (!data) continue;
    const filter = key[1] as ListFilter<ChatSessionStatus>;
    const inList = data.pages.some((page) => page.some((row) => row.id === sessionId));
    if (inList) {
      // The newest activity: the row moves to the top.
      const row = heldRow(data, sessionId)!;
      queryClient.setQueryData(key, prependRow(mapRows(data, (known) => (known.id === sessionId ? undefined : known)), { ...row, ...news }));
    } else if (!filter.q && filter.status !== 'resolved' && (filter.status === null || message.isFromUser) && filter.assignee !== 'mine') {
      // Under a search, only the server says whether it matches; under a filter, whether its status fits.
      queryClient.setQueryData(key, prependRow(data, provisionalRow(message, result.unseen)));
      shownNew = true;
    }
  }
  if (!held && message.isFromUser) {
    // Only a visitor starts a session; one the lists do not show may be hidden by a search or filter: the server counts it.
    if (shownNew) {
      result.counts.chatSessions = 1;
      result.counts['chatSessions.open'] = 1;
    } else {
      result.recount = true;
    }
  }
  return result;
}

function heldRow(data: Pages<ChatSessionSummary>, sessionId: string): ChatSessionSummary | undefined {
  for (const page of data.pages) for (const row of page) if (row.id === sessionId) return row;
  return undefined;
}

/**
 * The row of a session the list did not hold, from its pushed message alone, shown until the
 * server's summary comes: the message is the session's only one as far as this screen knows.
 */
function provisionalRow(message: ChatMessage, unread: boolean): ChatSessionSummary {
  return {
    id: message.sessionId,
    senderName: message.isFromUser ? message.senderName : null,
    senderEmail: message.senderEmail,
    hasCustomerMessage: message.isFromUser,
    lastMessage: message.message,
    messageCount: 1,
    lastMessageId: message.id,
    lastMessageSeq: message.seq,
    lastActivity: message.createdAt,
    unreadCount: unread ? 1 : 0,
    visitorSeenSeq: 0,
    status: 'open',
    version: 0,
    pageUrl: null,
    referrer: null,
    userAgent: null,
    createdAt: message.createdAt,
  };
}

/** A staff reply in a conversation; true once the server stored it. */
export function useSendReply(sessionId: string | null) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ to, message }: { to: string; message: string }) => adminApi.reply(to, message),
    onSuccess: (stored) => {
      const result = putChatMessage(queryClient, stored, true);
      applyOwnRow(queryClient, result, stored.sessionId);
      toast({ title: 'Reply sent', variant: 'success' });
    },
    onError: (error) => {
      if (!isUnauthorized(error)) toast({ title: 'Error', description: 'Failed to send reply.', variant: 'destructive' });
    },
  });
  const { mutateAsync, isPending } = mutation;
  const send = useCallback(
    async (text: string): Promise<boolean> => {
      const message = text.trim();
      if (!sessionId || !message || isPending) return false;
      return mutateAsync({ to: sessionId, message }).then(
        () => true,
        () => false,
      );
    },
    [sessionId, isPending, mutateAsync],
  );
  return { send, sending: isPending && mutation.variables?.to === sessionId };
}

/** A conversation's status (Open, Resolved): shown at once, undone if the server refuses. */
export function useSetChatStatus(): (sessionId: string, status: ChatSessionStatus) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (sessionId, status) => {
      const previous = heldChatRow(queryClient, sessionId);
      patchChatRows(queryClient, sessionId, (row) => ({ ...row, status }));
      // The row shows the new status at once, so the server's row finds nothing to move: the filters' figures move here.
      const moves = previous && previous.status !== status;
      if (moves) moveCounts(queryClient, { [`chatSessions.${previous.status}`]: -1, [`chatSessions.${status}`]: 1 });
      try {
        const row = await adminApi.patchChatSession(sessionId, { status });
        applyOwnRow(queryClient, putChatRow(queryClient, row, 'answer'), sessionId);
      } catch (error) {
        if (moves) moveCounts(queryClient, { [`chatSessions.${status}`]: -1, [`chatSessions.${previous.status}`]: 1 });
        if (previous) patchChatRows(queryClient, sessionId, () => previous);
        if (!isUnauthorized(error)) saveFailed();
      }
    },
    [queryClient],
  );
}
