import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { Db } from '../db/client';
import { connectDatabase } from '../db/open';
import { migrateToLatest } from '../db/migrate';
import { ConfigError, parseConfig } from '../api/config';
import { AccountError } from '../api/modules/auth/accounts';
import { BackupError } from '../db/backup';

/** Options of the account CLIs: `--email`, `--username`, `--password` (else read from stdin). */
export function cliOptions(names: readonly string[]): Record<string, string | undefined> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
    strict: true,
  });
  return values;
}

/**
 * The password from standard input: typed at a prompt that does not echo it, or piped in
 * (`printf '%s' "$PASSWORD" | npm run admin:create -- --email E`). Never logged.
 */
export async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  }
  process.stdout.write(prompt);
  const muted = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const reader = createInterface({ input: process.stdin, output: muted, terminal: true });
  const password = await new Promise<string>((resolve) => reader.question('', resolve));
  reader.close();
  process.stdout.write('\n');
  return password;
}

/** The configured database, migrated. */
export async function openDatabase(): Promise<Db> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = parseConfig(process.env);
  const db = connectDatabase(config.database);
  await migrateToLatest(db);
  return db;
}

/** Runs a CLI: expected failures print one line and exit 1, nothing else. */
export function runCli(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof AccountError || error instanceof ConfigError || error instanceof BackupError || (error instanceof TypeError && 'code' in error)) {
        console.error(error.message);
      } else {
        console.error(error);
      }
      process.exit(1);
    },
  );
}
