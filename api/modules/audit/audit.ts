import type { Tx } from '../../events';
import { actingStaff, type ActorNeed } from '../../plugins/auth';
import { findActor, insertAuditEntry } from './audit.repository';

/**
 * What the audit log records (DESIGN.md 11): staff actions, never the data they acted on. Add an
 * action here when a new kind of staff action is built, and say in `actorNeeds` who may do it.
 */
export type AuditAction =
  | 'staff.signed-in'
  | 'staff.signed-out'
  | 'staff.invited'
  | 'staff.invite-revoked'
  | 'staff.role-changed'
  | 'staff.deactivated'
  | 'staff.reactivated'
  | 'staff.renamed'
  | 'chat.assigned'
  | 'chat.status-changed'
  | 'lead.assigned'
  | 'lead.status-changed'
  | 'leads.exported'
  | 'settings.changed'
  | 'webhook.changed'
  | 'data.exported'
  | 'data.erased'
  | 'retention.erased'
  | 'canned-reply.created'
  | 'canned-reply.updated'
  | 'canned-reply.deleted';

/**
 * Who may do each action, checked again inside its write (`actingStaff`): `admin` for the admin-only
 * routes' actions, `staff` for any active member's, `any` for signing out (a deactivated account's
 * sign-out still ends its session and is recorded). A typed record: a new action cannot be left out.
 */
const actorNeeds: Record<AuditAction, ActorNeed | 'any'> = {
  'staff.signed-in': 'staff',
  'staff.signed-out': 'any',
  'staff.invited': 'admin',
  'staff.invite-revoked': 'admin',
  'staff.role-changed': 'admin',
  'staff.deactivated': 'admin',
  'staff.reactivated': 'admin',
  'staff.renamed': 'staff',
  'chat.assigned': 'staff',
  'chat.status-changed': 'staff',
  'lead.assigned': 'staff',
  'lead.status-changed': 'staff',
  'leads.exported': 'staff',
  'settings.changed': 'admin',
  'webhook.changed': 'admin',
  'data.exported': 'admin',
  'data.erased': 'admin',
  'retention.erased': 'admin',
  'canned-reply.created': 'admin',
  'canned-reply.updated': 'admin',
  'canned-reply.deleted': 'admin',
};

export interface AuditEntry {
  /** The staff account that acted; null for the app itself (a scheduled job). */
  actorId: number | null;
  action: AuditAction;
  /** The thing acted on, by kind and id: `{ kind: 'lead:contact', id: 12 }`, `{ kind: 'chat', id: sessionId }`. */
  subject?: { kind: string; id: string | number };
  /** What changed, in the app's own words ("status: resolved", "role: agent"), never a visitor's text. */
  detail?: string;
}

/**
 * Records a staff action in the write that does it: the entry commits with the action or not at all.
 * The actor is checked here, in that write (`actingStaff`: 401 once deactivated, 403 once no longer an
 * admin for an admin's action), so an action whose request was let in before a deactivation or a
 * demotion commits nothing; and the entry keeps the actor's id, email and display name as they are now.
 */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  const actor = entry.actorId === null ? undefined : await actorOf(tx, entry.actorId, actorNeeds[entry.action]);
  await insertAuditEntry(tx.db, { ...entry, actorEmail: actor?.email ?? null, actorDisplayName: actor?.displayName ?? null });
}

async function actorOf(tx: Tx, actorId: number, need: ActorNeed | 'any') {
  if (need !== 'any') return actingStaff(tx.db, actorId, need, { inWrite: true });
  return findActor(tx.db, actorId);
}
