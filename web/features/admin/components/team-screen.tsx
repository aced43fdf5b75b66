import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, Formik } from 'formik';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import type { StaffRole } from '../../../../api/contract/auth';
import { displayNameTakenMessage, looksLikeAnotherName } from '../../../../api/contract/display-name';
import { inviteInputSchema, inviteLifetimeHours, type InviteInput, type PendingInvite, type Team, type TeamMember } from '../../../../api/contract/team';
import { SelectField, TextField } from '../../../components/form/formik-fields';
import { Dialog } from '../../../components/ui/dialog';
import { Select } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { serverFieldErrors, validateWith } from '../../../lib/form';
import { teamApi } from '../api/team-api';
import { useStaffSession } from '../session-store';

export const teamQueryKey = ['team'] as const;

const roleNames: Record<StaffRole, string> = { admin: 'Admin', agent: 'Agent' };
const roleOptions = (Object.keys(roleNames) as StaffRole[]).map((role) => ({ value: role, label: roleNames[role] }));

const dateTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** The server's sentence for a refused change (the last admin, say), or a general one. */
function problemOf(error: unknown): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Something went wrong: please try again.';
}

const emptyInvite: InviteInput = { email: '', displayName: '', role: 'agent' };

/**
 * The contract's rules, then the look-alike check against the team on screen (the server checks it
 * again, with the same message, against the whole team).
 */
function validateInvite(team: Team | undefined) {
  const byContract = validateWith<InviteInput>(inviteInputSchema);
  return (values: InviteInput) => {
    const errors = byContract(values);
    if (errors.displayName || !team) return errors;
    const email = values.email.trim().toLowerCase();
    const others = [...team.members.map((member) => member.displayName), ...team.invites.filter((invite) => invite.email !== email).map((invite) => invite.displayName)];
    return looksLikeAnotherName(values.displayName.trim(), others) ? { ...errors, displayName: displayNameTakenMessage } : errors;
  };
}

function InviteForm({ team }: { team: Team | undefined }) {
  const queryClient = useQueryClient();
  return (
    <section aria-labelledby="invite-title" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id="invite-title" className="text-lg font-semibold text-slate-900">
        Invite a team member
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        They get an email with a link to choose a password. The link works once, for {inviteLifetimeHours} hours.
      </p>
      <Formik<InviteInput>
        initialValues={emptyInvite}
        validate={validateInvite(team)}
        onSubmit={async (values, helpers) => {
          try {
            const invite = await teamApi.invite({ email: values.email.trim(), displayName: values.displayName.trim(), role: values.role });
            toast({ title: 'Invite sent', description: `${invite.displayName} can join from the link sent to ${invite.email}.`, variant: 'success' });
            helpers.resetForm();
            await queryClient.invalidateQueries({ queryKey: teamQueryKey });
          } catch (error) {
            const errors = serverFieldErrors(error);
            if (errors) helpers.setErrors(errors);
            else toast({ title: 'Invite not sent', description: problemOf(error), variant: 'destructive' });
          }
        }}
      >
        {({ isSubmitting }) => (
          <Form noValidate className="mt-4 grid gap-4 sm:grid-cols-[2fr_2fr_1fr_auto] sm:items-start">
            <TextField form="invite" name="email" label="Email" type="email" autoComplete="off" required />
            <TextField form="invite" name="displayName" label="Display name" hint="Visitors see it on replies" maxLength={100} required />
            <SelectField form="invite" name="role" label="Role" options={roleOptions} placeholder="Choose a role" />
            <button
              type="submit"
              disabled={isSubmitting}
              className="inline-flex items-center justify-center gap-1.5 rounded-md bg-brand px-4 py-2 text-sm font-semibold text-white hover:bg-brand-dark disabled:opacity-70 sm:mt-6"
            >
              <UserPlus className="size-4" aria-hidden="true" />
              {isSubmitting ? 'Sending...' : 'Send invite'}
            </button>
          </Form>
        )}
      </Formik>
    </section>
  );
}

function MemberRow({ member, isYou, onDeactivate }: { member: TeamMember; isYou: boolean; onDeactivate: (member: TeamMember) => void }) {
  const queryClient = useQueryClient();
  const update = (changed: TeamMember) =>
    queryClient.setQueryData<Team>(teamQueryKey, (team) => team && { ...team, members: team.members.map((each) => (each.id === changed.id ? changed : each)) });
  const changeRole = useMutation({
    mutationFn: (role: StaffRole) => teamApi.changeRole(member.id, role),
    onSuccess: (changed) => {
      update(changed);
      toast({ title: 'Role changed', description: `${changed.displayName} is now ${changed.role === 'admin' ? 'an admin' : 'an agent'}.`, variant: 'success' });
    },
    onError: (error) => toast({ title: 'Role not changed', description: problemOf(error), variant: 'destructive' }),
  });
  const reactivate = useMutation({
    mutationFn: () => teamApi.reactivate(member.id),
    onSuccess: (changed) => {
      update(changed);
      toast({ title: 'Reactivated', description: `${changed.displayName} can sign in again.`, variant: 'success' });
    },
    onError: (error) => toast({ title: 'Not reactivated', description: problemOf(error), variant: 'destructive' }),
  });
  const roleId = `role-${member.id}`;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3" data-testid="team-member">
      <div className="min-w-0 flex-1 basis-56">
        <p className="font-medium text-slate-900">
          {member.displayName}
          {isYou ? <span className="ml-2 text-xs font-normal text-slate-500">(you)</span> : null}
        </p>
        <p className="truncate text-sm text-slate-500">{member.email}</p>
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor={roleId} className="sr-only">
          Role of {member.displayName}
        </label>
        <Select
          id={roleId}
          value={member.role}
          disabled={changeRole.isPending}
          onChange={(event) => changeRole.mutate(event.target.value as StaffRole)}
          className="w-28"
        >
          {roleOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
        {member.active ? (
          <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200">Active</span>
        ) : (
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600 ring-1 ring-slate-200">Deactivated</span>
        )}
      </div>
      <p className="w-full text-sm text-slate-500 sm:w-64">
        {member.lastSignInAt ? `Last signed in ${dateTime.format(new Date(member.lastSignInAt))}` : 'Never signed in'}
      </p>
      <div className="w-28 text-right">
        {isYou ? null : member.active ? (
          <button
            type="button"
            onClick={() => onDeactivate(member)}
            className="rounded-md border border-red-200 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
            aria-label={`Deactivate ${member.displayName}`}
          >
            Deactivate
          </button>
        ) : (
          <button
            type="button"
            onClick={() => reactivate.mutate()}
            disabled={reactivate.isPending}
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
            aria-label={`Reactivate ${member.displayName}`}
          >
            Reactivate
          </button>
        )}
      </div>
    </li>
  );
}

function DeactivateDialog({ member, onClose }: { member: TeamMember | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const deactivate = useMutation({
    mutationFn: (id: number) => teamApi.deactivate(id),
    onSuccess: (changed) => {
      queryClient.setQueryData<Team>(teamQueryKey, (team) => team && { ...team, members: team.members.map((each) => (each.id === changed.id ? changed : each)) });
      toast({ title: 'Deactivated', description: `${changed.displayName} was signed out and cannot sign in.`, variant: 'success' });
      onClose();
    },
    onError: (error) => toast({ title: 'Not deactivated', description: problemOf(error), variant: 'destructive' }),
  });
  return (
    <Dialog
      open={member !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={member ? `Deactivate ${member.displayName}?` : 'Deactivate'}
      description="They are signed out everywhere at once and cannot sign in until an admin reactivates them. Their replies keep their name."
      width="max-w-md"
    >
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button type="button" onClick={onClose} className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
          Cancel
        </button>
        <button
          type="button"
          disabled={deactivate.isPending || member === null}
          onClick={() => member && deactivate.mutate(member.id)}
          className="rounded-md bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700 disabled:opacity-70"
        >
          {deactivate.isPending ? 'Deactivating...' : 'Deactivate'}
        </button>
      </div>
    </Dialog>
  );
}

/** The invites not yet used: for whom, the role, who sent each and when, until when the link works, and Revoke. */
function WaitingInvites({ invites, onRevoke }: { invites: PendingInvite[]; onRevoke: (invite: PendingInvite) => void }) {
  return (
    <section aria-labelledby="invites-title" className="rounded-xl border border-slate-200 bg-white">
      <h3 id="invites-title" className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-900">
        Invites waiting
      </h3>
      <ul aria-label="Invites waiting" className="divide-y divide-slate-100">
        {invites.map((invite) => (
          <li key={invite.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-sm" data-testid="waiting-invite">
            <span className="min-w-0 flex-1 basis-56">
              <span className="font-medium text-slate-900">{invite.displayName}</span>
              <span className="block truncate text-slate-500">{invite.email}</span>
            </span>
            <span className="text-slate-600">{roleNames[invite.role]}</span>
            <span className="w-full text-slate-500 sm:w-64">
              <span className="block" data-testid="invited-by">
                {invite.invitedBy ? (
                  <>
                    Invited by {invite.invitedBy.displayName} <span className="text-slate-400">({invite.invitedBy.email})</span>
                  </>
                ) : (
                  'Invited'
                )}{' '}
                on {dateTime.format(new Date(invite.invitedAt))}
              </span>
              <span className="block">Link works until {dateTime.format(new Date(invite.expiresAt))}</span>
            </span>
            <div className="w-28 text-right">
              <button
                type="button"
                onClick={() => onRevoke(invite)}
                className="rounded-md border border-red-200 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
                aria-label={`Revoke the invite for ${invite.email}`}
              >
                Revoke
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function RevokeInviteDialog({ invite, onClose }: { invite: PendingInvite | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (revoked: PendingInvite) => teamApi.revokeInvite(revoked.id),
    onSuccess: (_answer, revoked) => {
      queryClient.setQueryData<Team>(teamQueryKey, (team) => team && { ...team, invites: team.invites.filter((each) => each.id !== revoked.id) });
      toast({ title: 'Invite revoked', description: `The link sent to ${revoked.email} no longer works.`, variant: 'success' });
      onClose();
    },
    onError: (error) => {
      toast({ title: 'Invite not revoked', description: problemOf(error), variant: 'destructive' });
      void queryClient.invalidateQueries({ queryKey: teamQueryKey });
    },
  });
  return (
    <Dialog
      open={invite !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={invite ? `Revoke the invite for ${invite.displayName}?` : 'Revoke the invite'}
      description={invite ? `The link sent to ${invite.email} stops working at once. You can invite them again later.` : undefined}
      width="max-w-md"
    >
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button type="button" onClick={onClose} className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
          Cancel
        </button>
        <button
          type="button"
          disabled={revoke.isPending || invite === null}
          onClick={() => invite && revoke.mutate(invite)}
          className="rounded-md bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700 disabled:opacity-70"
        >
          {revoke.isPending ? 'Revoking...' : 'Revoke invite'}
        </button>
      </div>
    </Dialog>
  );
}

/** /admin/team: the team, invites, roles and deactivation. Admins only (an agent's calls are refused anyway). */
export function TeamScreen() {
  const account = useStaffSession((state) => state.account);
  const email = useStaffSession((state) => state.email);
  const isAdmin = account?.role === 'admin';
  const team = useQuery({ queryKey: teamQueryKey, queryFn: teamApi.team, enabled: isAdmin });
  const [deactivating, setDeactivating] = useState<TeamMember | null>(null);
  const [revoking, setRevoking] = useState<PendingInvite | null>(null);

  if (!isAdmin) {
    return (
      <section className="rounded-xl border border-slate-200 bg-white p-6">
        <h2 className="text-lg font-semibold text-slate-900">Team</h2>
        <p className="mt-2 text-sm text-slate-600">Only admins can manage the team.</p>
      </section>
    );
  }
  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-bold text-slate-900">Team</h2>
      <InviteForm team={team.data} />
      <section aria-labelledby="members-title" className="rounded-xl border border-slate-200 bg-white">
        <h3 id="members-title" className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-900">
          Members
        </h3>
        {team.isPending ? (
          <p className="px-4 py-3 text-sm text-slate-500">Loading...</p>
        ) : team.isError ? (
          <p role="alert" className="px-4 py-3 text-sm text-red-700">
            Could not load the team: {problemOf(team.error)}
          </p>
        ) : (
          <ul aria-label="Members" className="divide-y divide-slate-100">
            {team.data.members.map((member) => (
              <MemberRow key={member.id} member={member} isYou={member.email === email} onDeactivate={setDeactivating} />
            ))}
          </ul>
        )}
      </section>
      {team.data && team.data.invites.length > 0 ? <WaitingInvites invites={team.data.invites} onRevoke={setRevoking} /> : null}
      <DeactivateDialog member={deactivating} onClose={() => setDeactivating(null)} />
      <RevokeInviteDialog invite={revoking} onClose={() => setRevoking(null)} />
    </div>
  );
}
