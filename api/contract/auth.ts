import { z } from 'zod';
import { controlCharacterMessage, emailField, emailMessage, hasRefusedCharacters, signedLinkToken } from './common';
import { displayNameProblem } from './display-name';

/** Dealer login: username or email, and password; only non-empty is required. */
export const dealerLoginSchema = z.object({
  // No control characters: no account has them, and PostgreSQL refuses a NUL in any text.
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(254, 'Username is too long')
    .refine((value) => !hasRefusedCharacters(value), controlCharacterMessage),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200, 'Password is too long'),
});
export type DealerLoginInput = z.infer<typeof dealerLoginSchema>;

/**
 * A staff email as a browser's `type=email` accepts it: the generated first account is
 * `admin@localhost` (the account made at first start), which has no dot in its domain.
 */
export const staffEmailSchema = z.email({ pattern: z.regexes.html5Email, error: emailMessage });

/** Staff login: the payload names the email `username`, as the first version of the API did. */
export const adminLoginSchema = z.object({
  username: z.string({ error: emailMessage }).trim().max(254, emailMessage).pipe(staffEmailSchema),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200, 'Password is too long'),
});
export type AdminLoginInput = z.infer<typeof adminLoginSchema>;

export const forgotPasswordSchema = z.object({ email: emailField });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;
export const forgotPasswordAnswer =
  'If there is an account associated with that email, then a reset link has been sent';

export const passwordMinLength = 8;
export const passwordTooShortMessage = `Password must be at least ${passwordMinLength} characters`;
/** Rules only the server checks (its list of common passwords never reaches the browser). */
export const commonPasswordMessage = 'This password is too common: please choose one that is harder to guess';
export const passwordIsIdentityMessage = 'Password must not be your username or email address';
export const resetPasswordSchema = z.object({
  token: signedLinkToken('This reset link is invalid or has expired'),
  password: z
    .string({ error: passwordTooShortMessage })
    .min(passwordMinLength, passwordTooShortMessage)
    .max(200, 'Password must be at most 200 characters'),
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;
export const resetPasswordFormSchema = resetPasswordSchema
  .extend({ confirmPassword: z.string({ error: 'Please confirm your password' }) })
  .refine((form) => form.password === form.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

export const invalidCredentialsMessage = 'Invalid username or password';
export const notAuthenticatedMessage = 'Not authenticated';
/** A staff route only admins may call (an agent's 403). */
export const adminsOnlyMessage = 'Only admins can do this';

/** What a staff member may do: an admin everything; an agent works the inbox (the team inbox draws the line). */
export const staffRoles = ['admin', 'agent'] as const;
export const staffRoleSchema = z.enum(staffRoles);
export type StaffRole = z.infer<typeof staffRoleSchema>;

export const staffDisplayNameMaxLength = 100;
/**
 * A display name as it may be chosen now (an invite, a rename, `npm run admin:create -- --name`):
 * the rules of api/contract/display-name.ts. Whether it looks like another member's is the server's
 * check (it knows the team): `displayNameTakenMessage`.
 */
export const staffDisplayNameSchema = z
  .string({ error: 'Display name cannot be empty' })
  .trim()
  .min(1, 'Display name cannot be empty')
  .max(staffDisplayNameMaxLength, `Display name must be at most ${staffDisplayNameMaxLength} characters`)
  .refine((value) => !hasRefusedCharacters(value), { message: controlCharacterMessage, abort: true })
  .superRefine((value, context) => {
    const problem = displayNameProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** The name other staff see for an account: the one chosen, else the part of the email before the @. */
export function staffDisplayName(account: { email: string; displayName: string | null }): string {
  if (account.displayName) return account.displayName;
  const at = account.email.indexOf('@');
  return at > 0 ? account.email.slice(0, at) : account.email;
}

/** The signed-in staff member, as the account calls show it. */
export const staffAccountSchema = z.object({ email: z.string(), role: staffRoleSchema, displayName: z.string() });
export type StaffAccount = z.infer<typeof staffAccountSchema>;

export const sessionSchema = z.object({
  admin: staffAccountSchema.nullable(),
  dealer: z.object({ username: z.string() }).nullable(),
  staffIdleMinutes: z.number(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;

export const dealerLoginAnswerSchema = z.object({
  message: z.string(),
  user: z.object({ id: z.number(), username: z.string() }),
});
export const adminLoginAnswerSchema = z.object({
  message: z.string(),
  admin: staffAccountSchema,
  staffIdleMinutes: z.number(),
});
