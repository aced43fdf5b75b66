import { writeOutsideTheApp } from '../api/events';
import { AccountError, createOrResetStaff } from '../api/modules/auth';
import { cliOptions, openDatabase, readPassword, runCli } from './cli';

/** `npm run admin:create -- --email E [--password P]`: creates a staff account or resets its password. */
runCli(async () => {
  const options = cliOptions(['email', 'password']);
  if (!options.email) throw new AccountError('Usage: npm run admin:create -- --email E [--password P]  (password from stdin when left out)');
  const password = options.password ?? (await readPassword(`Password for ${options.email}: `));
  const db = await openDatabase();
  try {
    const outcome = await createOrResetStaff(writeOutsideTheApp(db), options.email, password);
    console.log(outcome === 'created' ? `Created staff account ${options.email.toLowerCase()}` : `Reset the password of staff account ${options.email.toLowerCase()}`);
  } finally {
    await db.destroy();
  }
});
