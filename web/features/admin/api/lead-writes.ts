import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { type Lead, type LeadKind, type LeadPatch, type LeadStatus } from '../../../../api/contract/leads';
import { isUnauthorized, saveFailed } from '../lib/failures';
import { adminApi } from './admin-api';
import { storeLeadUpdate } from './lead-queries';
import { adminQueryKeys, countKeys, heldLead, isOlderLead, mapRows, moveCounts, type Pages, putLeadRow, recheckCounts } from './live-cache';

/** The dashboard's own lead writes, and a lead's new version (pushed or answered) put in every list of its kind. */

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
