import type { Db } from '../../../db/client';
import { endSignInsOf } from '../../../db/session-store';
import { type StaffAccount, staffDisplayName, type StaffRole } from '../../contract/auth';
import {
  alreadyOnTeamMessage,
  inviteLifetimeHours,
  inviteLinkInvalidMessage,
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
    return {
      members: members.map(toMember),
      invites: invites.map(
        (invite): PendingInvite => ({
          id: invite.id,
          email: invite.email,
          displayName: invite.displayName,
          role: invite.role,
          invitedAt: invite.createdAt,
          expiresAt: invite.expiresAt,
        }),
      ),
    };
  }

  /**
   * Invites a new member: a set-password link by mail (a job), valid 48 hours, used once. A newer
   * invite to the same email withdraws the older ones. Only the token's hash is stored.
   */
  async invite(actorId: number, input: Required<InviteInput>): Promise<PendingInvite> {
    const email = input.email.toLowerCase();
    if (await repository.staffEmailTaken(this.db, email)) throw new HttpError(409, alreadyOnTeamMessage(email));
    const now = Date.now();
    const createdAt = new Date(now).toISOString();
    const expiresAt = new Date(now + inviteLifetimeMs).toISOString();
    const id = await this.write(async (tx) => {
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
      return inviteId;
    });
    return { id, email, displayName: input.displayName, role: input.role, invitedAt: createdAt, expiresAt };
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
   * write (of two uses racing, one wins). A password the rules refuse leaves the link unspent.
   */
  async acceptInvite(token: string, password: string): Promise<JoinedMember> {
    const hash = tokenHash(token);
    const invite = await repository.findOpenInviteByToken(this.db, hash, new Date().toISOString());
    if (!invite) throw new HttpError(400, inviteLinkInvalidMessage);
    const problem = await newPasswordProblem(password, { email: invite.email });
    if (problem) throw new HttpError(400, 'Validation failed', { password: problem });
    const passwordHash = await hashPassword(password);
    return this.write(async (tx) => {
      const at = new Date().toISOString();
      const used = await repository.consumeInvite(tx.db, hash, at);
      if (!used) throw new HttpError(400, inviteLinkInvalidMessage);
      const member = await repository.insertMember(tx.db, { ...used, passwordHash, at });
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
      await recordAudit(tx, { actorId, action: 'staff.role-changed', subject: { kind: 'staff', id: memberId }, detail: `role: ${role}` });
      return toMember({ ...member, role });
    });
  }

  /**
   * Deactivates a member: they cannot sign in, every sign-in of theirs ends in this write, and their
   * dashboard sockets close once it commits (the `staff.deactivated` listener, on every node).
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
      tx.emit({ type: 'staff.deactivated', staffId: memberId, sessionIds });
      await recordAudit(tx, { actorId, action: 'staff.deactivated', subject: { kind: 'staff', id: memberId } });
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

  /** A staff member's own display name: what colleagues and visitors see on their replies. */
  async rename(staffId: number, displayName: string): Promise<StaffAccount> {
    return this.write(async (tx) => {
      const member = await this.memberOf(tx.db, staffId);
      await repository.setDisplayName(tx.db, staffId, displayName);
      return { email: member.email, role: member.role, displayName };
    });
  }
}
