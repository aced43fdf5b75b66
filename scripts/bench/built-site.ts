import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp } from '../../api/app';
import { parseConfig } from '../../api/config';

/**
 * The built SPA served by the real server on a throwaway database and a free port, as the browser
 * benchmarks load it. Builds first unless `--no-build` is given. `close()` stops it and removes its files.
 */
export async function startBuiltSite(name: string): Promise<{ origin: string; dir: string; close(): Promise<void> }> {
  if (!process.argv.includes('--no-build')) {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  }
  const dir = mkdtempSync(join(tmpdir(), `lotwise-bench-${name}-`));
  const config = {
    ...parseConfig({
      NODE_ENV: 'production',
      DATABASE_PATH: join(dir, 'app.db'),
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      // A throwaway staff account, so start does not print a generated one.
      ADMIN_EMAIL: 'bench@lotwise.example',
      ADMIN_PASSWORD: 'bench-password-0123456789',
    }),
    sessionSecret: 'bench-session-secret-that-is-long-enough-0123456789',
  };
  const app = await buildApp(config, { webRoot: resolve('dist/web') });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    dir,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
