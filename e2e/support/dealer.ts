import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Where the server under test keeps its data (playwright.config.ts). */
export const e2eDataDir = '.e2e-data';

/** A dealer account made the way an operator makes one: the compiled user:create CLI on the server's database. */
export function createDealer(username: string, email: string, password: string): void {
  execFileSync('node', ['dist/server/user-create.js', '--username', username, '--email', email, '--password', password], {
    env: { ...process.env, DATABASE_PATH: join(e2eDataDir, 'app.db'), DATA_DIR: e2eDataDir, LOG_LEVEL: 'silent' },
    stdio: 'pipe',
  });
}
