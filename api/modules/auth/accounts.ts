import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../../../db/client';
import { endSignInsOf } from '../../../db/session-store';
import { ConfigError } from '../../config';
import { staffDisplayNameSchema, staffEmailSchema } from '../../contract/auth';
import type { Write } from '../../events';
import * as repository from './auth.repository';
import { hashPassword, verifyPassword } from './password';
import { newPasswordProblem } from './password-rules';

export class AccountError extends Error {}

const emailSchema = z.email();
const usernameSchema = z.string().trim().regex(/^[A-Za-z0-9._@-]{3,64}$/);

async function checkPassword(password: string, account: { username?: string; email?: string }): Promise<void> {
  const problem = await newPasswordProblem(password, account);
  if (problem) throw new AccountError(problem);
}

/**
 * Creates a staff account, an admin, or resets its password when the email already has one: then
 * every session signed in with the old password ends, and its dashboard sockets close at the
 * server's next session check. A display name given is set too; none keeps the account's.
 */
export async function createOrResetStaff(
  write: Write,
  email: string,
  password: string,
  options: { displayName?: string } = {},
): Promise<'created' | 'updated'> {
  if (!staffEmailSchema.safeParse(email).success) throw new AccountError(`Not an email address: ${email}`);
  const displayName = options.displayName === undefined ? undefined : staffDisplayNameSchema.safeParse(options.displayName);
  if (displayName && !displayName.success) throw new AccountError(displayName.error.issues[0]?.message ?? 'Invalid display name');
  await checkPassword(password, { email });
  const passwordHash = await hashPassword(password);
  const { created } = await write(async (tx) => {
    const admin = await repository.upsertAdmin(tx.db, email, passwordHash, displayName?.data);
    if (!admin.created) await endSignInsOf(tx.db, { adminId: admin.id });
    tx.emit({ type: 'staff.changed', staffId: admin.id, change: admin.created ? 'created' : 'password-reset' });
    return admin;
  });
  return created ? 'created' : 'updated';
}

/** Creates a dealer account; the username and the email must both be free. */
export async function createDealer(db: Db, write: Write, input: { username: string; email?: string; password: string }) {
  const username = input.username.trim();
  if (!usernameSchema.safeParse(username).success) {
    throw new AccountError('Username must be 3-64 letters, digits, dots, dashes, underscores or @');
  }
  if (input.email !== undefined && !emailSchema.safeParse(input.email).success) throw new AccountError(`Not an email address: ${input.email}`);
  await checkPassword(input.password, { username, email: input.email });
  if (await repository.findUserByUsername(db, username)) throw new AccountError(`A dealer named ${username} already exists`);
  if (input.email && (await repository.findUserByEmail(db, input.email))) throw new AccountError(`A dealer with email ${input.email} already exists`);
  const passwordHash = await hashPassword(input.password);
  return write((tx) => repository.insertUser(tx.db, { username, email: input.email ?? null, passwordHash }));
}

export interface BootstrapOptions {
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** Where the one-time password goes: the console of the person starting the server. */
  announce: (text: string) => void;
}

/**
 * At start: the staff account of `ADMIN_EMAIL`/`ADMIN_PASSWORD` (created, or its password reset when it differs);
 * otherwise, when no staff account exists at all, `admin@localhost` with a random password shown once.
 */
export async function bootstrapStaff(db: Db, write: Write, options: BootstrapOptions): Promise<void> {
  if (options.adminEmail && options.adminPassword) {
    const problem = await newPasswordProblem(options.adminPassword, { email: options.adminEmail });
    if (problem) throw new ConfigError(`Invalid configuration:\n  ADMIN_PASSWORD: ${problem}`);
    // Every start runs this: an unchanged password is left alone, so a restart signs nobody out.
    const existing = await repository.findAdminByEmail(db, options.adminEmail);
    if (existing && (await verifyPassword(options.adminPassword, existing.passwordHash))) return;
    await createOrResetStaff(write, options.adminEmail, options.adminPassword);
    return;
  }
  if ((await repository.countAdmins(db)) > 0) return;
  const email = 'admin@localhost';
  const password = randomBytes(12).toString('base64url');
  // Created only if absent: of several processes starting at once, one makes it and tells its password.
  const passwordHash = await hashPassword(password);
  const created = await write(async (tx) => {
    const admin = await repository.insertAdminIfAbsent(tx.db, email, passwordHash);
    if (admin) tx.emit({ type: 'staff.changed', staffId: admin.id, change: 'created' });
    return admin;
  });
  if (!created) return;
  options.announce(
    [
      '',
      '  A staff account was created for the admin dashboard (/admin):',
      `    email:    ${email}`,
      `    password: ${password}`,
      '  This password is shown only once. Change it with: npm run admin:create -- --email admin@localhost',
      '',
    ].join('\n'),
  );
}
