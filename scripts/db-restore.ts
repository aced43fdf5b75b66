import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseConfig } from '../api/config';
import { BackupError, restoreDatabase } from '../db/backup';
import { runCli } from './cli';

/**
 * `npm run db:restore -- --from FILE`: puts a backup in place of the SQLite database, with the server
 * stopped (refused while it runs). On PostgreSQL, `pg_restore` is the tool (README).
 */
runCli(async () => {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const { values } = parseArgs({ args: process.argv.slice(2), options: { from: { type: 'string' } }, strict: true });
  if (!values.from) throw new BackupError('Usage: npm run db:restore -- --from FILE');
  const { database } = parseConfig(process.env);
  if (database.url) throw new BackupError('DATABASE_URL is PostgreSQL: restore it with pg_restore (see README, "Backups")');
  restoreDatabase(database.path, values.from);
  console.log(`Restored ${values.from} to ${database.path}; the server may start`);
});
