import { z } from 'zod';
import { isoDate, rowId } from './common';

/** The audit log screen's REST path (admins only). */
export const auditPaths = { log: '/api/audit' } as const;

export const auditPageSize = 50;

/** What the log names an action, for the screen (api/modules/audit's AuditAction lists them). */
export const auditActionLabels: Record<string, string> = {
  'staff.signed-in': 'Signed in',
  'staff.signed-out': 'Signed out',
  'staff.invited': 'Invited a team member',
  'staff.invite-revoked': 'Revoked an invite',
  'staff.renamed': 'Changed their display name',
  'staff.role-changed': 'Changed a role',
  'staff.deactivated': 'Deactivated a team member',
  'staff.reactivated': 'Reactivated a team member',
  'chat.assigned': 'Assigned a conversation',
  'chat.status-changed': 'Changed a conversation status',
  'lead.assigned': 'Assigned a lead',
  'lead.status-changed': 'Changed a lead status',
  'leads.exported': 'Exported leads',
  'settings.changed': 'Changed settings',
  'webhook.changed': 'Changed a webhook',
  'data.exported': 'Exported data',
  'data.erased': 'Erased data',
  'retention.erased': 'Erased old data',
  'canned-reply.created': 'Added a canned reply',
  'canned-reply.updated': 'Changed a canned reply',
  'canned-reply.deleted': 'Deleted a canned reply',
};

const auditSearchMessage = 'Search must be at most 100 characters';
/** A page of the log: newest first; `before` is the last entry's `cursor`; `q` matches action, actor or subject. */
export const auditQuerySchema = z.object({
  before: z
    .string()
    .regex(/^\d{1,16}:\d{1,10}$/, 'before must be the cursor of an entry')
    .optional(),
  q: z.string().trim().max(100, auditSearchMessage).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: rowId,
  at: isoDate,
  action: z.string(),
  /**
   * The staff member who acted, as they were when they acted: their account's id, its email, and the
   * display name it had then (staffDisplayName: the email's part before the @ when none was chosen).
   * A later rename changes none of them. All null: the app itself.
   */
  actorId: rowId.nullable(),
  actorEmail: z.string().nullable(),
  actorName: z.string().nullable(),
  /** The thing acted on, e.g. `Dana (dana@lotwise.example)`, `conversation 3f2a…`, `contact lead #12`: never its data. */
  subject: z.string().nullable(),
  detail: z.string().nullable(),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPageSchema>;
