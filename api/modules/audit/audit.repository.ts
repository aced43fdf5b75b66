import type { Expression, SqlBool } from 'kysely';
import type { Db } from '../../../db/client';
import { textContains } from '../../../db/query-helpers';

/** An acting account's email and name, whatever its state (a sign-out's). */
export function findActor(db: Db, id: number) {
  return db.selectFrom('admins').select(['email', 'displayName']).where('id', '=', id).executeTakeFirst();
}

/** Adds one entry to the audit log, inside the write that did the action, with its actor as they are now. */
export async function insertAuditEntry(
  db: Db,
  entry: {
    actorId: number | null;
    actorEmail: string | null;
    actorDisplayName: string | null;
    action: string;
    subject?: { kind: string; id: string | number };
    detail?: string;
  },
  at = Date.now(),
): Promise<void> {
  await db
    .insertInto('auditLog')
    .values({
      at,
      actorId: entry.actorId,
      actorEmail: entry.actorEmail,
      actorDisplayName: entry.actorDisplayName,
      action: entry.action,
      subjectKind: entry.subject?.kind ?? null,
      subjectId: entry.subject === undefined ? null : String(entry.subject.id),
      detail: entry.detail ?? null,
    })
    .execute();
}

/** One page of the log, newest first: entries older than the cursor `(at, id)`, matching `search` if given. */
export function listAuditEntries(
  db: Db,
  page: { limit: number; before?: { at: number; id: number }; search?: { text: string; actions: string[] } },
) {
  let query = db
    .selectFrom('auditLog')
    .leftJoin('admins as actor', 'actor.id', 'auditLog.actorId')
    // The staff account an entry is about, matched as text: a subject id of another kind is no number.
    .leftJoin('admins as subjectStaff', (join) =>
      join.on('auditLog.subjectKind', '=', 'staff').on((eb) => eb(eb.cast('subjectStaff.id', 'text'), '=', eb.ref('auditLog.subjectId'))),
    )
    .select([
      'auditLog.id',
      'auditLog.at',
      'auditLog.action',
      'auditLog.subjectKind',
      'auditLog.subjectId',
      'auditLog.detail',
      'auditLog.actorId',
      'auditLog.actorEmail',
      'auditLog.actorDisplayName',
      'subjectStaff.email as subjectEmail',
      'subjectStaff.displayName as subjectDisplayName',
    ]);
  const { before, search } = page;
  if (before) {
    query = query.where((eb) =>
      eb.or([eb('auditLog.at', '<', before.at), eb.and([eb('auditLog.at', '=', before.at), eb('auditLog.id', '<', before.id)])]),
    );
  }
  if (search) {
    query = query.where((eb) => {
      const matches: Expression<SqlBool>[] = [
        textContains('auditLog.action', search.text),
        // The actor by their name then, their email then, and their name now.
        textContains('auditLog.actorDisplayName', search.text),
        textContains('auditLog.actorEmail', search.text),
        textContains('actor.displayName', search.text),
        textContains('subjectStaff.displayName', search.text),
        textContains('subjectStaff.email', search.text),
        textContains('auditLog.subjectKind', search.text),
        textContains('auditLog.subjectId', search.text),
      ];
      if (search.actions.length > 0) matches.push(eb('auditLog.action', 'in', search.actions));
      return eb.or(matches);
    });
  }
  return query.orderBy('auditLog.at', 'desc').orderBy('auditLog.id', 'desc').limit(page.limit).execute();
}
