import { create } from 'zustand';
import type { AssigneeFilter } from '../../../../api/contract/assignment';

interface AssigneeFilterState {
  /** Mine / Unassigned / All, one choice for every list, the count cards and badges alike. */
  assignee: AssigneeFilter;
  /** The signed-in staff member's id (GET /api/assignees): whose rows "Mine" holds; null until known. */
  me: number | null;
  setAssignee: (assignee: AssigneeFilter) => void;
  setMe: (me: number) => void;
  reset: () => void;
}

/** Whose work the dashboard shows: client state; the rows it selects are the server's (`?assignee=`). */
export const useAssigneeFilter = create<AssigneeFilterState>((set) => ({
  assignee: 'all',
  me: null,
  setAssignee: (assignee) => set({ assignee }),
  setMe: (me) => set({ me }),
  reset: () => set({ assignee: 'all', me: null }),
}));

/** Whether a row with this assignee belongs in a list of that filter; "Mine" holds nothing until the signed-in id is known. */
export function fitsAssignee(assigneeId: number | null | undefined, filter: AssigneeFilter | undefined, me: number | null): boolean {
  if (filter === undefined || filter === 'all') return true;
  if (filter === 'unassigned') return assigneeId === null || assigneeId === undefined;
  return me !== null && assigneeId === me;
}
