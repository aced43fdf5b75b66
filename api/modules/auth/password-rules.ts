import { commonPasswordMessage, passwordIsIdentityMessage, passwordMinLength, passwordTooShortMessage } from '../../contract/auth';

let commonPasswords: Promise<ReadonlySet<string>> | undefined;

/**
 * zxcvbn-ts's list of common passwords (about 49,000 from breach corpora, lower-cased), as a Set
 * built once, on the first password it has to judge: server start and sign-in never pay for it.
 */
function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common']));
  return commonPasswords;
}

const comparable = (text: string) => text.normalize('NFKC').trim().toLowerCase();

/**
 * Why a new password is refused, or undefined when it will do: too short, the account's own
 * username, email or the email's local part (in any case), or one of the common passwords.
 */
export async function newPasswordProblem(
  password: string,
  account: { username?: string | null; email?: string | null },
): Promise<string | undefined> {
  if (password.length < passwordMinLength) return passwordTooShortMessage;
  const candidate = comparable(password);
  const email = account.email ? comparable(account.email) : undefined;
  const own = [account.username ? comparable(account.username) : undefined, email, email?.split('@')[0]];
  if (own.includes(candidate)) return passwordIsIdentityMessage;
  if ((await loadCommonPasswords()).has(candidate)) return commonPasswordMessage;
  return undefined;
}
