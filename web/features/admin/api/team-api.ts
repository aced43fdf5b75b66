import type { StaffAccount, StaffRole, adminLoginAnswerSchema } from '../../../../api/contract/auth';
import type { AuditPage } from '../../../../api/contract/audit';
import { auditPaths } from '../../../../api/contract/audit';
import type { AcceptInviteInput, InviteInput, InviteLookup, PendingInvite, Team, TeamMember } from '../../../../api/contract/team';
import { teamPaths } from '../../../../api/contract/team';
import { pathTo, withQuery } from '../../../../api/contract/paths';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { staffCall } from './admin-api';

/** The Team and Audit log screens' calls, the member's own name, and an invite link's use. */
export const teamApi = {
  team: () => staffCall(() => api.get<Team>(teamPaths.team)),
  invite: (input: InviteInput) => staffCall(() => api.post<PendingInvite>(teamPaths.invites, input)),
  revokeInvite: (id: number) => staffCall(() => api.post<{ ok: true }>(pathTo(teamPaths.revokeInvite, { id }), undefined)),
  changeRole: (id: number, role: StaffRole) => staffCall(() => api.patch<TeamMember>(pathTo(teamPaths.member, { id }), { role })),
  deactivate: (id: number) => staffCall(() => api.post<TeamMember>(pathTo(teamPaths.deactivate, { id }), undefined)),
  reactivate: (id: number) => staffCall(() => api.post<TeamMember>(pathTo(teamPaths.reactivate, { id }), undefined)),
  rename: (displayName: string) => staffCall(() => api.patch<StaffAccount>(teamPaths.me, { displayName })),
  audit: (query: { before?: string; q?: string }) => staffCall(() => api.get<AuditPage>(withQuery(auditPaths.log, query))),
  lookupInvite: (token: string) => api.get<InviteLookup>(withQuery(teamPaths.invite, { token })),
  acceptInvite: (input: AcceptInviteInput) => api.post<z.infer<typeof adminLoginAnswerSchema>>(teamPaths.acceptInvite, input),
};
