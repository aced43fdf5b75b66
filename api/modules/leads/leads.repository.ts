import { type Expression, type Insertable, type SqlBool, sql } from 'kysely';
import type { Db } from '../../../db/client';
import { insertReturning } from '../../../db/insert-returning';
import { equalsIgnoringCase, olderThanCursor, textContains } from '../../../db/query-helpers';
import {
  type ContactSubmissionRow,
  type ContactSubmissionsTable,
  type DemoRequestRow,
  type DemoRequestsTable,
  type GetStartedRequestRow,
  type GetStartedRequestsTable,
  type Database,
  type LeadTable,
  leadTables,
  type SupportTicketRow,
  type SupportTicketsTable,
} from '../../../db/schema';
import { chatSessionStatuses } from '../../contract/chat';
import { type AdminCounts, type LeadKind, type LeadStatus, leadStatuses } from '../../contract/leads';

export interface LeadRowByKind {
  contact: ContactSubmissionRow;
  support: SupportTicketRow;
  demo: DemoRequestRow;
  'get-started': GetStartedRequestRow;
}
export type LeadRow = LeadRowByKind[LeadKind];

export interface NewLeadRowByKind {
  contact: Insertable<ContactSubmissionsTable>;
  support: Insertable<SupportTicketsTable>;
  demo: Insertable<DemoRequestsTable>;
  'get-started': Insertable<GetStartedRequestsTable>;
}

/** The columns `?q=` searches, per kind: who sent it and what about. */
const searchColumns: Record<LeadKind, readonly string[]> = {
  contact: ['name', 'email', 'company', 'subject'],
  support: ['name', 'email', 'company', 'subject'],
  demo: ['name', 'email', 'company'],
  'get-started': ['firstName', 'lastName', 'email', 'dealershipName'],
};

export interface LeadFilter {
  /** Rows strictly older than this `(createdAt, id)` keyset cursor. */
  before?: { createdAt: string; id: number };
  /** Case-insensitive substring of any search column. */
  q?: string;
  /** Only the rows of this status. */
  status?: LeadStatus;
  /** Absent: every matching row (CSV export). */
  limit?: number;
  /** Whose rows: a staff id theirs, null the unassigned, absent every row. */
  assigneeId?: number | null;
}

/** The assignee's account beside each lead row, for its display name (null: unassigned, or the account is gone). */
export interface LeadAssigneeColumns {
  assigneeEmail: string | null;
  assigneeDisplayName: string | null;
}

// Portable SQL from db/query-helpers: keyset paging and a case-insensitive "contains".
function listConditions(kind: LeadKind, filter: LeadFilter): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.before) {
    const { createdAt, id } = filter.before;
    conditions.push(olderThanCursor('createdAt', 'id', { at: createdAt, id }));
  }
  if (filter.q) {
    const { q } = filter;
    const matches = searchColumns[kind].map((column) => textContains(column, q));
    conditions.push(sql<SqlBool>`(${sql.join(matches, sql` or `)})`);
  }
  if (filter.status) conditions.push(sql<SqlBool>`${sql.ref('status')} = ${filter.status}`);
  // Served by the `<table>_assignee_created_at_id` indexes.
  if (filter.assigneeId === null) conditions.push(sql<SqlBool>`${sql.ref('assigneeId')} is null`);
  else if (filter.assigneeId !== undefined) conditions.push(sql<SqlBool>`${sql.ref('assigneeId')} = ${filter.assigneeId}`);
  return conditions;
}

/**
 * The table of a kind, typed as one lead table: the generic queries below touch only the columns
 * all four share (id, status, note, createdAt, updatedAt), and Kysely cannot type a union of tables.
 */
function sharedColumnsOf(kind: LeadKind): 'contactSubmissions' {
  return leadTables[kind] as 'contactSubmissions';
}

/**
 * Newest first, by keyset on `(createdAt, id)`: served by the `<table>_created_at_id` indexes, and
 * with a status by the `<table>_status_created_at_id` ones.
 */
export async function listLeadRows<K extends LeadKind>(db: Db, kind: K, filter: LeadFilter): Promise<(LeadRowByKind[K] & LeadAssigneeColumns)[]> {
  const conditions = listConditions(kind, filter);
  let query = withAssignee(db, kind)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc');
  if (conditions.length > 0) query = query.where((eb) => eb.and(conditions));
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  return (await query.execute()) as unknown as (LeadRowByKind[K] & LeadAssigneeColumns)[];
}

/** Every column of a kind's rows, and its assignee's account (the table's real name: the type is contactSubmissions's). */
function withAssignee(db: Db, kind: LeadKind) {
  const assigneeId = sql<number>`${sql.ref(`${leadTables[kind]}.assigneeId`)}`;
  return db
    .selectFrom(sharedColumnsOf(kind))
    .selectAll()
    .select((eb) => [
      eb.selectFrom('admins as assignee').select('assignee.email').where('assignee.id', '=', assigneeId).as('assigneeEmail'),
      eb.selectFrom('admins as assignee').select('assignee.displayName').where('assignee.id', '=', assigneeId).as('assigneeDisplayName'),
    ]);
}

export async function findLeadRow<K extends LeadKind>(db: Db, kind: K, id: number): Promise<(LeadRowByKind[K] & LeadAssigneeColumns) | undefined> {
  const row = await withAssignee(db, kind).where('id', '=', id).executeTakeFirst();
  return row as (LeadRowByKind[K] & LeadAssigneeColumns) | undefined;
}

/** Gives a lead to a staff member (null: to nobody), in the caller's write; false when there is no such lead. */
export async function assignLeadRow(db: Db, kind: LeadKind, id: number, assigneeId: number | null, at: string): Promise<boolean> {
  const result = await db.updateTable(sharedColumnsOf(kind)).set({ assigneeId, updatedAt: at }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A lead of any kind, as one row: who, and what it is about (a subject, a company, a dealership). */
export interface LeadByEmailRow {
  kind: LeadKind;
  id: number;
  name: string;
  email: string;
  summary: string;
  status: string;
  createdAt: string;
}

/**
 * The leads of all four kinds with this email in any case (stored as typed), newest first, in one
 * query: each kind is found by its `lower(email)` index.
 */
export async function listLeadsByEmail(db: Db, email: string, limit: number): Promise<LeadByEmailRow[]> {
  const sameEmail = equalsIgnoringCase('email', email);
  const kindOf = (kind: LeadKind) => sql<LeadKind>`${sql.lit(kind)}`.as('kind');
  const shared = ['id', 'email', 'status', 'createdAt'] as const;
  const contact = db.selectFrom('contactSubmissions').select([kindOf('contact'), ...shared, 'name', 'subject as summary']).where(sameEmail);
  const support = db.selectFrom('supportTickets').select([kindOf('support'), ...shared, 'name', 'subject as summary']).where(sameEmail);
  const demo = db.selectFrom('demoRequests').select([kindOf('demo'), ...shared, 'name', 'company as summary']).where(sameEmail);
  const getStarted = db
    .selectFrom('getStartedRequests')
    .select([kindOf('get-started'), ...shared, sql<string>`${sql.ref('firstName')} || ' ' || ${sql.ref('lastName')}`.as('name'), 'dealershipName as summary'])
    .where(sameEmail);
  return db
    .selectFrom(contact.unionAll(support).unionAll(demo).unionAll(getStarted).as('leads'))
    .selectAll()
    .orderBy('createdAt', 'desc')
    .orderBy('kind')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * A new lead, in the caller's write, answered as stored: a new lead is `new`, with no note and nobody
 * working it; its id (and so its reference) is the one its insert takes from the table's own counter.
 */
export async function insertLeadRow<K extends LeadKind>(db: Db, kind: K, values: NewLeadRowByKind[K]): Promise<LeadRowByKind[K]> {
  const table: LeadTable = leadTables[kind];
  const row = { status: leadStatuses[0], note: '', assigneeId: null, ...values } as Insertable<Database[LeadTable]>;
  return (await insertReturning(db, table, row)) as LeadRowByKind[K];
}

export async function updateLeadRow<K extends LeadKind>(
  db: Db,
  kind: K,
  id: number,
  change: { status?: LeadStatus; note?: string },
): Promise<(LeadRowByKind[K] & LeadAssigneeColumns) | undefined> {
  const result = await db
    .updateTable(sharedColumnsOf(kind))
    .set({ ...change, updatedAt: new Date().toISOString() })
    .where('id', '=', id)
    .executeTakeFirst();
  // Read back with its assignee's name, which the live push carries.
  return Number(result.numUpdatedRows) > 0 ? findLeadRow(db, kind, id) : undefined;
}

/** Every count card of the dashboard in one round trip, counted by the database. */
/** Rows of the assignee a count follows (undefined: every row), on the table's own `assignee_id`. */
function ofAssignee(assigneeId: number | null | undefined, column = 'assigneeId'): Expression<SqlBool> {
  // All: a constant the planners drop, so the counts read as they did.
  if (assigneeId === undefined) return sql<SqlBool>`1 = 1`;
  return assigneeId === null ? sql<SqlBool>`${sql.ref(column)} is null` : sql<SqlBool>`${sql.ref(column)} = ${assigneeId}`;
}

export async function countAll(db: Db, assigneeId?: number | null): Promise<Omit<AdminCounts, 'byStatus'>> {
  const mine = ofAssignee(assigneeId);
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('contactSubmissions').where(mine).select((c) => c.fn.countAll<number>().as('n')).as('contact'),
      eb.selectFrom('supportTickets').where(mine).select((c) => c.fn.countAll<number>().as('n')).as('support'),
      eb.selectFrom('demoRequests').where(mine).select((c) => c.fn.countAll<number>().as('n')).as('demo'),
      eb.selectFrom('getStartedRequests').where(mine).select((c) => c.fn.countAll<number>().as('n')).as('getStarted'),
      eb.selectFrom('chatSessions').where(mine).select((c) => c.fn.countAll<number>().as('n')).as('chatSessions'),
      // A session is unread while it holds a visitor message newer than the last one staff read.
      eb
        .selectFrom('chatSessions as s')
        .where(ofAssignee(assigneeId, 's.assigneeId'))
        .where((where) =>
          where.exists(
            where
              .selectFrom('chatMessages as m')
              .select('m.id')
              .whereRef('m.sessionId', '=', 's.id')
              .where('m.isFromUser', '=', 1)
              .whereRef('m.seq', '>', 's.lastReadSeq'),
          ),
        )
        .select((c) => c.fn.countAll<number>().as('n'))
        .as('unreadChats'),
    ])
    .executeTakeFirstOrThrow();
  return {
    contact: Number(row.contact),
    support: Number(row.support),
    demo: Number(row.demo),
    getStarted: Number(row.getStarted),
    chatSessions: Number(row.chatSessions),
    unreadChats: Number(row.unreadChats),
  };
}

/** Rows per status of one table, in one grouped query; a status no row has counts 0. */
async function countByStatus<S extends string>(
  db: Db,
  table: LeadTable | 'chatSessions',
  statuses: readonly S[],
  assigneeId?: number | null,
): Promise<Record<S, number>> {
  const rows = await db
    .selectFrom(table as 'contactSubmissions')
    .where(ofAssignee(assigneeId))
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
    .groupBy('status')
    .execute();
  const counts = Object.fromEntries(statuses.map((status) => [status, 0])) as Record<S, number>;
  for (const row of rows) if (row.status in counts) counts[row.status as S] = Number(row.n);
  return counts;
}

export async function countAllByStatus(db: Db, assigneeId?: number | null): Promise<AdminCounts['byStatus']> {
  const [contact, support, demo, getStarted, chatSessions] = await Promise.all([
    countByStatus(db, leadTables.contact, leadStatuses, assigneeId),
    countByStatus(db, leadTables.support, leadStatuses, assigneeId),
    countByStatus(db, leadTables.demo, leadStatuses, assigneeId),
    countByStatus(db, leadTables['get-started'], leadStatuses, assigneeId),
    countByStatus(db, 'chatSessions', chatSessionStatuses, assigneeId),
  ]);
  return { contact, support, demo, getStarted, chatSessions };
}
