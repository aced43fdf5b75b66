import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiPaths, pathTo } from '../../../../api/contract/paths';
import type { CannedReply, CannedReplyInput, ChatNote } from '../../../../api/contract/team-inbox-notes';
import { api, apiRequest } from '../../../lib/api-client';
import { toast } from '../../../components/ui/toast';
import { isUnauthorized } from '../lib/failures';
import { staffCall } from './admin-api';

/** Private notes and canned replies (DESIGN.md 11) as TanStack Query hooks; pushes patch the notes (collision.ts). */
export const teamInboxKeys = {
  chatNotes: (sessionId: string) => ['chat-notes', sessionId] as const,
  cannedReplies: ['canned-replies'] as const,
};

export const teamInboxApi = {
  chatNotes: (sessionId: string) => staffCall(() => api.get<ChatNote[]>(pathTo(apiPaths.chatNotes, { sessionId }))),
  addNote: (sessionId: string, text: string) => staffCall(() => api.post<ChatNote>(pathTo(apiPaths.chatNotes, { sessionId }), { text })),
  cannedReplies: () => staffCall(() => api.get<CannedReply[]>(apiPaths.cannedReplies)),
  createCannedReply: (input: CannedReplyInput) => staffCall(() => api.post<CannedReply>(apiPaths.cannedReplies, input)),
  updateCannedReply: (id: number, input: CannedReplyInput) => staffCall(() => api.patch<CannedReply>(pathTo(apiPaths.cannedReply, { id }), input)),
  deleteCannedReply: (id: number) => staffCall(() => apiRequest<undefined>('DELETE', pathTo(apiPaths.cannedReply, { id }))),
};

/** Adds a note to the cache of its conversation, once (the author's own answer and the push may both bring it). */
export function putChatNote(queryClient: QueryClient, note: ChatNote): void {
  queryClient.setQueryData<ChatNote[]>(teamInboxKeys.chatNotes(note.sessionId), (notes) =>
    notes === undefined || notes.some((known) => known.id === note.id) ? notes : [...notes, note],
  );
}

export function useChatNotes(sessionId: string | null): ChatNote[] {
  const { data } = useQuery({
    queryKey: teamInboxKeys.chatNotes(sessionId ?? ''),
    queryFn: () => teamInboxApi.chatNotes(sessionId!),
    enabled: sessionId !== null,
  });
  return data ?? [];
}

export function useAddNote(sessionId: string | null) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ to, text }: { to: string; text: string }) => teamInboxApi.addNote(to, text),
    onSuccess: (note) => {
      putChatNote(queryClient, note);
      toast({ title: 'Note added', variant: 'success' });
    },
    onError: (error) => {
      if (!isUnauthorized(error)) toast({ title: 'Error', description: 'Failed to add the note.', variant: 'destructive' });
    },
  });
  const { mutateAsync, isPending } = mutation;
  const add = useCallback(
    async (text: string): Promise<boolean> => {
      if (!sessionId || !text.trim() || isPending) return false;
      return mutateAsync({ to: sessionId, text: text.trim() }).then(
        () => true,
        () => false,
      );
    },
    [sessionId, isPending, mutateAsync],
  );
  return { add, adding: isPending };
}

export const cannedRepliesQuery = queryOptions({ queryKey: teamInboxKeys.cannedReplies, queryFn: teamInboxApi.cannedReplies, staleTime: 30_000 });

export function useCannedReplies(enabled = true) {
  return useQuery({ ...cannedRepliesQuery, enabled });
}
