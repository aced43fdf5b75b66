// @scaled: several processes bootstrapping at once (PostgreSQL only)
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../db/migrate';
import { onPostgres, testDatabaseOpener } from '../../../test/support/database';
import { writeOutsideTheApp } from '../../events';
import { bootstrapStaff } from './accounts';
import { verifyPassword } from './password';

// Several server processes starting at once against one database: PostgreSQL's case (SQLite serves one process).
describe.skipIf(!onPostgres)('staff bootstrap when several processes start at once (PostgreSQL)', async () => {
  it('creates the ADMIN_EMAIL account once, and every process starts', async () => {
    const open = await testDatabaseOpener('bootstrap-admin-email');
    const processes = [open(), open(), open(), open()];
    await Promise.all(processes.map((db) => migrateToLatest(db)));
    const options = { adminEmail: 'boss@lotwise.example', adminPassword: 'a-long-staff-password-1', announce: () => undefined };
    await Promise.all(processes.map((db) => bootstrapStaff(db, writeOutsideTheApp(db), options)));
    const admins = await processes[0]!.selectFrom('admins').select(['email', 'passwordHash']).execute();
    expect(admins.map((admin) => admin.email)).toEqual(['boss@lotwise.example']);
    expect(await verifyPassword(options.adminPassword, admins[0]!.passwordHash)).toBe(true);
  });

  it('generates admin@localhost once, and only the process that made it shows a password, the one that signs in', async () => {
    const open = await testDatabaseOpener('bootstrap-generated');
    const processes = [open(), open(), open(), open()];
    await Promise.all(processes.map((db) => migrateToLatest(db)));
    const announced: string[] = [];
    const options = { adminEmail: undefined, adminPassword: undefined, announce: (text: string) => void announced.push(text) };
    await Promise.all(processes.map((db) => bootstrapStaff(db, writeOutsideTheApp(db), options)));
    const admins = await processes[0]!.selectFrom('admins').select(['email', 'passwordHash']).execute();
    expect(admins.map((admin) => admin.email)).toEqual(['admin@localhost']);
    expect(announced).toHaveLength(1);
    const password = /password: (\S+)/.exec(announced[0]!)?.[1] ?? '';
    expect(await verifyPassword(password, admins[0]!.passwordHash)).toBe(true);
  });
});
