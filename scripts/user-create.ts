import { writeOutsideTheApp } from '../api/events';
import { AccountError, createDealer } from '../api/modules/auth';
import { cliOptions, openDatabase, readPassword, runCli } from './cli';

/** `npm run user:create -- --username U [--email E] [--password P]`: creates a dealer account. */
runCli(async () => {
  const options = cliOptions(['username', 'email', 'password']);
  if (!options.username) {
    throw new AccountError('Usage: npm run user:create -- --username U [--email E] [--password P]  (password from stdin when left out)');
  }
  const password = options.password ?? (await readPassword(`Password for ${options.username}: `));
  const db = await openDatabase();
  try {
    const user = await createDealer(db, writeOutsideTheApp(db), { username: options.username, email: options.email, password });
    console.log(`Created dealer account ${user.username}${user.email ? ` <${user.email}>` : ''}`);
  } finally {
    await db.destroy();
  }
});
