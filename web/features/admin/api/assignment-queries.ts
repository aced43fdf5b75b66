import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { Assignee, AssigneeFilter, AutoAssignmentSettings } from '../../../../api/contract/assignment';
import type { LeadKind } from '../../../../api/contract/leads';
import { toast } from '../../../components/ui/toast';
import { isUnauthorized, saveFailed } from '../lib/failures';
import { useAssigneeFilter } from '../stores/assignee-filter-store';
import { adminApi } from './admin-api';
import { adminQueryKeys, moveCounts, putChatRow, recheckCounts } from './live-cache';
import { applyLeadUpdate } from './lead-writes';

/** Assignment on the dashboard (DESIGN.md 11): the staff picker, assigning, the Mine / Unassigned / All filter, auto-assignment. */

export const assigneesQuery = queryOptions({ queryKey: ['assignees'] as const, queryFn: adminApi.assignees, staleTime: 0 });

/** The staff for the picker (who is online too), and who is signed in; "Mine" learns its id here. */
export function useAssignees(): { staff: Assignee[]; me: number | null } {
  const { data } = useQuery(assigneesQuery);
  const setMe = useAssigneeFilter((state) => state.setMe);
  useEffect(() => {
    if (data) setMe(data.me);
  }, [data, setMe]);
  return { staff: data?.staff ?? [], me: data?.me ?? null };
}

/** The filter every list, card and badge follows; choosing another reads the figures again. */
export function useAssigneeFilterChoice(): [AssigneeFilter, (assignee: AssigneeFilter) => void] {
  const queryClient = useQueryClient();
  const assignee = useAssigneeFilter((state) => state.assignee);
  const setAssignee = useAssigneeFilter((state) => state.setAssignee);
  const choose = useCallback(
    (next: AssigneeFilter) => {
      setAssignee(next);
      void queryClient.invalidateQueries({ queryKey: adminQueryKeys.counts });
    },
    [queryClient, setAssignee],
  );
  return [assignee, choose];
}

/** Gives a conversation to someone (null: nobody); the lists follow the server's row. */
export function useAssignChat(): (sessionId: string, assigneeId: number | null) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (sessionId, assigneeId) => {
      try {
        const row = await adminApi.assignChat(sessionId, assigneeId);
        moveCounts(queryClient, putChatRow(queryClient, row, 'answer').counts);
        recheckCounts(queryClient);
        toast({ title: assigneeId === null ? 'Unassigned' : `Assigned to ${row.assigneeName ?? 'them'}`, variant: 'success' });
      } catch (error) {
        if (!isUnauthorized(error)) saveFailed();
      }
    },
    [queryClient],
  );
}

/** Gives a lead to someone (null: nobody); its lists and its open page follow the server's answer. */
export function useAssignLead(): (kind: LeadKind, id: number, assigneeId: number | null) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (kind, id, assigneeId) => {
      try {
        const lead = await adminApi.assignLead(kind, id, assigneeId);
        applyLeadUpdate(queryClient, kind, lead);
        recheckCounts(queryClient);
        toast({ title: assigneeId === null ? 'Unassigned' : `Assigned to ${lead.assigneeName ?? 'them'}`, variant: 'success' });
      } catch (error) {
        if (!isUnauthorized(error)) saveFailed();
      }
    },
    [queryClient],
  );
}

export const autoAssignmentQuery = queryOptions({ queryKey: ['auto-assignment'] as const, queryFn: adminApi.autoAssignment });

/** Auto-assignment's settings (admins): read when shown, saved with the server's answer kept. */
export function useAutoAssignment(enabled: boolean) {
  const queryClient = useQueryClient();
  const { data } = useQuery({ ...autoAssignmentQuery, enabled });
  const save = useCallback(
    async (settings: AutoAssignmentSettings): Promise<boolean> => {
      try {
        queryClient.setQueryData(autoAssignmentQuery.queryKey, await adminApi.saveAutoAssignment(settings));
        toast({ title: 'Auto-assignment saved', variant: 'success' });
        return true;
      } catch (error) {
        if (!isUnauthorized(error)) saveFailed();
        return false;
      }
    },
    [queryClient],
  );
  return { settings: data, save };
}
