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
export async function listLeadRows<K extends LeadKind>(db: Db, kind: K, filter: LeadFilter): Promise<LeadRowByKind[K][]> {
  const conditions = listConditions(kind, filter);
  let query = db
    .selectFrom(sharedColumnsOf(kind))
    .selectAll()
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc');
  if (conditions.length > 0) query = query.where((eb) => eb.and(conditions));
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  return (await query.execute()) as unknown as LeadRowByKind[K][];
}

export async function findLeadRow<K extends LeadKind>(db: Db, kind: K, id: number): Promise<LeadRowByKind[K] | undefined> {
  const row = await db.selectFrom(sharedColumnsOf(kind)).selectAll().where('id', '=', id).executeTakeFirst();
  return row as LeadRowByKind[K] | undefined;
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

/** The leads service runs it in the app's write path (db/writes.ts). */
export async function insertLeadRow<K extends LeadKind>(db: Db, kind: K, values: NewLeadRowByKind[K]): Promise<LeadRowByKind[K]> {
  const table: LeadTable = leadTables[kind];
  return (await insertReturning(db, table, values as Insertable<Database[LeadTable]>)) as LeadRowByKind[K];
}

export async function updateLeadRow<K extends LeadKind>(
  db: Db,
  kind: K,
  id: number,
  change: { status?: LeadStatus; note?: string },
): Promise<LeadRowByKind[K] | undefined> {
  const row = await db
    .updateTable(sharedColumnsOf(kind))
    .set({ ...change, updatedAt: new Date().toISOString() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row as LeadRowByKind[K] | undefined;
}

/** Every count card of the dashboard in one round trip, counted by the database. */
export async function countAll(db: Db): Promise<Omit<AdminCounts, 'byStatus'>> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('contactSubmissions').select((c) => c.fn.countAll<number>().as('n')).as('contact'),
      eb.selectFrom('supportTickets').select((c) => c.fn.countAll<number>().as('n')).as('support'),
      eb.selectFrom('demoRequests').select((c) => c.fn.countAll<number>().as('n')).as('demo'),
      eb.selectFrom('getStartedRequests').select((c) => c.fn.countAll<number>().as('n')).as('getStarted'),
      eb.selectFrom('chatSessions').select((c) => c.fn.countAll<number>().as('n')).as('chatSessions'),
      // A session is unread while it holds a visitor message newer than the last one staff read.
      eb
        .selectFrom('chatSessions as s')
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
async function countByStatus<S extends string>(db: Db, table: LeadTable | 'chatSessions', statuses: readonly S[]): Promise<Record<S, number>> {
  const rows = await db
    .selectFrom(table as 'contactSubmissions')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
    .groupBy('status')
    .execute();
  const counts = Object.fromEntries(statuses.map((status) => [status, 0])) as Record<S, number>;
  for (const row of rows) if (row.status in counts) counts[row.status as S] = Number(row.n);
  return counts;
}

export async function countAllByStatus(db: Db): Promise<AdminCounts['byStatus']> {
  const [contact, support, demo, getStarted, chatSessions] = await Promise.all([
    countByStatus(db, leadTables.contact, leadStatuses),
    countByStatus(db, leadTables.support, leadStatuses),
    countByStatus(db, leadTables.demo, leadStatuses),
    countByStatus(db, leadTables['get-started'], leadStatuses),
    countByStatus(db, 'chatSessions', chatSessionStatuses),
  ]);
  return { contact, support, demo, getStarted, chatSessions };
}
