import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../db/client';
import { migrateToLatest } from '../db/migrate';
import { verifyPassword } from '../api/modules/auth/password';
import { runScript } from '../test/support/process';
import { startAppProcess } from './services/app-process';

describe('command-line tools', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-cli-'));
  const env = { DATABASE_PATH: join(dir, 'app.db'), DATA_DIR: dir };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const rows = async <T>(read: (db: ReturnType<typeof createDb>['db']) => Promise<T>): Promise<T> => {
    const { db } = createDb(env.DATABASE_PATH);
    try {
      return await read(db);
    } finally {
      await db.destroy();
    }
  };

  it('db:migrate creates the database, then finds it up to date', async () => {
    const first = await runScript('scripts/db-migrate.ts', [], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Applied 2026-11-21T0000_initial');
    const second = await runScript('scripts/db-migrate.ts', [], env);
    expect(second.stdout).toContain('is up to date');
  });

  it('admin:create creates an admin account from stdin with a display name, then resets its password from --password, never printing it', async () => {
    const created = await runScript('scripts/admin-create.ts', ['--email', 'Boss@Lotwise.example', '--name', 'The Boss'], env, 'stdin-secret-123\n');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Created staff account boss@lotwise.example');
    expect(created.stdout + created.stderr).not.toContain('stdin-secret-123');
    const hash = await rows((db) =>
      db.selectFrom('admins').select(['passwordHash', 'role', 'displayName']).where('email', '=', 'boss@lotwise.example').executeTakeFirstOrThrow(),
    );
    expect(await verifyPassword('stdin-secret-123', hash.passwordHash)).toBe(true);
    expect(hash).toMatchObject({ role: 'admin', displayName: 'The Boss' });

    const reset = await runScript('scripts/admin-create.ts', ['--email', 'boss@lotwise.example', '--password', 'flag-secret-456'], env);
    expect(reset.stdout).toContain('Reset the password of staff account boss@lotwise.example');
    expect(reset.stdout + reset.stderr).not.toContain('flag-secret-456');
    const after = await rows((db) => db.selectFrom('admins').select('passwordHash').where('email', '=', 'boss@lotwise.example').executeTakeFirstOrThrow());
    expect(await verifyPassword('flag-secret-456', after.passwordHash)).toBe(true);
  });

  it('admin:create and user:create refuse a common password and the account\'s own name, creating nothing', async () => {
    const common = await runScript('scripts/admin-create.ts', ['--email', 'weak@lotwise.example'], env, 'Baseball1\n');
    expect(common.code).toBe(1);
    expect(common.stderr.trim()).toBe('This password is too common: please choose one that is harder to guess');
    const ownName = await runScript('scripts/user-create.ts', ['--username', 'lakeside-autos', '--email', 'sales@lakeside.example', '--password', 'Lakeside-Autos'], env);
    expect(ownName.code).toBe(1);
    expect(ownName.stderr.trim()).toBe('Password must not be your username or email address');
    const created = await rows(async (db) => {
      await migrateToLatest(db);
      const admins = await db.selectFrom('admins').select('id').where('email', '=', 'weak@lotwise.example').execute();
      const users = await db.selectFrom('users').select('id').where('username', '=', 'lakeside-autos').execute();
      return [...admins, ...users];
    });
    expect(created).toEqual([]);
  });

  it('user:create creates a dealer and refuses a taken username, a short password and unknown options', async () => {
    const created = await runScript('scripts/user-create.ts', ['--username', 'reyes-motors', '--email', 'owner@reyes.example', '--password', 'dealer-pass-1'], env);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Created dealer account reyes-motors <owner@reyes.example>');
    const user = await rows((db) => db.selectFrom('users').selectAll().where('username', '=', 'reyes-motors').executeTakeFirstOrThrow());
    expect(user.email).toBe('owner@reyes.example');
    expect(await verifyPassword('dealer-pass-1', user.passwordHash)).toBe(true);

    const taken = await runScript('scripts/user-create.ts', ['--username', 'reyes-motors', '--password', 'dealer-pass-2'], env);
    expect(taken.code).toBe(1);
    expect(taken.stderr.trim()).toBe('A dealer named reyes-motors already exists');
    const short = await runScript('scripts/user-create.ts', ['--username', 'another'], env, 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr.trim()).toBe('Password must be at least 8 characters');
    const unknown = await runScript('scripts/user-create.ts', ['--name', 'x'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Unknown option '--name'");
  });

  it('a start with a common ADMIN_PASSWORD stops with a clear line', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'lotwise-weak-admin-'));
    try {
      const env = { DATABASE_PATH: join(fresh, 'app.db'), DATA_DIR: fresh, ADMIN_EMAIL: 'boss@lotwise.example', ADMIN_PASSWORD: 'qwerty123456' };
      const failure = await startAppProcess(env).then(
        () => 'started',
        (error: unknown) => String(error),
      );
      expect(failure).toContain('ADMIN_PASSWORD: This password is too common: please choose one that is harder to guess');
      // Told in words, not as a stack trace.
      expect(failure).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('a first start with no staff account prints a generated admin@localhost password once, and it signs in', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'lotwise-bootstrap-'));
    const serverEnv = { DATABASE_PATH: join(fresh, 'app.db'), DATA_DIR: fresh };
    try {
      const server = await startAppProcess(serverEnv);
      const printed = server.output().match(/email:\s+(admin@localhost)\s+password:\s+(\S+)/);
      expect(printed).not.toBeNull();
      const signIn = await fetch(`${server.url}/api/admin-login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: printed![1], password: printed![2] }),
      });
      expect(signIn.status).toBe(200);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);

      const again = await startAppProcess(serverEnv);
      expect(again.output()).not.toContain('admin@localhost');
      again.child.kill('SIGTERM');
      await again.exited;
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
