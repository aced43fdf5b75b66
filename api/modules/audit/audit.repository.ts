import type { Db } from '../../../db/client';
import type { AuditEntry } from './audit';

/** Adds one entry to the audit log, inside the write that did the action. */
export async function insertAuditEntry(db: Db, entry: AuditEntry, at = Date.now()): Promise<void> {
  await db
    .insertInto('auditLog')
    .values({
      at,
      actorId: entry.actorId,
      action: entry.action,
      subjectKind: entry.subject?.kind ?? null,
      subjectId: entry.subject === undefined ? null : String(entry.subject.id),
      detail: entry.detail ?? null,
    })
    .execute();
}
