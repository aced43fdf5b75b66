import { writeOutsideTheApp } from '../api/events';
import { AccountError, createOrResetStaff } from '../api/modules/auth';
import { cliOptions, openDatabase, readPassword, runCli } from './cli';

/**
 * `npm run admin:create -- --email E [--password P] [--name N]`: creates a staff account (an admin) or
 * resets its password; `--name` sets the display name other staff see (else the email's part before the @).
 */
runCli(async () => {
  const options = cliOptions(['email', 'password', 'name']);
  if (!options.email) {
    throw new AccountError('Usage: npm run admin:create -- --email E [--password P] [--name N]  (password from stdin when left out)');
  }
  const password = options.password ?? (await readPassword(`Password for ${options.email}: `));
  const db = await openDatabase();
  try {
    const outcome = await createOrResetStaff(writeOutsideTheApp(db), options.email, password, { displayName: options.name });
    console.log(outcome === 'created' ? `Created staff account ${options.email.toLowerCase()}` : `Reset the password of staff account ${options.email.toLowerCase()}`);
  } finally {
    await db.destroy();
  }
});
