import { QueryCache, QueryClient, queryOptions } from '@tanstack/react-query';
import type { ChatSessionContext } from '../../../../api/contract/chat';
import { dataLoadFailed, isUnauthorized } from '../lib/failures';
import type { Lead, LeadByKind, LeadKind } from '../../../../api/contract/leads';
import { toast } from '../../../components/ui/toast';
import { adminApi } from './admin-api';

/**
 * The staff dashboard's server state in TanStack Query (DESIGN.md section 15). The spec's defaults:
 * queries never go stale, do not refetch on window focus, do not poll and do not retry; mutations
 * do not retry. What keeps them true is the staff socket: its pushes replace held data (a lead's through
 * lead-writes.ts `applyLeadUpdate`), and after a (re)connect the held data is read again (the inbox controller's catch-up).
 */
export function createAdminQueryClient(): QueryClient {
  return new QueryClient({
    // A failed read of the lists or cards says "Error loading data"; a conversation says so itself. A 401 has signed out.
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isUnauthorized(error)) return;
        const failure = (query.meta as { failure?: 'data' | 'chat' } | undefined)?.failure;
        if (failure === 'data') dataLoadFailed();
        if (failure === 'chat') toast({ title: 'Error', description: 'Failed to load chat session.', variant: 'destructive' });
      },
    }),
    defaultOptions: {
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: false },
      mutations: { retry: false },
    },
  });
}

export const leadQueryKeys = {
  all: ['lead'] as const,
  one: (kind: LeadKind, id: number) => ['lead', kind, id] as const,
};

/** `GET /api/leads/:kind/:id`. */
export function leadQuery<K extends LeadKind>(kind: K, id: number) {
  return queryOptions<LeadByKind[K]>({
    queryKey: leadQueryKeys.one(kind, id),
    queryFn: () => adminApi.lead(kind, id),
  });
}

/**
 * A changed lead (a `lead:updated` push, a PATCH answer) replaces the one held, unless the held one
 * is newer. A lead nobody has opened is not added: the cache holds what screens asked for.
 */
export function storeLeadUpdate(queryClient: QueryClient, { kind, item }: { kind: LeadKind; item: Lead }): void {
  queryClient.setQueryData<Lead>(leadQueryKeys.one(kind, item.id), (held) => (held && item.updatedAt >= held.updatedAt ? item : held));
}

/**
 * `GET /api/chat-sessions/:sessionId/context`. No push tells staff that the visitor moved on to
 * another page, so it is read again each time the conversation opens.
 */
export function chatContextQuery(sessionId: string) {
  return queryOptions<ChatSessionContext>({
    queryKey: ['chat-context', sessionId] as const,
    queryFn: () => adminApi.chatContext(sessionId),
    staleTime: 0,
  });
}
