import type { Db } from '../../../db/client';
import { endSignInsOf } from '../../../db/session-store';
import { type StaffAccount, staffDisplayName, type StaffRole } from '../../contract/auth';
import { displayNameTakenMessage, looksLikeAnotherName } from '../../contract/display-name';
import {
  alreadyOnTeamMessage,
  inviteLifetimeHours,
  inviteLinkInvalidMessage,
  inviteNotFoundMessage,
  joinTeamPath,
  lastAdminMessage,
  memberNotFoundMessage,
  selfDeactivationMessage,
  type InviteInput,
  type InviteLookup,
  type PendingInvite,
  type Team,
  type TeamMember,
} from '../../contract/team';
import { linkPurpose, signLink, tokenHash } from '../../lib/signed-link';
import { HttpError } from '../../plugins/errors';
import type { Write } from '../../events';
import { recordAudit } from '../audit';
import { hashPassword, newPasswordProblem } from '../auth';
import * as repository from './team.repository';

export const inviteLifetimeMs = inviteLifetimeHours * 60 * 60 * 1000;

/** A mailed invite link: works once (its hash is stored and spent), for `inviteLifetimeHours`. */
const inviteLink = linkPurpose({ purpose: 'staff-invite', fields: ['email', 'createdAt'], lifetimeSeconds: inviteLifetimeMs / 1000 });

/** The audit detail's words for the invites a deactivation or demotion withdrew. */
function invitesWithdrawn(count: number): string | undefined {
  return count === 0 ? undefined : `${count} ${count === 1 ? 'invite' : 'invites'} withdrawn`;
}

/**
 * An invite link's token, derived from its row with a key only the server holds: the mail job
 * derives it again, so neither the jobs table nor the invites table ever holds a working link.
 */
function inviteToken(linkSecret: string, invite: { email: string; createdAt: string }): string {
  return signLink(linkSecret, inviteLink, { email: invite.email, createdAt: invite.createdAt }, Date.parse(invite.createdAt));
}

function toMember(row: repository.MemberRow): TeamMember {
  return {
    id: row.id,
    email: row.email,
    displayName: staffDisplayName(row),
    role: row.role,
    active: row.deactivatedAt === null,
    lastSignInAt: row.lastSignInAt,
    createdAt: row.createdAt,
  };
}

function toPendingInvite(invite: repository.OpenInviteRow): PendingInvite {
  return {
    id: invite.id,
    email: invite.email,
    displayName: invite.displayName,
    role: invite.role,
    invitedAt: invite.createdAt,
    expiresAt: invite.expiresAt,
    invitedBy:
      invite.inviterId === null || invite.inviterEmail === null
        ? null
        : { id: invite.inviterId, email: invite.inviterEmail, displayName: staffDisplayName({ email: invite.inviterEmail, displayName: invite.inviterDisplayName }) },
  };
}

/**
 * 400 when `name` is, or looks like (api/contract/display-name.ts), the name another member shows
 * or a waiting invite holds. Run in the write that claims the name, after `lockActiveAdmins`: every
 * write that claims one (invite, rename, accepting an invite) takes that lock first, so two of them
 * never both pass on PostgreSQL.
 */
async function checkNameFree(db: Db, name: string, except: { staffId?: number; inviteEmail?: string }): Promise<void> {
  const { members, invites } = await repository.namesInUse(db, new Date().toISOString());
  const others = [
    ...members.filter((member) => member.id !== except.staffId).map((member) => staffDisplayName(member)),
    ...invites.filter((invite) => invite.email !== except.inviteEmail).map((invite) => invite.displayName),
  ];
  if (looksLikeAnotherName(name, others)) throw new HttpError(400, 'Validation failed', { displayName: displayNameTakenMessage });
}

/** A new member, signed in by the invite they used. */
export interface JoinedMember {
  id: number;
  email: string;
  credentialVersion: number;
  account: StaffAccount;
}

/** The team: its accounts, invites, roles and deactivation (DESIGN.md 11). Each change is audited in its own write. */
export class TeamService {
  constructor(
    private readonly db: Db,
    private readonly write: Write,
    private readonly options: { linkSecret: string; publicUrl: string },
  ) {}

  async team(): Promise<Team> {
    const [members, invites] = await Promise.all([repository.listMembers(this.db), repository.listOpenInvites(this.db, new Date().toISOString())]);
    return { members: members.map(toMember), invites: invites.map(toPendingInvite) };
  }

  /**
   * Invites a new member: a set-password link by mail (a job), valid 48 hours, used once. A newer
   * invite to the same email withdraws the older ones. Only the token's hash is stored, with who sent
   * it: their deactivation or demotion withdraws it, and it is accepted only while they are an active admin.
   */
  async invite(actorId: number, input: Required<InviteInput>): Promise<PendingInvite> {
    const email = input.email.toLowerCase();
    if (await repository.staffEmailTaken(this.db, email)) throw new HttpError(409, alreadyOnTeamMessage(email));
    const now = Date.now();
    const createdAt = new Date(now).toISOString();
    const expiresAt = new Date(now + inviteLifetimeMs).toISOString();
    const { id, inviter } = await this.write(async (tx) => {
      // First, as a deactivation does: one that races this invite either waits and then withdraws it, or is waited for.
      await repository.lockActiveAdmins(tx.db);
      await checkNameFree(tx.db, input.displayName, { inviteEmail: email });
      await repository.withdrawInvitesOf(tx.db, email, createdAt);
      const inviteId = await repository.insertInvite(tx.db, {
        email,
        displayName: input.displayName,
        role: input.role,
        tokenHash: tokenHash(inviteToken(this.options.linkSecret, { email, createdAt })),
        invitedBy: actorId,
        createdAt,
        expiresAt,
      });
      tx.emit({ type: 'staff.invited', inviteId });
      await recordAudit(tx, { actorId, action: 'staff.invited', subject: { kind: 'invite', id: inviteId }, detail: `role: ${input.role}` });
      return { id: inviteId, inviter: await this.memberOf(tx.db, actorId) };
    });
    return {
      id,
      email,
      displayName: input.displayName,
      role: input.role,
      invitedAt: createdAt,
      expiresAt,
      invitedBy: { id: inviter.id, email: inviter.email, displayName: staffDisplayName(inviter) },
    };
  }

  /** Revokes a waiting invite (an admin, audited): its link works no more; 404 once it is not waiting. */
  async revokeInvite(actorId: number, inviteId: number): Promise<void> {
    await this.write(async (tx) => {
      const revoked = await repository.revokeInvite(tx.db, inviteId, new Date().toISOString());
      if (!revoked) throw new HttpError(404, inviteNotFoundMessage);
      await recordAudit(tx, { actorId, action: 'staff.invite-revoked', subject: { kind: 'invite', id: inviteId }, detail: `role: ${revoked.role}` });
    });
  }

  /** The invite mail of an invite row, as its job sends it; undefined once there is nothing to send (used, expired, withdrawn). */
  async inviteMailOf(inviteId: number): Promise<{ to: string; subject: string; text: string } | undefined> {
    const invite = await repository.findOpenInvite(this.db, inviteId, new Date().toISOString());
    if (!invite) return undefined;
    const token = inviteToken(this.options.linkSecret, invite);
    if (tokenHash(token) !== invite.tokenHash) return undefined;
    const link = `${this.options.publicUrl}${joinTeamPath}?token=${encodeURIComponent(token)}`;
    const inviter = invite.inviterEmail === null ? 'An admin' : staffDisplayName({ email: invite.inviterEmail, displayName: invite.inviterDisplayName });
    return {
      to: invite.email,
      subject: 'You are invited to the Lotwise team',
      text: [
        `Hello ${invite.displayName},`,
        '',
        `${inviter} invited you to answer leads and chats in the Lotwise dashboard, as ${invite.role === 'admin' ? 'an admin' : 'an agent'}. To choose your password, open this link within ${inviteLifetimeHours} hours:`,
        '',
        link,
        '',
        'The link works once. If you were not expecting this, ignore this email.',
      ].join('\n'),
    };
  }

  /** Who an invite link is for, before its password is chosen; 400 for a link that does not work. */
  async lookupInvite(token: string): Promise<InviteLookup> {
    const invite = await repository.findOpenInviteByToken(this.db, tokenHash(token), new Date().toISOString());
    if (!invite) throw new HttpError(400, inviteLinkInvalidMessage);
    return { email: invite.email, displayName: invite.displayName };
  }

  /**
   * Uses an invite: the account is made with the chosen password, and the link is spent in the same
   * write (of two uses racing, one wins). A password the rules refuse leaves the link unspent. The
   * admin who sent it must still be an active admin, read under the admins' lock: a deactivation or
   * demotion racing the use either waits for it or is seen by it.
   */
  async acceptInvite(token: string, password: string): Promise<JoinedMember> {
    const hash = tokenHash(token);
    const invite = await repository.findOpenInviteByToken(this.db, hash, new Date().toISOString());
    if (!invite) throw new HttpError(400, inviteLinkInvalidMessage);
    const problem = await newPasswordProblem(password, { email: invite.email });
    if (problem) throw new HttpError(400, 'Validation failed', { password: problem });
    const passwordHash = await hashPassword(password);
    return this.write(async (tx) => {
      const admins = await repository.lockActiveAdmins(tx.db);
      const at = new Date().toISOString();
      const used = await repository.consumeInvite(tx.db, hash, at);
      if (!used || used.invitedBy === null || !admins.includes(used.invitedBy)) throw new HttpError(400, inviteLinkInvalidMessage);
      const member = await repository.insertMember(tx.db, { email: used.email, displayName: used.displayName, role: used.role, passwordHash, at });
      if (!member) throw new HttpError(409, alreadyOnTeamMessage(used.email));
      await recordAudit(tx, { actorId: member.id, action: 'staff.signed-in', detail: 'first sign-in, from an invite' });
      return {
        id: member.id,
        email: member.email,
        credentialVersion: member.credentialVersion,
        account: { email: member.email, role: used.role, displayName: used.displayName },
      };
    });
  }

  private async memberOf(db: Db, id: number): Promise<repository.MemberRow> {
    const member = await repository.findMember(db, id);
    if (!member) throw new HttpError(404, memberNotFoundMessage);
    return member;
  }

  /** Changes a member's role; the last active admin cannot become an agent (checked under the admins' lock). */
  async changeRole(actorId: number, memberId: number, role: StaffRole): Promise<TeamMember> {
    return this.write(async (tx) => {
      const admins = await repository.lockActiveAdmins(tx.db);
      const member = await this.memberOf(tx.db, memberId);
      if (member.role === role) return toMember(member);
      if (role === 'agent' && admins.length === 1 && admins[0] === memberId) throw new HttpError(409, lastAdminMessage);
      await repository.setRole(tx.db, memberId, role);
      // An agent invites nobody: the invites they sent as an admin go with the role.
      const withdrawn = role === 'agent' ? await repository.withdrawInvitesBy(tx.db, memberId, new Date().toISOString()) : 0;
      await recordAudit(tx, { actorId, action: 'staff.role-changed', subject: { kind: 'staff', id: memberId }, detail: [`role: ${role}`, invitesWithdrawn(withdrawn)].filter(Boolean).join(', ') });
      return toMember({ ...member, role });
    });
  }

  /**
   * Deactivates a member: they cannot sign in, every sign-in of theirs ends in this write, the invites
   * they sent are withdrawn, and their dashboard sockets close once it commits (the `staff.deactivated`
   * listener, on every node).
   */
  async deactivate(actorId: number, memberId: number): Promise<TeamMember> {
    if (actorId === memberId) throw new HttpError(400, selfDeactivationMessage);
    return this.write(async (tx) => {
      const admins = await repository.lockActiveAdmins(tx.db);
      const member = await this.memberOf(tx.db, memberId);
      if (member.deactivatedAt !== null) return toMember(member);
      if (admins.length === 1 && admins[0] === memberId) throw new HttpError(409, lastAdminMessage);
      const at = new Date().toISOString();
      await repository.deactivate(tx.db, memberId, at);
      const sessionIds = await endSignInsOf(tx.db, { adminId: memberId });
      const withdrawn = await repository.withdrawInvitesBy(tx.db, memberId, at);
      tx.emit({ type: 'staff.deactivated', staffId: memberId, sessionIds });
      await recordAudit(tx, { actorId, action: 'staff.deactivated', subject: { kind: 'staff', id: memberId }, detail: invitesWithdrawn(withdrawn) });
      return toMember({ ...member, deactivatedAt: at });
    });
  }

  async reactivate(actorId: number, memberId: number): Promise<TeamMember> {
    return this.write(async (tx) => {
      const member = await this.memberOf(tx.db, memberId);
      if (member.deactivatedAt === null) return toMember(member);
      await repository.reactivate(tx.db, memberId);
      await recordAudit(tx, { actorId, action: 'staff.reactivated', subject: { kind: 'staff', id: memberId } });
      return toMember({ ...member, deactivatedAt: null });
    });
  }

  /**
   * A staff member's own display name: what colleagues and visitors see on their replies. Audited
   * (the entry keeps the old name as its actor's, and says both); refused when it is or looks like
   * another member's or a waiting invite's.
   */
  async rename(staffId: number, displayName: string): Promise<StaffAccount> {
    return this.write(async (tx) => {
      await repository.lockActiveAdmins(tx.db);
      const member = await this.memberOf(tx.db, staffId);
      if (member.displayName === displayName) return { email: member.email, role: member.role, displayName };
      await checkNameFree(tx.db, displayName, { staffId });
      await recordAudit(tx, {
        actorId: staffId,
        action: 'staff.renamed',
        subject: { kind: 'staff', id: staffId },
        detail: `from "${staffDisplayName(member)}" to "${displayName}"`,
      });
      await repository.setDisplayName(tx.db, staffId, displayName);
      return { email: member.email, role: member.role, displayName };
    });
  }
}
