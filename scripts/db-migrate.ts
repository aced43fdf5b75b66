import { existsSync } from 'node:fs';
import { connectDatabase, describeDatabase } from '../db/open';
import { migrateToLatest } from '../db/migrate';
import { parseConfig } from '../api/config';
import { runCli } from './cli';

/** `npm run db:migrate`: brings the database (DATABASE_URL, else DATABASE_PATH) to the latest schema (start does this too). */
runCli(async () => {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = parseConfig(process.env);
  const db = connectDatabase(config.database);
  const where = describeDatabase(config.database);
  try {
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `Applied ${applied.join(', ')} to ${where}` : `${where} is up to date`);
  } finally {
    await db.destroy();
  }
});
