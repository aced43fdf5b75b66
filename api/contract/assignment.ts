import { z } from 'zod';
import { rowId } from './common';

/**
 * Assignment (DESIGN.md 11): who on the staff works a conversation or a lead, the lists' Mine /
 * Unassigned / All filter, and the auto-assignment setting.
 */

/** `?assignee=` of every staff list and of the counts: the signed-in member's, nobody's, or every row. */
export const assigneeFilters = ['mine', 'unassigned', 'all'] as const;
export const assigneeFilterSchema = z.enum(assigneeFilters, { error: 'assignee must be mine, unassigned or all' });
export type AssigneeFilter = z.infer<typeof assigneeFilterSchema>;
export const assigneeFilterLabels: Record<AssigneeFilter, string> = { mine: 'Mine', unassigned: 'Unassigned', all: 'All' };
export const assigneeQuerySchema = z.object({ assignee: assigneeFilterSchema.default('all') });

/** Whose rows a filter shows, as the server's queries take it: a staff id, null (nobody's), undefined (every row). */
export function assigneeCondition(filter: AssigneeFilter, signedInStaffId: number): number | null | undefined {
  return filter === 'all' ? undefined : filter === 'unassigned' ? null : signedInStaffId;
}

/** `PUT …/assignee`: a staff account's id, or null to unassign. */
export const assignmentBodySchema = z
  .object({ assigneeId: z.union([rowId, z.null()], { error: 'assigneeId must be a staff id or null' }) })
  .strict();
export type AssignmentBody = z.infer<typeof assignmentBodySchema>;

/** Who may be given a conversation or lead, as the picker lists them. */
export const assigneeRecord = z.object({
  id: rowId,
  name: z.string(),
  role: z.enum(['admin', 'agent']),
  /** Has the dashboard open now (auto-assignment gives conversations to these only). */
  online: z.boolean(),
});
export type Assignee = z.infer<typeof assigneeRecord>;

/** `GET /api/assignees`: the staff, and which of them asks (their `Mine`). */
export const assigneesAnswerSchema = z.object({ me: rowId, staff: z.array(assigneeRecord) });
export type AssigneesAnswer = z.infer<typeof assigneesAnswerSchema>;

export const assigneeNotFoundMessage = 'No such staff member';

/** A new conversation goes to an online agent with fewer open conversations than this, unless an admin sets another. */
export const defaultAgentCapacity = 5;
export const maxAgentCapacity = 50;

/** `GET`/`PUT /api/settings/auto-assignment` (admins). */
export const autoAssignmentSettingsSchema = z
  .object({
    enabled: z.boolean({ error: 'enabled must be true or false' }),
    capacity: z
      .number({ error: `capacity must be a whole number from 1 to ${maxAgentCapacity}` })
      .int(`capacity must be a whole number from 1 to ${maxAgentCapacity}`)
      .min(1, `capacity must be a whole number from 1 to ${maxAgentCapacity}`)
      .max(maxAgentCapacity, `capacity must be a whole number from 1 to ${maxAgentCapacity}`),
  })
  .strict();
export type AutoAssignmentSettings = z.infer<typeof autoAssignmentSettingsSchema>;
export const defaultAutoAssignment: AutoAssignmentSettings = { enabled: false, capacity: defaultAgentCapacity };

/** The assignee fields of a chat session row and of a lead. */
export const assigneeFields = {
  /** The staff account working it; null (or absent): nobody. */
  assigneeId: rowId.nullable().optional(),
  /** That account's display name (staffDisplayName). */
  assigneeName: z.string().nullable().optional(),
};
