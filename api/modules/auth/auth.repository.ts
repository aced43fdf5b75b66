import type { Db } from '../../../db/client';

// Emails are stored lower-case, so lookups compare with `=` and use the unique indexes.

export function findAdminByEmail(db: Db, email: string) {
  return db
    .selectFrom('admins')
    .select(['id', 'email', 'passwordHash', 'credentialVersion', 'role', 'displayName', 'deactivatedAt'])
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

export function findAdminById(db: Db, id: number) {
  return db.selectFrom('admins').select(['email', 'role', 'displayName']).where('id', '=', id).executeTakeFirst();
}

export async function markStaffSignedIn(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('admins').set({ lastSignInAt: at }).where('id', '=', id).execute();
}

export async function countAdmins(db: Db): Promise<number> {
  const row = await db.selectFrom('admins').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Creates the staff account unless the email has one (another process starting at the same time, say).
 * The accounts made here (the first one, ADMIN_EMAIL, admin:create) are admins.
 */
export async function insertAdminIfAbsent(db: Db, email: string, passwordHash: string, displayName: string | null = null): Promise<{ id: number } | undefined> {
  return db
    .insertInto('admins')
    .values({ email: email.toLowerCase(), passwordHash, role: 'admin', displayName, createdAt: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
}

/**
 * Creates the staff account, or sets its password if it exists, counting the change in its
 * credential version (which signs its sessions out). Insert first: two processes doing this at once
 * (several starting with ADMIN_EMAIL) both succeed, one creating, the other updating.
 */
export async function upsertAdmin(db: Db, email: string, passwordHash: string, displayName?: string): Promise<{ id: number; created: boolean }> {
  const inserted = await insertAdminIfAbsent(db, email, passwordHash, displayName);
  if (inserted) return { id: inserted.id, created: true };
  const updated = await db
    .updateTable('admins')
    .set((eb) => ({ passwordHash, credentialVersion: eb('credentialVersion', '+', 1), ...(displayName === undefined ? {} : { displayName }) }))
    .where('email', '=', email.toLowerCase())
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: updated.id, created: false };
}

/** A dealer by username, or by email (the login field takes either). */
export function findUserByLogin(db: Db, login: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'passwordHash', 'credentialVersion'])
    .where((eb) => eb.or([eb('username', '=', login), eb('email', '=', login.toLowerCase())]))
    .orderBy('id')
    .executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').select(['id', 'username', 'email']).where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export function findUserByUsername(db: Db, username: string) {
  return db.selectFrom('users').select(['id', 'username', 'email']).where('username', '=', username).executeTakeFirst();
}

export async function insertUser(db: Db, user: { username: string; email: string | null; passwordHash: string }) {
  return db
    .insertInto('users')
    .values({ username: user.username, email: user.email?.toLowerCase() ?? null, passwordHash: user.passwordHash, createdAt: new Date().toISOString() })
    .returning(['id', 'username', 'email'])
    .executeTakeFirstOrThrow();
}

/**
 * Sets the password of the dealer with this email and counts the change in its credential
 * version; undefined when there is no such dealer.
 */
export function setPasswordByEmail(db: Db, email: string, passwordHash: string) {
  return db
    .updateTable('users')
    .set((eb) => ({ passwordHash, credentialVersion: eb('credentialVersion', '+', 1) }))
    .where('email', '=', email.toLowerCase())
    .returning(['id', 'credentialVersion'])
    .executeTakeFirst();
}

/** Stores a reset link's hash; answers the row's id (the same link made twice at once is stored once). */
export async function insertPasswordReset(db: Db, reset: { email: string; tokenHash: string; createdAt: string; expiresAt: string }): Promise<number> {
  const inserted = await db
    .insertInto('passwordResets')
    .values({ email: reset.email.toLowerCase(), token: reset.tokenHash, expiresAt: reset.expiresAt, createdAt: reset.createdAt, used: 0 })
    // The same link made twice at once (two nodes in one millisecond) is stored once.
    .onConflict((conflict) => conflict.column('token').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return inserted.id;
  const stored = await db.selectFrom('passwordResets').select('id').where('token', '=', reset.tokenHash).executeTakeFirstOrThrow();
  return stored.id;
}

/** An unused reset still valid at `nowIso`, with its dealer's name, for its mail. */
export function findOpenReset(db: Db, id: number, nowIso: string) {
  return db
    .selectFrom('passwordResets')
    .innerJoin('users', 'users.email', 'passwordResets.email')
    .select(['passwordResets.email', 'passwordResets.token', 'passwordResets.createdAt', 'users.username'])
    .where('passwordResets.id', '=', id)
    .where('passwordResets.used', '=', 0)
    .where('passwordResets.expiresAt', '>', nowIso)
    .executeTakeFirst();
}

/** The newest unused reset of this email still valid after `validAfterIso`. */
export function latestOpenReset(db: Db, email: string, validAfterIso: string) {
  return db
    .selectFrom('passwordResets')
    .select(['id', 'email', 'token', 'createdAt'])
    .where('email', '=', email.toLowerCase())
    .where('used', '=', 0)
    .where('expiresAt', '>', validAfterIso)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The dealer an unused, unexpired reset of this token hash is for, without spending it. */
export function findDealerOfReset(db: Db, tokenHash: string, nowIso: string) {
  return db
    .selectFrom('passwordResets')
    .innerJoin('users', 'users.email', 'passwordResets.email')
    .select(['users.id', 'users.username', 'users.email'])
    .where('passwordResets.token', '=', tokenHash)
    .where('passwordResets.used', '=', 0)
    .where('passwordResets.expiresAt', '>', nowIso)
    .executeTakeFirst();
}

/** Spends the unused, unexpired reset of this token hash in one statement (two clicks cannot both win). */
export async function consumeReset(db: Db, tokenHash: string, nowIso: string): Promise<string | undefined> {
  const row = await db
    .updateTable('passwordResets')
    .set({ used: 1 })
    .where('token', '=', tokenHash)
    .where('used', '=', 0)
    .where('expiresAt', '>', nowIso)
    .returning('email')
    .executeTakeFirst();
  return row?.email;
}

/** Marks every reset of this email used: one reset spends all the links mailed before it. */
export async function useResetsOf(db: Db, email: string): Promise<void> {
  await db.updateTable('passwordResets').set({ used: 1 }).where('email', '=', email.toLowerCase()).where('used', '=', 0).execute();
}
