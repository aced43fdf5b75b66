import { type ExpressionBuilder, type RawBuilder, sql } from 'kysely';
import type { Db } from '../../../db/client';
import type { ChatSessionsTable, Database } from '../../../db/schema';
import type { LeadKind } from '../../contract/leads';

/** Timestamps from `start` (included) to `end` (excluded), ISO text as stored: compared as text on both dialects. */
export interface TimeRange {
  start: string;
  end: string;
}

/** The UTC day of an ISO timestamp column. Literal arguments: PostgreSQL matches the select's expression to the group's by its text. */
function dayOf(column: string): RawBuilder<string> {
  return sql<string>`substr(${sql.ref(column)}, 1, 10)`;
}

/** Conversations started each day of the range; days without any are absent. */
export function countConversationsByDay(db: Db, range: TimeRange): Promise<{ day: string; n: number | string }[]> {
  return db
    .selectFrom('chatSessions')
    .select((eb) => [dayOf('createdAt').as('day'), eb.fn.countAll<number | string>().as('n')])
    .where('createdAt', '>=', range.start)
    .where('createdAt', '<', range.end)
    .groupBy(dayOf('createdAt'))
    .execute();
}

/** Ratings of the conversations started in the range, counted per rating. */
export function countRatings(db: Db, range: TimeRange): Promise<{ rating: string | null; n: number | string }[]> {
  return db
    .selectFrom('chatSessions')
    .select((eb) => ['rating', eb.fn.countAll<number | string>().as('n')])
    .where('createdAt', '>=', range.start)
    .where('createdAt', '<', range.end)
    .where('rating', 'is not', null)
    .groupBy('rating')
    .execute();
}

export interface ConversationTimesRow {
  id: string;
  status: string;
  createdAt: string;
  resolvedAt: string | null;
  resolvedByStaffId: number | null;
  firstVisitorAt: string | null;
  firstResponseAt: string | null;
  responderId: number | null;
}

/**
 * Each conversation started in the range with the times the reports rank: the visitor's first
 * message, the first staff reply after it and its author (through the `(session_id, seq)` index),
 * and when and by whom it was resolved. The durations themselves are taken in JavaScript: date
 * arithmetic on ISO text differs between the dialects.
 */
export function listConversationTimes(db: Db, range: TimeRange): Promise<ConversationTimesRow[]> {
  type Session = ExpressionBuilder<Database & { s: ChatSessionsTable }, 's'>;
  const visitorMessages = (eb: Session) => eb.selectFrom('chatMessages as v').whereRef('v.sessionId', '=', 's.id').where('v.kind', '=', 'visitor');
  const firstReply = (eb: Session) =>
    eb
      .selectFrom('chatMessages as r')
      .whereRef('r.sessionId', '=', 's.id')
      .where('r.kind', '=', 'staff')
      .where('r.seq', '>', visitorMessages(eb).select((inner) => inner.fn.min('v.seq').as('seq')))
      .orderBy('r.seq')
      .limit(1);
  return db
    .selectFrom('chatSessions as s')
    .select((eb) => [
      's.id',
      's.status',
      's.createdAt',
      's.resolvedAt',
      's.resolvedByStaffId',
      visitorMessages(eb).orderBy('v.seq').limit(1).select('v.createdAt').as('firstVisitorAt'),
      firstReply(eb).select('r.createdAt').as('firstResponseAt'),
      firstReply(eb).select('r.authorStaffId').as('responderId'),
    ])
    .where('s.createdAt', '>=', range.start)
    .where('s.createdAt', '<', range.end)
    .execute();
}

/** Leads sent each day of the range, per kind; days without any are absent. */
export function countLeadsByDay(db: Db, range: TimeRange): Promise<{ kind: LeadKind; day: string; n: number | string }[]> {
  const perDay = (table: 'contactSubmissions', kind: LeadKind) =>
    db
      .selectFrom(table)
      .select((eb) => [sql<LeadKind>`${sql.lit(kind)}`.as('kind'), dayOf('createdAt').as('day'), eb.fn.countAll<number | string>().as('n')])
      .where('createdAt', '>=', range.start)
      .where('createdAt', '<', range.end)
      .groupBy(dayOf('createdAt'));
  // Each table is typed as the contact one: only the columns all four share are read.
  const tables = { contact: 'contactSubmissions', support: 'supportTickets', demo: 'demoRequests', 'get-started': 'getStartedRequests' } as const;
  const [first, ...rest] = (Object.keys(tables) as LeadKind[]).map((kind) => perDay(tables[kind] as 'contactSubmissions', kind));
  return rest.reduce((union, query) => union.unionAll(query), first!).execute();
}

/** The staff accounts named in a report, for their display names. */
export function findStaffNames(db: Db, ids: number[]): Promise<{ id: number; email: string; displayName: string | null }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('admins').select(['id', 'email', 'displayName']).where('id', 'in', ids).execute();
}
