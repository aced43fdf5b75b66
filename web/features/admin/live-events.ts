import type { ChatSessionSummary } from '../../../api/contract/chat';
import type { Lead } from '../../../api/contract/leads';
import type { StaffServerToClientEvents } from '../../../api/contract/socket';

type LiveEventName = 'submission:new' | 'lead:updated' | 'chat:message' | 'chat-session:updated' | 'chat:typing';

/** A staff socket push that changes the inbox's data, as it arrived. */
export type LiveEvent = {
  [E in LiveEventName]: { event: E; payload: Parameters<StaffServerToClientEvents[E]>[0] };
}[LiveEventName];

export function byLastActivity(a: ChatSessionSummary, b: ChatSessionSummary): number {
  if (a.lastActivity !== b.lastActivity) return a.lastActivity < b.lastActivity ? 1 : -1;
  return a.id < b.id ? 1 : -1;
}

/**
 * The chat sessions list while a batch of pushes is applied: lookups by id and one sort for the
 * whole batch, where each push on its own would search, filter and sort the list again.
 */
export class ChatSessionsDraft {
  private byId: Map<string, ChatSessionSummary> | undefined;
  private readonly changed = new Map<string, ChatSessionSummary>();

  constructor(private readonly sessions: ChatSessionSummary[]) {}

  get(sessionId: string): ChatSessionSummary | undefined {
    this.byId ??= new Map(this.sessions.map((session) => [session.id, session]));
    return this.changed.get(sessionId) ?? this.byId.get(sessionId);
  }

  put(session: ChatSessionSummary): void {
    this.changed.set(session.id, session);
  }

  /** The list as the batch leaves it; the same array when nothing changed, so nothing re-renders. */
  result(): ChatSessionSummary[] {
    if (this.changed.size === 0) return this.sessions;
    const untouched = this.sessions.filter((session) => !this.changed.has(session.id));
    return [...this.changed.values(), ...untouched].sort(byLastActivity);
  }
}

/** One lead list while a batch is applied: one pass over its rows however many pushes touch it. */
export class LeadRowsDraft<Row extends Lead> {
  private known: Set<number> | undefined;
  /** New rows in the order they came; the newest goes on top. */
  private readonly added: Row[] = [];
  private readonly updated = new Map<number, Row>();

  constructor(private readonly rows: Row[]) {}

  private knownIds(): Set<number> {
    this.known ??= new Set(this.rows.map((row) => row.id));
    return this.known;
  }

  has(id: number): boolean {
    return this.knownIds().has(id);
  }

  add(row: Row): void {
    this.knownIds().add(row.id);
    this.added.push(row);
  }

  /** Replaces a row the list holds; a row it does not hold stays out. */
  update(row: Row): void {
    if (this.has(row.id)) this.updated.set(row.id, row);
  }

  get changed(): boolean {
    return this.added.length > 0 || this.updated.size > 0;
  }

  result(): Row[] {
    let rows = this.added.length > 0 ? [...this.added.slice().reverse(), ...this.rows] : this.rows;
    if (this.updated.size > 0) rows = rows.map((row) => this.updated.get(row.id) ?? row);
    return rows;
  }
}
