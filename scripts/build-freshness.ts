import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Whether `dist/` was built from the source as it is now: the tests and the browser tests read the one
 * build (`npm run build`, which `npm ci` runs through `prepare` and `npm test` runs again only when the
 * build is missing or older than the source), never building their own.
 *
 * A part is stale when its output is missing or a file it is built from changed after it was written
 * (modification times: a checkout or an edit makes a file newer than the build). Test files are no input.
 */
const repositoryRoot = resolve(import.meta.dirname, '..');

export type BuildPart = 'web' | 'server';

const parts: Record<BuildPart, { output: string; inputs: string[]; command: string }> = {
  web: {
    output: 'dist/web/index.html',
    inputs: ['web', 'api/contract', 'scripts/vite', 'scripts/og-image', 'vite.config.ts', 'package-lock.json'],
    command: 'npx vite build',
  },
  server: {
    output: 'dist/server/server.js',
    inputs: ['api', 'db', 'scripts/services', 'scripts/cli.ts', 'scripts/admin-create.ts', 'scripts/user-create.ts', 'scripts/db-migrate.ts', 'scripts/db-backup.ts', 'scripts/db-restore.ts', 'package.json', 'package-lock.json'],
    command: 'npm run build:server',
  },
};

const isTest = (name: string) => /\.(test|spec)\.tsx?$/.test(name) || name === 'test';

/** The newest modification time under `path` (a file or a folder), test files and folders left out, and which file has it. */
function newest(path: string): { file: string; at: number } | undefined {
  if (!existsSync(path)) return undefined;
  const stat = statSync(path);
  if (!stat.isDirectory()) return { file: path, at: stat.mtimeMs };
  let found: { file: string; at: number } | undefined;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (isTest(entry.name) || entry.name === 'node_modules') continue;
    const inner = newest(join(path, entry.name));
    if (inner && (!found || inner.at > found.at)) found = inner;
  }
  return found;
}

/** Why `part` of dist/ cannot be used as it is (missing, or older than a source file), or undefined when it is fresh. */
export function staleBuild(part: BuildPart): string | undefined {
  const { output, inputs } = parts[part];
  const built = join(repositoryRoot, output);
  if (!existsSync(built)) return `${output} is missing`;
  const builtAt = statSync(built).mtimeMs;
  for (const input of inputs) {
    const changed = newest(join(repositoryRoot, input));
    if (changed && changed.at > builtAt) return `${changed.file.slice(repositoryRoot.length + 1)} changed after ${output} was built`;
  }
  return undefined;
}

/** Throws, saying what to run, unless `part` of dist/ is fresh: a test reading the build fails clearly rather than testing a stale one. */
export function requireFreshBuild(part: BuildPart): void {
  const stale = staleBuild(part);
  if (stale) throw new Error(`The ${part} build is not usable: ${stale}. Run \`npm run build\` (or \`${parts[part].command}\`), or \`npm test\`, which builds when needed.`);
}
