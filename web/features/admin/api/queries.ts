import {
  infiniteQueryOptions,
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { type ChatMessage, type ChatSessionStatus, type ChatSessionSummary, chatSessionCursor, type StaffChatMessage } from '../../../../api/contract/chat';
import { type Lead, type LeadByKind, type LeadKind, type LeadPatch, type LeadStatus, leadKinds, listCursor } from '../../../../api/contract/leads';
import { toast } from '../../../components/ui/toast';
import { isUnauthorized, saveFailed } from '../lib/failures';
import { type ListFilter, noFilter, useListFilters } from '../stores/list-filters-store';
import { useAssigneeFilter } from '../stores/assignee-filter-store';
import { adminApi, adminPageSize } from './admin-api';
import { storeLeadUpdate } from './lead-queries';
import {
  adminQueryKeys,
  type ChatRowResult,
  countedAhead,
  countKeys,
  heldChatRow,
  heldLead,
  byLastActivity,
  isOlderLead,
  mergeFirstPage,
  mapRows,
  newestChatRows,
  newestLeadFirst,
  newestLeads,
  moveCounts,
  type Pages,
  prependRow,
  putChatRow,
  pushesApplied,
  putLeadRow,
  recheckCounts,
  rereadList,
  shownUnread,
  withMessage,
} from './live-cache';

/**
 * The dashboard's server state as TanStack Query hooks (DESIGN.md section 15): the lists (keyset
 * pages), the count cards, a conversation's messages, and the writes that change them. Components
 * call these; the staff socket keeps the cache live (inbox-controller.ts).
 */

/** What a failed read says: the dashboard's generic toast, or the conversation's own. */
export type AdminQueryMeta = { failure: 'data' | 'chat' };

export function leadListQuery(kind: LeadKind, filter: ListFilter<LeadStatus>) {
  return infiniteQueryOptions({
    queryKey: adminQueryKeys.leadList(kind, filter),
    queryFn: async ({ pageParam, client, queryKey }): Promise<Lead[]> => {
      const before = client.getQueryData<Pages<Lead>>(queryKey);
      const rows = await adminApi.leads(kind, { q: filter.q, status: filter.status, assignee: filter.assignee, before: pageParam });
      await pushesApplied(client);
      const newest = newestLeads(client, kind, rows);
      return pageParam === undefined ? mergeFirstPage(newest, before, client.getQueryData<Pages<Lead>>(queryKey), newestLeadFirst) : newest;
    },
    initialPageParam: undefined as string | undefined,
    // A page may hold more than a page's rows (pushed rows on top, rows kept below a re-read's page).
    getNextPageParam: (last: Lead[]) => (last.length >= adminPageSize ? listCursor(last[last.length - 1]!) : undefined),
    meta: { failure: 'data' } satisfies AdminQueryMeta,
  });
}

export function chatSessionListQuery(filter: ListFilter<ChatSessionStatus>) {
  return infiniteQueryOptions({
    queryKey: adminQueryKeys.chatSessionList(filter),
    queryFn: async ({ pageParam, client, queryKey }) => {
      const before = client.getQueryData<Pages<ChatSessionSummary>>(queryKey);
      const rows = await adminApi.chatSessions({ q: filter.q, status: filter.status, assignee: filter.assignee, before: pageParam });
      await pushesApplied(client);
      const newest = newestChatRows(client, rows);
      return pageParam === undefined ? mergeFirstPage(newest, before, client.getQueryData<Pages<ChatSessionSummary>>(queryKey), byLastActivity) : newest;
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: ChatSessionSummary[]) => (last.length >= adminPageSize ? chatSessionCursor(last[last.length - 1]!) : undefined),
    meta: { failure: 'data' } satisfies AdminQueryMeta,
  });
}

export const countsQuery = queryOptions({
  queryKey: adminQueryKeys.counts,
  // The figures of what the assignee filter shows; a change of filter reads them again (AssigneeFilterBar).
  queryFn: () => adminApi.counts(useAssigneeFilter.getState().assignee),
  meta: { failure: 'data' } satisfies AdminQueryMeta,
});

export function chatMessagesQuery(sessionId: string) {
  return queryOptions({
    queryKey: adminQueryKeys.chatMessages(sessionId),
    queryFn: () => adminApi.chatMessages(sessionId),
    meta: { failure: 'chat' } satisfies AdminQueryMeta,
  });
}

/** The first screen, asked for at once while its components mount: the cards, every list's first page. */
export function prefetchFirstScreen(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.prefetchQuery(countsQuery),
    ...leadKinds.map((kind) => queryClient.prefetchInfiniteQuery(leadListQuery(kind, noFilter))),
    queryClient.prefetchInfiniteQuery(chatSessionListQuery(noFilter)),
  ]).then(() => undefined);
}

interface ListView<Row, Status extends string> {
  rows: Row[];
  query: string;
  status: Status | null;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  loadMore: () => void;
  search: (query: string) => void;
  filterByStatus: (status: Status | null) => void;
}

function useRows<Row>(data: { pages: Row[][] } | undefined): Row[] {
  return useMemo(() => data?.pages.flat() ?? [], [data]);
}

/** What a list's infinite query gives its table; `setFilter` changes the list's search or status filter. */
function useListView<Row, Status extends string>(
  list: UseInfiniteQueryResult<{ pages: Row[][] }>,
  filter: ListFilter<Status>,
  setFilter: (change: Partial<ListFilter<Status>>) => void,
): ListView<Row, Status> {
  const rows = useRows(list.data);
  const { hasNextPage, fetchNextPage } = list;
  // Not while a read of the list is under way (`cancelRefetch: false`); reading `isFetching` here would render the list at each re-read's start.
  const loadMore = useCallback(() => {
    if (hasNextPage) void fetchNextPage({ cancelRefetch: false }).catch(() => undefined);
  }, [hasNextPage, fetchNextPage]);
  return {
    rows,
    query: filter.q,
    status: filter.status,
    loading: list.isPending || (list.isPlaceholderData && list.isFetching),
    loadingMore: list.isFetchingNextPage,
    hasMore: hasNextPage,
    loadMore,
    search: useCallback((q: string) => setFilter({ q }), [setFilter]),
    filterByStatus: useCallback((status: Status | null) => setFilter({ status }), [setFilter]),
  };
}

/** One lead tab's rows for the search and status filter it shows. */
export function useLeadList<K extends LeadKind>(kind: K): ListView<LeadByKind[K], LeadStatus> {
  const leadFilter = useListFilters((state) => state.leads[kind]);
  const assignee = useAssigneeFilter((state) => state.assignee);
  const filter = useMemo(() => ({ ...leadFilter, assignee }), [leadFilter, assignee]);
  const setLeadFilter = useListFilters((state) => state.setLeadFilter);
  // A new search shows the rows of the last until its own come.
  const list = useInfiniteQuery({ ...leadListQuery(kind, filter), placeholderData: keepPreviousData });
  const setFilter = useCallback((change: Partial<ListFilter<LeadStatus>>) => setLeadFilter(kind, change), [kind, setLeadFilter]);
  return useListView(list, filter, setFilter) as ListView<LeadByKind[K], LeadStatus>;
}

/** The chat tab's sessions for the search and status filter it shows. */
export function useChatSessionList(): ListView<ChatSessionSummary, ChatSessionStatus> {
  const chatFilter = useListFilters((state) => state.chats);
  const assignee = useAssigneeFilter((state) => state.assignee);
  const filter = useMemo(() => ({ ...chatFilter, assignee }), [chatFilter, assignee]);
  const setChatFilter = useListFilters((state) => state.setChatFilter);
  const list = useInfiniteQuery({ ...chatSessionListQuery(filter), placeholderData: keepPreviousData });
  return useListView(list, filter, setChatFilter);
}

/** The row of one session as the chat list holds it (its sender, its unread count). */
export function useChatSession(sessionId: string | null): ChatSessionSummary | undefined {
  const { rows } = useChatSessionList();
  return useMemo(() => (sessionId ? rows.find((row) => row.id === sessionId) : undefined), [rows, sessionId]);
}

/** The count cards and the filters' figures, as the server counts them (moved live until its next figures). */
export function useAdminCounts() {
  return useQuery(countsQuery).data;
}

/** Unread conversations: the figure of the tab label and the page title, the server's when it has one. */
export function useUnreadChats(): number {
  const counted = useAdminCounts()?.unreadChats;
  const { rows } = useChatSessionList();
  return counted ?? rows.filter((session) => session.unreadCount > 0).length;
}

/**
 * A conversation's messages. While it is open and the tab visible, a visitor message it shows
 * for the first time (the history, a push, a catch-up) marks the session read.
 */
export function useChatMessages(sessionId: string | null) {
  const queryClient = useQueryClient();
  const messages = useQuery({ ...chatMessagesQuery(sessionId ?? ''), enabled: sessionId !== null });
  const lastVisitorSeq = useRef<{ sessionId: string | null; seq: number }>({ sessionId: null, seq: 0 });
  const data = sessionId ? messages.data : undefined;
  useEffect(() => {
    if (!sessionId || !data) return;
    const newest = data.reduce((seq, message) => (message.isFromUser ? Math.max(seq, message.seq) : seq), 0);
    const seen = lastVisitorSeq.current;
    const first = seen.sessionId !== sessionId;
    if (first || newest > seen.seq) {
      lastVisitorSeq.current = { sessionId, seq: newest };
      if (document.visibilityState === 'visible' && (first || newest > 0)) void markRead(queryClient, sessionId);
    }
  }, [data, sessionId, queryClient]);
  return { messages: data ?? [], loading: sessionId !== null && messages.isPending };
}

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

/** Lead status or note: shown at once; true once the server stored it, false when it was undone. */
export function useUpdateLead(): <K extends LeadKind>(kind: K, id: number, patch: LeadPatch) => Promise<boolean> {
  const queryClient = useQueryClient();
  return useCallback(
    async (kind, id, patch) => {
      const previous = heldLead(queryClient, kind, id);
      if (!previous) return false;
      const replace = (row: Lead) =>
        queryClient.setQueriesData<Pages<Lead>>({ queryKey: adminQueryKeys.leads(kind) }, (data) => data && mapRows(data, (known) => (known.id === id ? row : known)));
      replace({ ...previous, ...patch });
      // The row held shows the new status at once, so the answer finds nothing to move: the filters' figures move here.
      const movedStatus = patch.status !== undefined && patch.status !== previous.status ? patch.status : undefined;
      const statusMove = (from: LeadStatus, to: LeadStatus) => moveCounts(queryClient, { [`${countKeys[kind]}.${from}`]: -1, [`${countKeys[kind]}.${to}`]: 1 });
      if (movedStatus) statusMove(previous.status, movedStatus);
      try {
        applyLeadUpdate(queryClient, kind, await adminApi.patchLead(kind, id, patch));
        return true;
      } catch (error) {
        replace(previous);
        if (movedStatus) statusMove(movedStatus, previous.status);
        if (!isUnauthorized(error)) saveFailed();
        return false;
      }
    },
    [queryClient],
  );
}

/**
 * A lead's new version (a push, a PATCH answer) in every list of its kind; the filters' figures
 * move with its status. An older version than the one held changes nothing.
 */
export function applyLeadUpdate(queryClient: QueryClient, kind: LeadKind, item: Lead): void {
  // The lead open at /admin/leads/:kind/:id takes it too (it keeps the newer of the two itself).
  storeLeadUpdate(queryClient, { kind, item });
  const held = heldLead(queryClient, kind, item.id);
  // A push that an answer of our own overtook (or the other way round): the newer version stays.
  if (held && isOlderLead(item, held)) return;
  if (held && held.status !== item.status) {
    moveCounts(queryClient, { [`${countKeys[kind]}.${held.status}`]: -1, [`${countKeys[kind]}.${item.status}`]: 1 });
  } else if (!held) {
    recheckCounts(queryClient);
  }
  putLeadRow(queryClient, kind, item);
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

/** A list with its status filter back on All, read again: who clicks a count card expects fresh rows. */
export function showAllRows(queryClient: QueryClient, list: LeadKind | 'chats'): void {
  const filters = useListFilters.getState();
  const { assignee } = useAssigneeFilter.getState();
  if (list === 'chats') {
    filters.setChatFilter({ status: null });
    rereadList(queryClient, adminQueryKeys.chatSessionList({ q: filters.chats.q, status: null, assignee }));
  } else {
    filters.setLeadFilter(list, { status: null });
    rereadList(queryClient, adminQueryKeys.leadList(list, { q: filters.leads[list].q, status: null, assignee }));
  }
}
