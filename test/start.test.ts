import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadPaths } from '../api/contract/paths';
import { validInput } from './support/factories';
import { runNode } from './support/process';
import { requireFreshBuild } from '../scripts/build-freshness';
import { startAppProcess } from '../scripts/services/app-process';

interface PackageJson {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
}

const project = JSON.parse(readFileSync('package.json', 'utf8')) as PackageJson;
const commands = { 'db:migrate': 'db-migrate', 'admin:create': 'admin-create', 'user:create': 'user-create' };

/** The packages a built file imports: `import … from "x"`, `import "x"` and `import("x")`, relative paths left out. */
function importedPackages(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  // `from "x"` after a space or brace: not the string "from" in a list of field names (`path: ["from"]`).
  const specifiers = [...source.matchAll(/(?:(?<=[\s}])from\s*|\bimport\s*\(?\s*)"([^"./][^"]*)"/g)].map((match) => match[1]!);
  return [...new Set(specifiers.map((specifier) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2) : specifier.split('/').slice(0, 1)).join('/')))];
}

describe('npm start and the operator commands run compiled JavaScript', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-start-'));
  const env = { DATABASE_PATH: join(dir, 'app.db'), DATA_DIR: dir, LOG_LEVEL: 'warn' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // What `npm ci` runs through `prepare` (`npm run build`), read from dist/, never built here.
  beforeAll(() => requireFreshBuild('server'));

  it('builds with npm ci and starts without a TypeScript loader', () => {
    expect(project.scripts.prepare).toBe('npm run build');
    expect(project.scripts.build).toContain('npm run build:server');
    expect(project.scripts.start).toBe('node dist/server/server.js');
    for (const [command, file] of Object.entries(commands)) expect(project.scripts[command]).toBe(`node dist/server/${file}.js`);
  });

  it('imports nothing at run time but Node and the dependencies (no tsx, nothing of devDependencies)', () => {
    const node = new Set(builtinModules);
    for (const file of ['server', ...Object.values(commands)]) {
      const outside = importedPackages(`dist/server/${file}.js`).filter((name) => !name.startsWith('node:') && !node.has(name) && !(name in project.dependencies));
      expect(outside, file).toEqual([]);
    }
  });

  it('serves the API from the compiled server, its migrations inside it, and closes on SIGTERM', async () => {
    const server = await startAppProcess(env, [], 'compiled');
    try {
      expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({ ok: true });
      const lead = await fetch(`${server.url}${leadPaths.contact.create}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(validInput.contact()),
      });
      expect(lead.status).toBe(201);
    } finally {
      server.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      await server.stop();
    }
  });

  it('runs db:migrate, admin:create and user:create compiled', async () => {
    const migrated = await runNode(['dist/server/db-migrate.js'], env);
    expect(migrated.stdout).toContain('is up to date');
    const staff = await runNode(['dist/server/admin-create.js', '--email', 'boss@lotwise.example'], env, 'a-staff-password-123\n');
    expect(staff.stdout).toContain('Created staff account boss@lotwise.example');
    const dealer = await runNode(['dist/server/user-create.js', '--username', 'northside', '--password', 'a-dealer-password-123'], env);
    expect(dealer.stdout).toContain('Created dealer account northside');
  });
});
