import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseConfig } from '../api/config';
import { backupDatabase, BackupError } from '../db/backup';
import { runCli } from './cli';

/**
 * `npm run db:backup -- --out FILE`: a consistent copy of the SQLite database, taken while the server
 * runs (db/backup.ts). On PostgreSQL, `pg_dump` is the tool (README).
 */
runCli(async () => {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const { values } = parseArgs({ args: process.argv.slice(2), options: { out: { type: 'string' } }, strict: true });
  if (!values.out) throw new BackupError('Usage: npm run db:backup -- --out FILE');
  const { database } = parseConfig(process.env);
  if (database.url) throw new BackupError('DATABASE_URL is PostgreSQL: back it up with pg_dump (see README, "Backups")');
  const pages = await backupDatabase(database.path, values.out);
  console.log(`Backed up ${database.path} to ${values.out} (${pages} pages)`);
});
