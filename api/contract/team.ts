import { z } from 'zod';
import { resetPasswordSchema, staffDisplayNameSchema, staffEmailSchema, staffRoleSchema } from './auth';
import { emailMessage, isoDate, oneLineMessage, rowId, signedLinkToken } from './common';

/** The Team screen's REST paths (admins only, but for `me`: any staff member's own name; `acceptInvite`: the link's holder). */
export const teamPaths = {
  team: '/api/team',
  invites: '/api/team/invites',
  /** Withdraws an invite not yet used: its link works no more. */
  revokeInvite: '/api/team/invites/:id/revoke',
  member: '/api/team/members/:id',
  deactivate: '/api/team/members/:id/deactivate',
  reactivate: '/api/team/members/:id/reactivate',
  me: '/api/team/me',
  /** What an invite link is for (its email and name), before the password is chosen. */
  invite: '/api/team/invite',
  acceptInvite: '/api/team/invite/accept',
} as const;

/** An invite link works this long after it is sent (DESIGN.md 11). */
export const inviteLifetimeHours = 48;
/** The set-password page an invite mail links to: `/admin/join?token=...` (under the dashboard's one route). */
export const joinTeamPath = '/admin/join';

export const lastAdminMessage = 'The team needs at least one admin: make someone else an admin first';
export const selfDeactivationMessage = 'You cannot deactivate your own account: ask another admin';
export const deactivatedSignInMessage = 'This account has been deactivated. Ask an admin of your team to reactivate it.';
export const inviteLinkInvalidMessage = 'This invite link is invalid, used or expired: ask an admin for a new one';
export const memberNotFoundMessage = 'No such team member';
export const inviteNotFoundMessage = 'This invite is no longer waiting: it was used, revoked or has expired';
export function alreadyOnTeamMessage(email: string): string {
  return `${email} already has a staff account`;
}

/**
 * A display name on one line: it shows in mail headers' names and beside replies. Its rules are
 * api/contract/display-name.ts (through staffDisplayNameSchema); the server also refuses a name that
 * is or looks like another member's or a waiting invite's, with `displayNameTakenMessage`.
 */
export const teamDisplayNameSchema = staffDisplayNameSchema.refine((value) => !/[\r\n\u2028\u2029]/.test(value), oneLineMessage('Display name'));

/** One staff account as the Team screen lists it. */
export const teamMemberSchema = z.object({
  id: rowId,
  email: z.string(),
  displayName: z.string(),
  role: staffRoleSchema,
  active: z.boolean(),
  lastSignInAt: isoDate.nullable(),
  createdAt: isoDate,
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** An invite not yet used, still valid, with the admin who sent it (null: an invite from before inviters were kept, or an account gone). */
export const pendingInviteSchema = z.object({
  id: rowId,
  email: z.string(),
  displayName: z.string(),
  role: staffRoleSchema,
  invitedAt: isoDate,
  expiresAt: isoDate,
  invitedBy: z.object({ id: rowId, email: z.string(), displayName: z.string() }).nullable(),
});
export type PendingInvite = z.infer<typeof pendingInviteSchema>;

export const teamSchema = z.object({ members: z.array(teamMemberSchema), invites: z.array(pendingInviteSchema) });
export type Team = z.infer<typeof teamSchema>;

export const inviteInputSchema = z.object({
  email: z.string({ error: emailMessage }).trim().max(254, emailMessage).pipe(staffEmailSchema),
  displayName: teamDisplayNameSchema,
  role: staffRoleSchema,
});
export type InviteInput = z.input<typeof inviteInputSchema>;

export const memberPatchSchema = z.object({ role: staffRoleSchema });
export type MemberPatch = z.infer<typeof memberPatchSchema>;

export const ownNameSchema = z.object({ displayName: teamDisplayNameSchema });
export type OwnNameInput = z.infer<typeof ownNameSchema>;

/** An invite link's token, signed by api/lib/signed-link.ts. */
const inviteTokenSchema = signedLinkToken(inviteLinkInvalidMessage);
export const inviteLookupQuerySchema = z.object({ token: inviteTokenSchema });
export const inviteLookupSchema = z.object({ email: z.string(), displayName: z.string() });
export type InviteLookup = z.infer<typeof inviteLookupSchema>;

export const acceptInviteSchema = z.object({
  token: inviteTokenSchema,
  password: resetPasswordSchema.shape.password,
});
export type AcceptInviteInput = z.infer<typeof acceptInviteSchema>;
/** The join page's form: the password twice (the token comes from the link). */
export const acceptInviteFormSchema = acceptInviteSchema
  .omit({ token: true })
  .extend({ confirmPassword: z.string({ error: 'Please confirm your password' }) })
  .refine((form) => form.password === form.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });
