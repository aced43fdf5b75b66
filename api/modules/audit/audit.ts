import type { Tx } from '../../events';
import { insertAuditEntry } from './audit.repository';

/**
 * What the audit log records (DESIGN.md 11): staff actions, never the data they acted on. Add an
 * action here when a new kind of staff action is built.
 */
export type AuditAction =
  | 'staff.signed-in'
  | 'staff.signed-out'
  | 'staff.invited'
  | 'staff.role-changed'
  | 'staff.deactivated'
  | 'staff.reactivated'
  | 'chat.assigned'
  | 'chat.status-changed'
  | 'lead.assigned'
  | 'lead.status-changed'
  | 'leads.exported'
  | 'settings.changed'
  | 'webhook.changed'
  | 'webhook.test-sent'
  | 'job.retried'
  | 'data.exported'
  | 'data.erased'
  | 'retention.erased'
  | 'canned-reply.created'
  | 'canned-reply.updated'
  | 'canned-reply.deleted';

export interface AuditEntry {
  /** The staff account that acted; null for the app itself (a scheduled job). */
  actorId: number | null;
  action: AuditAction;
  /** The thing acted on, by kind and id: `{ kind: 'lead:contact', id: 12 }`, `{ kind: 'chat', id: sessionId }`. */
  subject?: { kind: string; id: string | number };
  /** What changed, in the app's own words ("status: resolved", "role: agent"), never a visitor's text. */
  detail?: string;
}

/** Records a staff action in the write that does it: the entry commits with the action or not at all. */
export function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  return insertAuditEntry(tx.db, entry);
}
