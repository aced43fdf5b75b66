import { create } from 'zustand';
import type { ChatSessionStatus } from '../../../../api/contract/chat';
import type { AssigneeFilter } from '../../../../api/contract/assignment';
import type { LeadKind, LeadStatus } from '../../../../api/contract/leads';

/** What one list shows: a search (server-side `?q=`) and a status filter (`?status=`; null: all). */
export interface ListFilter<Status extends string> {
  q: string;
  status: Status | null;
  /** Whose rows (`?assignee=`): one choice for every list (stores/assignee-filter-store.ts); absent: all. */
  assignee?: AssigneeFilter;
}

export const noFilter = { q: '', status: null } as const;

interface ListFiltersState {
  leads: Record<LeadKind, ListFilter<LeadStatus>>;
  chats: ListFilter<ChatSessionStatus>;
  setLeadFilter: (kind: LeadKind, change: Partial<ListFilter<LeadStatus>>) => void;
  setChatFilter: (change: Partial<ListFilter<ChatSessionStatus>>) => void;
  reset: () => void;
}

function initial(): Pick<ListFiltersState, 'leads' | 'chats'> {
  return { leads: { contact: noFilter, support: noFilter, demo: noFilter, 'get-started': noFilter }, chats: noFilter };
}

/** The search and status filter staff chose per list: client state; the rows they select are the server's (api/queries.ts). */
export const useListFilters = create<ListFiltersState>((set) => ({
  ...initial(),
  setLeadFilter: (kind, change) => set((state) => ({ leads: { ...state.leads, [kind]: { ...state.leads[kind], ...change } } })),
  setChatFilter: (change) => set((state) => ({ chats: { ...state.chats, ...change } })),
  reset: () => set(initial()),
}));
