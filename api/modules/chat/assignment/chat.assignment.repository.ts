import { sql } from 'kysely';
import type { Db } from '../../../../db/client';

/**
 * Gives a session to a staff member (null: to nobody), in the caller's write: a change of the
 * session's state (version). False when there is no such session.
 */
export async function assignSessionRow(db: Db, sessionId: string, assigneeId: number | null, at: string): Promise<boolean> {
  const result = await db
    .updateTable('chatSessions')
    .set((eb) => ({ assigneeId, assignedAt: assigneeId === null ? null : at, version: eb('version', '+', 1) }))
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The conversation that has waited longest: open, nobody's (the `(assignee_id, status, created_at, id)` index). */
export async function oldestQueuedSession(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('chatSessions')
    .select('id')
    .where('assigneeId', 'is', null)
    .where('status', '=', 'open')
    .orderBy('createdAt')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/**
 * Of these staff, the one to give the next conversation to: fewest open conversations, below
 * `capacity`; among equals the one given one least recently (never: first), then the lowest id.
 */
export async function nextAgent(db: Db, staffIds: readonly number[], capacity: number): Promise<number | undefined> {
  if (staffIds.length === 0) return undefined;
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('admins')
        .select((agent) => [
          'admins.id',
          agent
            .selectFrom('chatSessions as s')
            .select((count) => count.fn.countAll<number>().as('n'))
            .whereRef('s.assigneeId', '=', 'admins.id')
            .where('s.status', '=', 'open')
            .as('openCount'),
          agent
            .selectFrom('chatSessions as s')
            .select((last) => last.fn.coalesce(last.fn.max('s.assignedAt'), sql.lit('')).as('at'))
            .whereRef('s.assigneeId', '=', 'admins.id')
            .as('lastAssignedAt'),
        ])
        .where('admins.id', 'in', staffIds)
        .where('admins.deactivatedAt', 'is', null)
        .as('agents'),
    )
    .select('agents.id')
    .where('agents.openCount', '<', capacity)
    .orderBy('agents.openCount')
    .orderBy('agents.lastAssignedAt')
    .orderBy('agents.id')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}

/** The one statement that gives a conversation away: only if it is still open and nobody's. */
export async function assignIfUnassigned(db: Db, sessionId: string, assigneeId: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('chatSessions')
    .set((eb) => ({ assigneeId, assignedAt: at, version: eb('version', '+', 1) }))
    .where('id', '=', sessionId)
    .where('assigneeId', 'is', null)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
