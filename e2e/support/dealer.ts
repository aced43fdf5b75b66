import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { workerServer } from './test';

/** A dealer account made the way an operator makes one: the compiled user:create CLI on the server's database. */
export function createDealer(username: string, email: string, password: string): void {
  const { dataDir } = workerServer();
  execFileSync('node', ['dist/server/user-create.js', '--username', username, '--email', email, '--password', password], {
    env: { ...process.env, DATABASE_PATH: join(dataDir, 'app.db'), DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    stdio: 'pipe',
  });
}
