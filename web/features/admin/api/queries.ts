import {
  infiniteQueryOptions,
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { type ChatSessionStatus, type ChatSessionSummary, chatSessionCursor } from '../../../../api/contract/chat';
import { type Lead, type LeadByKind, type LeadKind, type LeadStatus, leadKinds, listCursor } from '../../../../api/contract/leads';
import { type ListFilter, noFilter, useListFilters } from '../stores/list-filters-store';
import { useAssigneeFilter } from '../stores/assignee-filter-store';
import { adminApi, adminPageSize } from './admin-api';
import {
  adminQueryKeys,
  byLastActivity,
  mergeFirstPage,
  newestChatRows,
  newestLeadFirst,
  newestLeads,
  type Pages,
  pushesApplied,
  rereadList,
} from './live-cache';
import { markRead } from './chat-writes';

/**
 * The dashboard's server state as TanStack Query hooks (DESIGN.md section 15): the lists (keyset
 * pages), the count cards, a conversation's messages; the writes that change them are chat-writes.ts and lead-writes.ts. Components
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
