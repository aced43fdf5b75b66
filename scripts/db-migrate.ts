import { existsSync } from 'node:fs';
import { createDb } from '../db/client';
import { migrateToLatest } from '../db/migrate';
import { parseConfig } from '../api/config';
import { runCli } from './cli';

/** `npm run db:migrate`: brings DATABASE_PATH to the latest schema (start does this too). */
runCli(async () => {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = parseConfig(process.env);
  const { db } = createDb(config.databasePath);
  try {
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `Applied ${applied.join(', ')} to ${config.databasePath}` : `${config.databasePath} is up to date`);
  } finally {
    await db.destroy();
  }
});
