import type { Db } from '../../../db/client';
import { lockedForUpdate } from '../../../db/query-helpers';
import type { StaffRoleColumn } from '../../../db/schema';

const memberColumns = ['id', 'email', 'displayName', 'role', 'deactivatedAt', 'lastSignInAt', 'createdAt'] as const;

export function listMembers(db: Db) {
  return db.selectFrom('admins').select(memberColumns).orderBy('id').execute();
}

export function findMember(db: Db, id: number) {
  return db.selectFrom('admins').select(memberColumns).where('id', '=', id).executeTakeFirst();
}

export type MemberRow = NonNullable<Awaited<ReturnType<typeof findMember>>>;

/**
 * The active admins, locked until the write ends (PostgreSQL `FOR UPDATE`, in id order so two
 * writes never wait on each other crosswise). A second write demoting or deactivating an admin waits
 * here for the first, then sees the rows as the first left them: of two admins demoting each other
 * at once, the second finds one admin left and is refused. SQLite runs one write at a time.
 */
export async function lockActiveAdmins(db: Db): Promise<number[]> {
  const query = db.selectFrom('admins').select('id').where('role', '=', 'admin').where('deactivatedAt', 'is', null).orderBy('id');
  const rows = await lockedForUpdate(db, query).execute();
  return rows.map((row) => row.id);
}

export async function setRole(db: Db, id: number, role: StaffRoleColumn): Promise<void> {
  await db.updateTable('admins').set({ role }).where('id', '=', id).execute();
}

/** Deactivates the account and counts it as a credential change, so every sign-in of it ends wherever it is held. */
export async function deactivate(db: Db, id: number, at: string): Promise<void> {
  await db
    .updateTable('admins')
    .set((eb) => ({ deactivatedAt: at, credentialVersion: eb('credentialVersion', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function reactivate(db: Db, id: number): Promise<void> {
  await db.updateTable('admins').set({ deactivatedAt: null }).where('id', '=', id).execute();
}

export async function setDisplayName(db: Db, id: number, displayName: string): Promise<void> {
  await db.updateTable('admins').set({ displayName }).where('id', '=', id).execute();
}

export async function staffEmailTaken(db: Db, email: string): Promise<boolean> {
  const row = await db.selectFrom('admins').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

/** The invites waiting (unused, unexpired), with who sent each. */
export function listOpenInvites(db: Db, nowIso: string) {
  return db
    .selectFrom('staffInvites')
    .leftJoin('admins as inviter', 'inviter.id', 'staffInvites.invitedBy')
    .select([
      'staffInvites.id',
      'staffInvites.email',
      'staffInvites.displayName',
      'staffInvites.role',
      'staffInvites.createdAt',
      'staffInvites.expiresAt',
      'inviter.id as inviterId',
      'inviter.email as inviterEmail',
      'inviter.displayName as inviterDisplayName',
    ])
    .where('staffInvites.usedAt', 'is', null)
    .where('staffInvites.expiresAt', '>', nowIso)
    .orderBy('staffInvites.id')
    .execute();
}

export type OpenInviteRow = Awaited<ReturnType<typeof listOpenInvites>>[number];

/** The display names the team shows and the waiting invites hold: a new name must not look like one of them. */
export async function namesInUse(db: Db, nowIso: string) {
  const [members, invites] = await Promise.all([
    db.selectFrom('admins').select(['id', 'email', 'displayName']).execute(),
    db.selectFrom('staffInvites').select(['email', 'displayName']).where('usedAt', 'is', null).where('expiresAt', '>', nowIso).execute(),
  ]);
  return { members, invites };
}

/** Withdraws one waiting invite; the invite as it was, or undefined when it was not waiting. */
export function revokeInvite(db: Db, id: number, nowIso: string) {
  return db
    .updateTable('staffInvites')
    .set({ usedAt: nowIso })
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', nowIso)
    .returning(['id', 'email', 'displayName', 'role', 'createdAt', 'expiresAt', 'invitedBy'])
    .executeTakeFirst();
}

/** Withdraws every unused invite an admin sent (they are deactivated or demoted); how many. */
export async function withdrawInvitesBy(db: Db, inviterId: number, at: string): Promise<number> {
  const rows = await db.updateTable('staffInvites').set({ usedAt: at }).where('invitedBy', '=', inviterId).where('usedAt', 'is', null).returning('id').execute();
  return rows.length;
}

/** Withdraws the unused invites of an email: the newest link mailed is the only one that works. */
export async function withdrawInvitesOf(db: Db, email: string, at: string): Promise<void> {
  await db.updateTable('staffInvites').set({ usedAt: at }).where('email', '=', email.toLowerCase()).where('usedAt', 'is', null).execute();
}

export async function insertInvite(
  db: Db,
  invite: { email: string; displayName: string; role: StaffRoleColumn; tokenHash: string; invitedBy: number; createdAt: string; expiresAt: string },
): Promise<number> {
  const row = await db
    .insertInto('staffInvites')
    .values({ ...invite, email: invite.email.toLowerCase() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An unused invite still valid at `nowIso`, with who sent it, for its mail. */
export function findOpenInvite(db: Db, id: number, nowIso: string) {
  return db
    .selectFrom('staffInvites')
    .leftJoin('admins', 'admins.id', 'staffInvites.invitedBy')
    .select([
      'staffInvites.email',
      'staffInvites.displayName',
      'staffInvites.role',
      'staffInvites.tokenHash',
      'staffInvites.createdAt',
      'admins.email as inviterEmail',
      'admins.displayName as inviterDisplayName',
    ])
    .where('staffInvites.id', '=', id)
    .where('staffInvites.usedAt', 'is', null)
    .where('staffInvites.expiresAt', '>', nowIso)
    .executeTakeFirst();
}

/** The unused, unexpired invite of this token hash whose sender is still an active admin, without spending it. */
export function findOpenInviteByToken(db: Db, tokenHash: string, nowIso: string) {
  return db
    .selectFrom('staffInvites')
    .innerJoin('admins as inviter', 'inviter.id', 'staffInvites.invitedBy')
    .select(['staffInvites.id', 'staffInvites.email', 'staffInvites.displayName', 'staffInvites.role'])
    .where('staffInvites.tokenHash', '=', tokenHash)
    .where('staffInvites.usedAt', 'is', null)
    .where('staffInvites.expiresAt', '>', nowIso)
    .where('inviter.role', '=', 'admin')
    .where('inviter.deactivatedAt', 'is', null)
    .executeTakeFirst();
}

/** Spends the invite of this token hash in one statement: of two uses racing, one wins. */
export function consumeInvite(db: Db, tokenHash: string, nowIso: string) {
  return db
    .updateTable('staffInvites')
    .set({ usedAt: nowIso })
    .where('tokenHash', '=', tokenHash)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', nowIso)
    .returning(['id', 'email', 'displayName', 'role', 'invitedBy'])
    .executeTakeFirst();
}

/** The account an invite makes; undefined when the email has one already. */
export function insertMember(db: Db, member: { email: string; displayName: string; role: StaffRoleColumn; passwordHash: string; at: string }) {
  return db
    .insertInto('admins')
    .values({
      email: member.email.toLowerCase(),
      displayName: member.displayName,
      role: member.role,
      passwordHash: member.passwordHash,
      createdAt: member.at,
      lastSignInAt: member.at,
    })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning(['id', 'email', 'credentialVersion'])
    .executeTakeFirst();
}
