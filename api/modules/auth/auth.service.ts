import type { Db } from '../../../db/client';
import { endSignInsOf } from '../../../db/session-store';
import { type StaffAccount, staffDisplayName } from '../../contract/auth';
import { linkPurpose, signLink, tokenHash } from '../../lib/signed-link';
import { HttpError } from '../../plugins/errors';
import type { Write } from '../../events';
import { recordAudit } from '../audit';
import * as repository from './auth.repository';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password';
import { newPasswordProblem } from './password-rules';

export const resetTokenLifetimeMs = 60 * 60 * 1000;

/** A sign-in: the account, and its credential version to stamp into the session. */
export interface SignedInDealer {
  id: number;
  username: string;
  credentialVersion: number;
}
export interface SignedInStaff {
  id: number;
  email: string;
  credentialVersion: number;
  /** The account as the account calls show it. */
  account: StaffAccount;
}

/** A staff account as the account calls show it: email, role and display name. */
function toStaffAccount(admin: { email: string; role: StaffAccount['role']; displayName: string | null }): StaffAccount {
  return { email: admin.email, role: admin.role, displayName: staffDisplayName(admin) };
}

/** The staff account of a session's sign-in, read now (a role or name changed since sign-in shows); undefined once it is gone. */
export async function staffAccountOf(db: Db, staffId: number): Promise<StaffAccount | undefined> {
  const admin = await repository.findAdminById(db, staffId);
  return admin && toStaffAccount(admin);
}

/**
 * Checks a password against an account, or against a decoy hash when there is no such account,
 * so a failed sign-in takes about as long either way and does not reveal who has an account.
 */
async function passwordMatches(passwordHash: string | undefined, password: string): Promise<boolean> {
  const matches = await verifyPassword(password, passwordHash ?? (await decoyPasswordHash()));
  return Boolean(passwordHash) && matches;
}

/**
 * A typed login resolved to the account it names, before its password is checked. `limitKey`
 * counts failed sign-ins per account however the login was typed (a dealer's username or email);
 * a login that names no account is keyed on its normalized self, so guessing unknown logins is
 * limited the same way and costs the same time.
 */
export interface SignInTarget<Account> {
  limitKey: string;
  account: Account | undefined;
}

function targetOf<Account extends { id: number }>(account: Account | undefined, typed: string): SignInTarget<Account> {
  return { limitKey: account ? `account:${account.id}` : `unknown:${typed.trim().toLowerCase()}`, account };
}

export async function findDealerSignIn(db: Db, login: string) {
  return targetOf(await repository.findUserByLogin(db, login), login);
}

export async function findStaffSignIn(db: Db, email: string) {
  return targetOf(await repository.findAdminByEmail(db, email), email);
}

/** The signed-in dealer when the password opens the target account, else null. */
export async function signInDealer(
  target: SignInTarget<SignedInDealer & { passwordHash: string }>,
  password: string,
): Promise<SignedInDealer | null> {
  const user = target.account;
  if (!(await passwordMatches(user?.passwordHash, password)) || !user) return null;
  return { id: user.id, username: user.username, credentialVersion: user.credentialVersion };
}

/** The signed-in staff member when the password opens the target account, else null. */
export async function signInStaff(
  target: SignInTarget<Omit<SignedInStaff, 'account'> & { passwordHash: string; role: StaffAccount['role']; displayName: string | null }>,
  password: string,
): Promise<SignedInStaff | null> {
  const admin = target.account;
  if (!(await passwordMatches(admin?.passwordHash, password)) || !admin) return null;
  return { id: admin.id, email: admin.email, credentialVersion: admin.credentialVersion, account: toStaffAccount(admin) };
}

/** A staff sign-in as the Team screen and the audit log see it: the time, and an entry, in one write. */
export async function recordStaffSignIn(write: Write, staffId: number): Promise<void> {
  await write(async (tx) => {
    await repository.markStaffSignedIn(tx.db, staffId, new Date().toISOString());
    await recordAudit(tx, { actorId: staffId, action: 'staff.signed-in' });
  });
}

/** Records a sign-out; its event closes that sign-in's dashboard sockets on every node (chat.staff-expiry.ts). */
export async function recordStaffSignOut(write: Write, staffId: number, sessionId: string): Promise<void> {
  await write(async (tx) => {
    await recordAudit(tx, { actorId: staffId, action: 'staff.signed-out' });
    tx.emit({ type: 'staff.signed-out', staffId, sessionId });
  });
}

/** A link with less than this left is not sent again: the dealer gets a new one with a full hour. */
const resendableForMs = 15 * 60 * 1000;

/** A mailed password-reset link: works once (its hash is stored and spent), for an hour. */
const resetLink = linkPurpose({ purpose: 'password-reset', fields: ['email', 'createdAt'], lifetimeSeconds: resetTokenLifetimeMs / 1000 });

/**
 * A reset link's token, derived from its row with a key only the server holds, so the latest link
 * can be mailed again while the database keeps only the token's hash.
 */
function resetToken(linkSecret: string, reset: { email: string; createdAt: string }): string {
  return signLink(linkSecret, resetLink, { email: reset.email, createdAt: reset.createdAt }, Date.parse(reset.createdAt));
}

/**
 * Promises a reset-link mail if a dealer has this email and `mayMail` allows one more mail to that
 * dealer; says nothing either way (the route answers the same sentence). The latest link that still
 * has a while to run is sent again rather than a new one made, so however many requests strangers
 * make, the dealer's mailbox holds one working link. Only the token's SHA-256 is stored; the mail
 * is a job (`password-reset.requested`, auth/index.ts) that derives the link again from the row.
 */
export async function requestPasswordReset(
  db: Db,
  write: Write,
  options: { linkSecret: string; email: string; mayMail: (dealerId: number) => Promise<boolean> },
): Promise<void> {
  const { linkSecret } = options;
  const user = await repository.findUserByEmail(db, options.email);
  if (!user?.email || !(await options.mayMail(user.id))) return;
  const email = user.email;
  const now = Date.now();
  const latest = await repository.latestOpenReset(db, email, new Date(now + resendableForMs).toISOString());
  await write(async (tx) => {
    let resetId = latest?.id;
    // A link made under another secret cannot be derived again: make a new one.
    if (!latest || tokenHash(resetToken(linkSecret, latest)) !== latest.token) {
      const createdAt = new Date(now).toISOString();
      resetId = await repository.insertPasswordReset(tx.db, {
        email,
        tokenHash: tokenHash(resetToken(linkSecret, { email, createdAt })),
        createdAt,
        expiresAt: new Date(now + resetTokenLifetimeMs).toISOString(),
      });
    }
    tx.emit({ type: 'password-reset.requested', resetId: resetId! });
  });
}

/**
 * The reset mail of a reset row, as its job sends it: undefined when there is nothing to send any
 * more (the link was used, expired, or made under another secret).
 */
export async function resetMailOf(
  db: Db,
  options: { publicUrl: string; linkSecret: string; resetId: number },
): Promise<{ to: string; subject: string; text: string } | undefined> {
  const reset = await repository.findOpenReset(db, options.resetId, new Date().toISOString());
  if (!reset) return undefined;
  const token = resetToken(options.linkSecret, reset);
  if (tokenHash(token) !== reset.token) return undefined;
  const link = `${options.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return {
    to: reset.email,
    subject: 'Reset your Lotwise password',
    text: [
      `Hello ${reset.username},`,
      '',
      'Someone asked to reset the password of your Lotwise dealer account. To choose a new password, open this link within one hour:',
      '',
      link,
      '',
      'The link works once. If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}

/**
 * Sets a new password from a reset token and ends the dealer's other sessions (all but
 * `currentSid`, the session making the change). Null when the token is unknown, used or expired;
 * else the dealer and their new credential version. A password the rules refuse is a 400 on the
 * `password` field, and leaves the link unspent for a better one.
 */
export async function resetPassword(
  db: Db,
  write: Write,
  token: string,
  password: string,
  currentSid?: string,
): Promise<{ dealerId: number; credentialVersion: number } | null> {
  // A revocable link is found by its hash: a forged token's matches no row.
  const hash = tokenHash(token);
  const dealer = await repository.findDealerOfReset(db, hash, new Date().toISOString());
  if (!dealer) return null;
  const problem = await newPasswordProblem(password, dealer);
  if (problem) throw new HttpError(400, 'Validation failed', { password: problem });
  const passwordHash = await hashPassword(password);
  // Spent in one statement: of two clicks racing here, one wins.
  return write(async (tx) => {
    const email = await repository.consumeReset(tx.db, hash, new Date().toISOString());
    if (!email) return null;
    const dealer = await repository.setPasswordByEmail(tx.db, email, passwordHash);
    if (!dealer) return null;
    await repository.useResetsOf(tx.db, email);
    await endSignInsOf(tx.db, { dealerId: dealer.id }, currentSid);
    return { dealerId: dealer.id, credentialVersion: dealer.credentialVersion };
  });
}
