import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { ChatMessage, ChatSessionStatus, ChatSessionSummary } from '../../../../api/contract/chat';
import type { AdminCounts, Lead, LeadKind, LeadStatus } from '../../../../api/contract/leads';
import type { ListFilter } from '../stores/list-filters-store';
import { fitsAssignee, useAssigneeFilter } from '../stores/assignee-filter-store';
import { adminPageSize } from './admin-api';

/**
 * The dashboard's query keys and the patches pushes and answers make to what they hold
 * (DESIGN.md section 15): a list is an infinite query of keyset pages, keyed by its filter.
 */
export const adminQueryKeys = {
  allLeads: ['leads'] as const,
  leads: (kind: LeadKind) => ['leads', kind] as const,
  leadList: (kind: LeadKind, filter: ListFilter<LeadStatus>) => ['leads', kind, { q: filter.q, status: filter.status, assignee: filter.assignee ?? 'all' }] as const,
  chatSessions: ['chat-sessions'] as const,
  chatSessionList: (filter: ListFilter<ChatSessionStatus>) => ['chat-sessions', { q: filter.q, status: filter.status, assignee: filter.assignee ?? 'all' }] as const,
  counts: ['admin-counts'] as const,
  chatMessages: (sessionId: string) => ['chat-messages', sessionId] as const,
};

export type Pages<Row> = InfiniteData<Row[], string | undefined>;

/** Every cached list under `prefix`, with the filter its key names. */
export function cachedLists<Row, Status extends string>(
  queryClient: QueryClient,
  prefix: QueryKey,
): { key: QueryKey; filter: ListFilter<Status>; data: Pages<Row> }[] {
  return queryClient
    .getQueriesData<Pages<Row>>({ queryKey: prefix })
    .filter((entry): entry is [QueryKey, Pages<Row>] => entry[1] !== undefined)
    .map(([key, data]) => ({ key, data, filter: key[key.length - 1] as ListFilter<Status> }));
}

export function findRow<Row extends { id: unknown }>(data: Pages<Row>, id: Row['id']): Row | undefined {
  for (const page of data.pages) {
    const row = page.find((known) => known.id === id);
    if (row) return row;
  }
  return undefined;
}

/** The pages with each row passed through `change` (undefined: the row leaves). */
export function mapRows<Row>(data: Pages<Row>, change: (row: Row) => Row | undefined): Pages<Row> {
  return {
    ...data,
    pages: data.pages.map((page) => page.flatMap((row) => {
      const next = change(row);
      return next === undefined ? [] : [next];
    })),
  };
}

/** A row goes on top of the first page. */
export function prependRow<Row>(data: Pages<Row>, row: Row): Pages<Row> {
  const [first = [], ...rest] = data.pages;
  return { ...data, pages: [[row, ...first], ...rest] };
}

/** The server's order of the chat sessions list: newest activity first, then the id. */
export function byLastActivity(a: ChatSessionSummary, b: ChatSessionSummary): number {
  if (a.lastActivity !== b.lastActivity) return a.lastActivity < b.lastActivity ? 1 : -1;
  return a.id < b.id ? 1 : -1;
}

/** One conversation's messages in the session's order (seq: ids can commit out of order across server processes). */
export function withMessage<M extends ChatMessage>(messages: M[], message: M): M[] {
  if (messages.some((known) => known.id === message.id)) return messages;
  return [...messages, message].sort((a, b) => a.seq - b.seq);
}

// ---- The count cards: moved at once by what a push says, then the server's figures. ----

/**
 * A push may move a card at once, provisionally; at most this long after, the server's figures
 * replace it. One pending recheck covers every change before it fires, so a steady stream of
 * changes costs one request per interval.
 */
export const countsRecheckMs = 1500;

type TotalKey = Exclude<keyof AdminCounts, 'byStatus'>;
type ByStatus = AdminCounts['byStatus'];
/** One figure of the filters, as `<list>.<status>`: `contact.new`, `chatSessions.resolved`. */
export type StatusCountKey = { [L in keyof ByStatus]: `${L}.${keyof ByStatus[L] & string}` }[keyof ByStatus];
export type CountKey = TotalKey | StatusCountKey;
export type CountsChange = Partial<Record<CountKey, number>>;

export const countKeys: Record<LeadKind, Exclude<keyof AdminCounts, 'byStatus' | 'chatSessions' | 'unreadChats'>> = {
  contact: 'contact',
  support: 'support',
  demo: 'demo',
  'get-started': 'getStarted',
};

function moved(counts: AdminCounts, key: CountKey, delta: number): AdminCounts {
  const [list, status] = key.split('.') as [keyof ByStatus, string | undefined];
  if (status === undefined) {
    const total = key as TotalKey;
    return { ...counts, [total]: Math.max(0, counts[total] + delta) };
  }
  const figures = counts.byStatus[list] as Record<string, number>;
  const next = { ...figures, [status]: Math.max(0, (figures[status] ?? 0) + delta) };
  return { ...counts, byStatus: { ...counts.byStatus, [list]: next } };
}

const rechecks = new WeakMap<QueryClient, ReturnType<typeof setTimeout>>();

/** The server's figures within countsRecheckMs: something changed that a push alone cannot count. */
export function recheckCounts(queryClient: QueryClient): void {
  if (rechecks.has(queryClient)) return;
  rechecks.set(
    queryClient,
    setTimeout(() => {
      rechecks.delete(queryClient);
      void queryClient.invalidateQueries({ queryKey: adminQueryKeys.counts }, { cancelRefetch: false });
    }, countsRecheckMs),
  );
}

export function stopCountsRecheck(queryClient: QueryClient): void {
  clearTimeout(rechecks.get(queryClient));
  rechecks.delete(queryClient);
}

/** Moves the cards provisionally, in one update, and asks for the server's figures soon. */
export function moveCounts(queryClient: QueryClient, change: CountsChange): void {
  const moves = (Object.entries(change) as [CountKey, number][]).filter(([, delta]) => delta !== 0);
  if (moves.length === 0) return;
  recheckCounts(queryClient);
  queryClient.setQueryData<AdminCounts>(adminQueryKeys.counts, (counts) => counts && moves.reduce((next, [key, delta]) => moved(next, key, delta), counts));
}

// ---- Chat rows from the server (a push, an answer to the dashboard's own call). ----

/**
 * Sessions the unread card already counts while their row does not show it yet (a push made them
 * unread; the server's row has not come). Their next visitor message adds nothing more.
 */
const countedAheadOf = new WeakMap<QueryClient, Set<string>>();

export function countedAhead(queryClient: QueryClient): Set<string> {
  let set = countedAheadOf.get(queryClient);
  if (!set) countedAheadOf.set(queryClient, (set = new Set()));
  return set;
}

/** The row of a session as the chat list shown holds it, from any cached list. */
export function heldChatRow(queryClient: QueryClient, sessionId: string): ChatSessionSummary | undefined {
  for (const { data } of cachedLists<ChatSessionSummary, ChatSessionStatus>(queryClient, adminQueryKeys.chatSessions)) {
    const row = findRow(data, sessionId);
    if (row) return row;
  }
  return undefined;
}

export function shownUnread(queryClient: QueryClient, sessionId: string): boolean {
  return (heldChatRow(queryClient, sessionId)?.unreadCount ?? 0) > 0 || countedAhead(queryClient).has(sessionId);
}

export interface ChatRowResult {
  counts: CountsChange;
  /** The lists should be read again: the row held shows a newer message than the pushed one. */
  reread: boolean;
  /** A status change the cards cannot move by themselves (the row was not held). */
  recount: boolean;
}

/**
 * A session's row from the server takes the place of the one held in every cached list; it leaves
 * lists whose status filter it no longer matches and joins an unsearched list where it belongs.
 */
export function putChatRow(queryClient: QueryClient, row: ChatSessionSummary, origin: 'push' | 'answer'): ChatRowResult {
  const result: ChatRowResult = { counts: {}, reread: false, recount: false };
  const held = heldChatRow(queryClient, row.id);
  if (held && row.lastMessageSeq < held.lastMessageSeq) {
    // The row held shows a newer message: its own re-read brings the figures.
    return { ...result, reread: true };
  }
  const unreadMove = Number(row.unreadCount > 0) - Number(shownUnread(queryClient, row.id));
  countedAhead(queryClient).delete(row.id);
  result.counts.unreadChats = unreadMove;
  if (held && held.status !== row.status) {
    result.counts[`chatSessions.${held.status}`] = -1;
    result.counts[`chatSessions.${row.status}`] = 1;
  } else if (!held) {
    result.recount = origin === 'push';
  }
  // Given to someone else: under Mine or Unassigned the figures are the server's to say.
  if (held && (held.assigneeId ?? null) !== (row.assigneeId ?? null)) recheckCounts(queryClient);
  const { me } = useAssigneeFilter.getState();
  for (const list of cachedLists<ChatSessionSummary, ChatSessionStatus>(queryClient, adminQueryKeys.chatSessions)) {
    const fits = (list.filter.status === null || list.filter.status === row.status) && fitsAssignee(row.assigneeId, list.filter.assignee, me);
    const inList = findRow(list.data, row.id);
    if (inList) {
      queryClient.setQueryData<Pages<ChatSessionSummary>>(list.key, (data) => data && mapRows(data, (known) => (known.id !== row.id ? known : fits ? row : undefined)));
      continue;
    }
    // A row not held shows only where it belongs: no search, its status, and within the rows held.
    const rows = list.data.pages.flat();
    const last = rows[rows.length - 1];
    const more = list.data.pages[list.data.pages.length - 1]?.length === adminPageSize;
    if (list.filter.q || !fits || (more && last && row.lastActivity < last.lastActivity)) continue;
    queryClient.setQueryData<Pages<ChatSessionSummary>>(list.key, (data) => {
      if (!data) return data;
      const sorted = [...data.pages.flat(), row].sort(byLastActivity);
      // The row takes its place in the order; the pages keep their sizes but for the first.
      const sizes = data.pages.map((page) => page.length);
      sizes[0] = (sizes[0] ?? 0) + 1;
      let at = 0;
      return { ...data, pages: sizes.map((size) => sorted.slice(at, (at += size))) };
    });
  }
  return result;
}

/** True when `row` is an older version of `held`: it was read before `held`'s change was saved. */
export function isOlderLead(row: Lead, held: Lead): boolean {
  return row.updatedAt < held.updatedAt;
}

/**
 * A lead's new version in every cached list of its kind: replaced where held, gone where its status
 * no longer fits. A list holding a newer version keeps it.
 */
export function putLeadRow(queryClient: QueryClient, kind: LeadKind, item: Lead): void {
  const { me } = useAssigneeFilter.getState();
  for (const list of cachedLists<Lead, LeadStatus>(queryClient, adminQueryKeys.leads(kind))) {
    const held = findRow(list.data, item.id);
    const fits = (list.filter.status === null || list.filter.status === item.status) && fitsAssignee(item.assigneeId, list.filter.assignee, me);
    // Given to whom this list shows (Mine, say): its place in the order is the server's to say.
    if (!held && fits && (list.filter.assignee ?? 'all') !== 'all') rereadList(queryClient, list.key);
    if (!held || isOlderLead(item, held)) continue;
    queryClient.setQueryData<Pages<Lead>>(list.key, (data) => data && mapRows(data, (row) => (row.id !== item.id ? row : fits ? item : undefined)));
  }
}

/** The held version of a lead in any cached list of its kind. */
export function heldLead(queryClient: QueryClient, kind: LeadKind, id: number): Lead | undefined {
  for (const { data } of cachedLists<Lead, LeadStatus>(queryClient, adminQueryKeys.leads(kind))) {
    const row = findRow(data, id);
    if (row) return row;
  }
  return undefined;
}

/**
 * Reads a list again. While a read of it is under way, that read is not joined by a parallel one
 * (`cancelRefetch: false`); one more follows it, since it may have started before what asked.
 */
const rereadsAfter = new WeakMap<QueryClient, Set<string>>();

export function rereadList(queryClient: QueryClient, queryKey: QueryKey): void {
  let waiting = rereadsAfter.get(queryClient);
  if (!waiting) rereadsAfter.set(queryClient, (waiting = new Set()));
  const hash = JSON.stringify(queryKey);
  if (waiting.has(hash)) return;
  const underWay = queryClient.isFetching({ queryKey, exact: true }) > 0;
  const reread = () => queryClient.invalidateQueries({ queryKey, exact: true }, { cancelRefetch: false });
  if (!underWay) {
    void reread();
    return;
  }
  waiting.add(hash);
  void queryClient
    .getQueryCache()
    .find({ queryKey, exact: true })
    ?.promise?.catch(() => undefined)
    .finally(() => {
      waiting.delete(hash);
      void reread();
    });
}

// ---- A list read answers behind the pushes that came before it. ----

const pushQueues = new WeakMap<QueryClient, () => Promise<void>>();

/** The live inbox's queue of pushes (inbox-controller.ts): `drained` resolves once what waits in it is applied. */
export function setPushQueue(queryClient: QueryClient, drained: (() => Promise<void>) | null): void {
  if (drained) pushQueues.set(queryClient, drained);
  else pushQueues.delete(queryClient);
}

/**
 * Waits for the pushes still queued when a read answers: they came before the answer, so they are
 * applied first (and counted once), and the answer lands in the same render as they do.
 */
export function pushesApplied(queryClient: QueryClient): Promise<void> {
  return pushQueues.get(queryClient)?.() ?? Promise.resolve();
}

/** A page of leads the server answered, but for rows a list holds newer (a push that came after the read). */
export function newestLeads<Row extends Lead>(queryClient: QueryClient, kind: LeadKind, rows: Row[]): Row[] {
  return rows.map((row) => {
    const held = heldLead(queryClient, kind, row.id);
    return held && isOlderLead(row, held) ? (held as Row) : row;
  });
}

/** A page of sessions the server answered, but for rows a list holds with a newer message (their re-read follows). */
export function newestChatRows(queryClient: QueryClient, rows: ChatSessionSummary[]): ChatSessionSummary[] {
  return rows.map((row) => {
    const held = heldChatRow(queryClient, row.id);
    return held && row.lastMessageSeq < held.lastMessageSeq ? held : row;
  });
}

/** The server's order of a lead list: newest first, then the id. */
export function newestLeadFirst(a: Lead, b: Lead): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return b.id - a.id;
}

/**
 * A list's first page as a read answered it, merged with what the list holds now. Rows a push put
 * in or changed while the read was under way stay (the read was served before them); so do the
 * rows held below a full page (they would otherwise go until scrolled to again). Every other row
 * is as the page says: held rows it leaves out are gone.
 */
export function mergeFirstPage<Row extends { id: unknown }>(
  fresh: Row[],
  before: Pages<Row> | undefined,
  now: Pages<Row> | undefined,
  order: (a: Row, b: Row) => number,
): Row[] {
  if (!now) return fresh;
  const heldBefore = new Map(before?.pages.flat().map((row) => [row.id, row]));
  const inPage = new Set(fresh.map((row) => row.id));
  const last = fresh[fresh.length - 1];
  const full = fresh.length >= adminPageSize;
  const kept = now.pages
    .flat()
    .filter((row) => !inPage.has(row.id) && (heldBefore.get(row.id) !== row || (full && last !== undefined && order(row, last) > 0)));
  return kept.length === 0 ? fresh : [...fresh, ...kept].sort(order);
}
