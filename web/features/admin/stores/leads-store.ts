import { create } from 'zustand';
import type { AdminCounts, Lead, LeadByKind, LeadKind, LeadPatch, LeadStatus } from '../../../../api/contract/leads';
import { listCursor } from '../../../../api/contract/leads';
import { adminApi, adminPageSize } from '../api/admin-api';
import { dataLoadFailed, isUnauthorized, saveFailed } from '../lib/failures';
import { isOlderRow, LeadRowsDraft, type LeadUpdate } from '../live-events';
import { type CountsChange, useCounts } from './counts-store';

export interface LeadList<K extends LeadKind> {
  rows: LeadByKind[K][];
  /** The search the rows answer (server-side `?q=`). */
  query: string;
  /** The status filter the rows answer (server-side `?status=`); null: every status. */
  status: LeadStatus | null;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
}

type LeadLists = { [K in LeadKind]: LeadList<K> };

/** What a batch of updates leaves for others to do. */
export interface LeadsBatchResult {
  /** The cards' provisional moves. */
  counts: CountsChange;
  /** Lists under a search or status filter that may have gained rows: only the server says whether they match. */
  reread: LeadKind[];
  /** A status changed that the cards cannot move by themselves (its row was not held): ask the server. */
  recount: boolean;
}

interface LeadsState {
  leads: LeadLists;
  /**
   * The first page of a list for a search and status filter (by default the one the list shows).
   * An answer to an older request than the latest is dropped.
   */
  load: (kind: LeadKind, query: string, status?: LeadStatus | null) => Promise<void>;
  search: (kind: LeadKind, query: string) => Promise<void>;
  /** Shows only the rows of one status (null: all), read from the server. */
  filterByStatus: (kind: LeadKind, status: LeadStatus | null) => Promise<void>;
  loadMore: (kind: LeadKind) => Promise<void>;
  /** Shows the change at once; true once the server has stored it, false when it was undone. */
  updateLead: <K extends LeadKind>(kind: K, id: number, patch: LeadPatch) => Promise<boolean>;
  /** After a socket reconnect: the first page read again joins the rows held; deeper pages stay. Throws. */
  refresh: (kind: LeadKind) => Promise<void>;
  /** Pushes and fresh pages, in the order they came, in one update. */
  applyLive: (updates: LeadUpdate[]) => LeadsBatchResult;
  reset: () => void;
}

export const countKeys: Record<LeadKind, Exclude<keyof AdminCounts, 'byStatus' | 'chatSessions' | 'unreadChats'>> = {
  contact: 'contact',
  support: 'support',
  demo: 'demo',
  'get-started': 'getStarted',
};

function emptyList<K extends LeadKind>(): LeadList<K> {
  return { rows: [], query: '', status: null, loading: false, loadingMore: false, hasMore: false };
}

function emptyLeads(): LeadLists {
  return { contact: emptyList(), support: emptyList(), demo: emptyList(), 'get-started': emptyList() };
}

function setRows<K extends LeadKind>(leads: LeadLists, kind: K, rows: Lead[]): void {
  leads[kind] = { ...leads[kind], rows: rows as LeadByKind[K][] };
}

export const useLeads = create<LeadsState>((set, get) => {
  // Requests answered after a newer one for the same list are dropped (typing in the search box).
  const latestRequest: Record<LeadKind, number> = { contact: 0, support: 0, demo: 0, 'get-started': 0 };

  function setList<K extends LeadKind>(kind: K, update: (list: LeadList<K>) => LeadList<K>): void {
    set((state) => ({ leads: { ...state.leads, [kind]: update(state.leads[kind]) } }));
  }

  return {
    leads: emptyLeads(),

    async load(kind, query, status = get().leads[kind].status) {
      const requestId = ++latestRequest[kind];
      setList(kind, (list) => ({ ...list, query, status, loading: true }));
      try {
        const rows = await adminApi.leads(kind, { q: query, status });
        if (requestId !== latestRequest[kind]) return;
        setList(kind, (list) => {
          // A push that came while this page was read holds a newer version of its row: keep it.
          const held = new Map(list.rows.map((row) => [row.id, row]));
          const newest = rows.map((row) => {
            const mine = held.get(row.id);
            return mine && isOlderRow(row, mine) ? mine : row;
          });
          return { ...list, rows: newest, loading: false, loadingMore: false, hasMore: rows.length === adminPageSize };
        });
      } catch (error) {
        if (requestId === latestRequest[kind]) setList(kind, (list) => ({ ...list, loading: false }));
        throw error;
      }
    },

    async search(kind, query) {
      try {
        await get().load(kind, query);
      } catch (error) {
        if (!isUnauthorized(error)) dataLoadFailed();
      }
    },

    async filterByStatus(kind, status) {
      try {
        await get().load(kind, get().leads[kind].query, status);
      } catch (error) {
        if (!isUnauthorized(error)) dataLoadFailed();
      }
    },

    async loadMore(kind) {
      const list = get().leads[kind];
      const last = list.rows[list.rows.length - 1];
      if (!last || !list.hasMore || list.loading || list.loadingMore) return;
      const requestId = latestRequest[kind];
      setList(kind, (current) => ({ ...current, loadingMore: true }));
      try {
        const rows = await adminApi.leads(kind, { q: list.query, status: list.status, before: listCursor(last) });
        if (requestId !== latestRequest[kind]) return;
        setList(kind, (current) => {
          const known = new Set(current.rows.map((row) => row.id));
          return {
            ...current,
            rows: [...current.rows, ...rows.filter((row) => !known.has(row.id))],
            loadingMore: false,
            hasMore: rows.length === adminPageSize,
          };
        });
      } catch (error) {
        setList(kind, (current) => ({ ...current, loadingMore: false }));
        if (!isUnauthorized(error)) dataLoadFailed();
      }
    },

    async updateLead(kind, id, patch) {
      const previous = get().leads[kind].rows.find((row) => row.id === id);
      if (!previous) return false;
      setList(kind, (list) => ({ ...list, rows: list.rows.map((row) => (row.id === id ? { ...row, ...patch } : row)) }));
      // The row held shows the new status at once, so the pushed row finds nothing to move: the filters' figures move here.
      const statusMove = (from: LeadStatus, to: LeadStatus) =>
        useCounts.getState().adjust({ [`${countKeys[kind]}.${from}`]: -1, [`${countKeys[kind]}.${to}`]: 1 });
      const movedStatus = patch.status !== undefined && patch.status !== previous.status ? patch.status : undefined;
      if (movedStatus) statusMove(previous.status, movedStatus);
      try {
        const item = await adminApi.patchLead(kind, id, patch);
        get().applyLive([{ event: 'lead:updated', payload: { kind, item } }]);
        return true;
      } catch (error) {
        setList(kind, (list) => ({ ...list, rows: list.rows.map((row) => (row.id === id ? previous : row)) }));
        if (movedStatus) statusMove(movedStatus, previous.status);
        if (!isUnauthorized(error)) saveFailed();
        return false;
      }
    },

    async refresh(kind) {
      const { query, status } = get().leads[kind];
      const rows = await adminApi.leads(kind, { q: query, status });
      get().applyLive([{ event: 'leads:fresh', payload: { kind, query, status, rows } }]);
    },

    applyLive(updates) {
      const { leads } = get();
      const drafts = new Map<LeadKind, LeadRowsDraft<Lead>>();
      const draftOf = (kind: LeadKind): LeadRowsDraft<Lead> => {
        let draft = drafts.get(kind);
        if (!draft) drafts.set(kind, (draft = new LeadRowsDraft<Lead>(leads[kind].rows)));
        return draft;
      };
      const counts: CountsChange = {};
      const move = (key: keyof CountsChange, delta: number) => (counts[key] = (counts[key] ?? 0) + delta);
      const reread = new Set<LeadKind>();
      let recount = false;

      for (const update of updates) {
        switch (update.event) {
          case 'submission:new': {
            const { kind, item } = update.payload;
            const draft = draftOf(kind);
            // The same push twice (a reconnect) counts once.
            if (draft.has(item.id)) break;
            const { query, status } = leads[kind];
            // A new row is the newest: without a search it belongs on top; under one, the server
            // says. Under a status filter it shows only when it has that status.
            if (status && item.status !== status) {
              // Not shown under this filter; counted all the same.
            } else if (query) reread.add(kind);
            else draft.add(item);
            move(countKeys[kind], 1);
            move(`${countKeys[kind]}.${item.status}`, 1);
            break;
          }
          case 'lead:updated': {
            const { kind, item } = update.payload;
            const { status } = leads[kind];
            const draft = draftOf(kind);
            const held = draft.held(item.id);
            if (held && held.status !== item.status) {
              move(`${countKeys[kind]}.${held.status}`, -1);
              move(`${countKeys[kind]}.${item.status}`, 1);
            } else if (!held) {
              recount = true;
            }
            if (status && item.status !== status) draft.remove(item.id);
            else if (held) draft.update(item);
            // A row not held that now has the filter's status may belong on the first page.
            else if (status) reread.add(kind);
            break;
          }
          case 'leads:fresh': {
            const { kind, query, status, rows } = update.payload;
            // A page read for a search or filter the list no longer shows is left out.
            if (query === leads[kind].query && status === leads[kind].status) draftOf(kind).mergeFirstPage(rows);
            break;
          }
        }
      }

      const changed = [...drafts].filter(([, draft]) => draft.changed);
      if (changed.length > 0) {
        const next = { ...leads };
        for (const [kind, draft] of changed) setRows(next, kind, draft.result());
        set({ leads: next });
      }
      return { counts, reread: [...reread], recount };
    },

    reset() {
      for (const kind of Object.keys(latestRequest) as LeadKind[]) latestRequest[kind]++;
      set({ leads: emptyLeads() });
    },
  };
});
