import type { ChatSessionStatus, ChatSessionSummary } from '../../../api/contract/chat';
import type { Lead, LeadKind, LeadStatus } from '../../../api/contract/leads';
import type { StaffServerToClientEvents } from '../../../api/contract/socket';

type LiveEventName = 'submission:new' | 'lead:updated' | 'chat:message' | 'chat-session:updated' | 'chat:typing';

/** A staff socket push that changes the inbox's data, as it arrived. */
export type LiveEvent = {
  [E in LiveEventName]: { event: E; payload: Parameters<StaffServerToClientEvents[E]>[0] };
}[LiveEventName];

/**
 * The server's answer to a re-read that pushes asked for (what a push alone cannot tell: a row's
 * summary, whether it matches the search). It is applied in the same batches as the pushes, and
 * names the search and status filter it was read for (null: all statuses).
 */
export type FreshPage =
  | { event: 'chat-sessions:fresh'; payload: { query: string; status: ChatSessionStatus | null; rows: ChatSessionSummary[] } }
  | { event: 'leads:fresh'; payload: { kind: LeadKind; query: string; status: LeadStatus | null; rows: Lead[] } };

/** What changes the inbox live: a push, or a fresh page a push asked for. */
export type InboxUpdate = LiveEvent | FreshPage;

export type LeadUpdate = Extract<InboxUpdate, { event: 'submission:new' | 'lead:updated' | 'leads:fresh' }>;
export type ChatUpdate = Exclude<InboxUpdate, LeadUpdate>;

export function isLeadUpdate(update: InboxUpdate): update is LeadUpdate {
  return update.event === 'submission:new' || update.event === 'lead:updated' || update.event === 'leads:fresh';
}

/** The server's order of the chat sessions list: newest activity first, then the id. */
export function byLastActivity(a: ChatSessionSummary, b: ChatSessionSummary): number {
  if (a.lastActivity !== b.lastActivity) return a.lastActivity < b.lastActivity ? 1 : -1;
  return a.id < b.id ? 1 : -1;
}

/**
 * The chat sessions list while a batch of updates is applied: lookups by id and one sort for the
 * whole batch, where each update on its own would search, filter and sort the list again.
 */
export class ChatSessionsDraft {
  private byId: Map<string, ChatSessionSummary> | undefined;
  private readonly changed = new Map<string, ChatSessionSummary>();
  private readonly removed = new Set<string>();

  constructor(private readonly sessions: ChatSessionSummary[]) {}

  get(sessionId: string): ChatSessionSummary | undefined {
    this.byId ??= new Map(this.sessions.map((session) => [session.id, session]));
    if (this.removed.has(sessionId)) return undefined;
    return this.changed.get(sessionId) ?? this.byId.get(sessionId);
  }

  put(session: ChatSessionSummary): void {
    this.removed.delete(session.id);
    this.changed.set(session.id, session);
  }

  /** Takes a row out of the list (it left the status filter). */
  remove(sessionId: string): void {
    this.changed.delete(sessionId);
    if (this.get(sessionId)) this.removed.add(sessionId);
  }

  /** The list as the batch leaves it; the same array when nothing changed, so nothing re-renders. */
  result(): ChatSessionSummary[] {
    if (this.changed.size === 0 && this.removed.size === 0) return this.sessions;
    const untouched = this.sessions.filter((session) => !this.changed.has(session.id) && !this.removed.has(session.id));
    return [...this.changed.values(), ...untouched].sort(byLastActivity);
  }
}

/** True when `row` is an older version of `held` (it was read before `held`'s change was saved). */
export function isOlderRow(row: Lead, held: Lead): boolean {
  return row.updatedAt < held.updatedAt;
}

/** One lead list while a batch is applied: one pass over its rows however many updates touch it. */
export class LeadRowsDraft<Row extends Lead> {
  private known: Set<number> | undefined;
  /** New rows in the order they came; the newest goes on top. */
  private readonly added: Row[] = [];
  private readonly updated = new Map<number, Row>();
  private readonly removed = new Set<number>();
  private byId: Map<number, Row> | undefined;

  constructor(private readonly rows: Row[]) {}

  private knownIds(): Set<number> {
    this.known ??= new Set(this.rows.map((row) => row.id));
    return this.known;
  }

  has(id: number): boolean {
    return this.knownIds().has(id);
  }

  /** The row the list holds now (this batch's version), if any. */
  held(id: number): Row | undefined {
    if (!this.has(id)) return undefined;
    this.byId ??= new Map(this.rows.map((row) => [row.id, row]));
    return this.updated.get(id) ?? this.added.find((row) => row.id === id) ?? this.byId.get(id);
  }

  add(row: Row): void {
    this.knownIds().add(row.id);
    this.added.push(row);
  }

  /** Replaces a row the list holds; a row it does not hold stays out. */
  update(row: Row): void {
    // A page read before a push arrived may answer after it: the push's newer row stays.
    const held = this.held(row.id);
    if (held && !isOlderRow(row, held)) this.updated.set(row.id, row);
  }

  /** Takes a row out of the list (it left the status filter). */
  remove(id: number): void {
    if (!this.has(id)) return;
    this.knownIds().delete(id);
    this.updated.delete(id);
    this.removed.add(id);
  }

  /**
   * A fresh first page from the server: the rows held take the server's version, rows not held and
   * newer than the top row go on top, and the deeper pages a staff member scrolled through stay.
   */
  mergeFirstPage(fresh: Row[]): void {
    const top = this.rows[0];
    for (const row of [...fresh].reverse()) {
      if (this.has(row.id)) this.update(row);
      else if (!top || row.createdAt >= top.createdAt) this.add(row);
    }
  }

  get changed(): boolean {
    return this.added.length > 0 || this.updated.size > 0 || this.removed.size > 0;
  }

  result(): Row[] {
    let rows = this.added.length > 0 ? [...this.added.slice().reverse(), ...this.rows] : this.rows;
    if (this.removed.size > 0) rows = rows.filter((row) => !this.removed.has(row.id));
    if (this.updated.size > 0) rows = rows.map((row) => this.updated.get(row.id) ?? row);
    return rows;
  }
}
