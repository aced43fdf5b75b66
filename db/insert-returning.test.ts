import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from './client';
import { insertReturning } from './insert-returning';
import { migrateToLatest } from './migrate';

describe('insertReturning', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lotwise-db-'));
  const { db } = createDb(join(dir, 'app.db'));
  await migrateToLatest(db);
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const stamps = { createdAt: '2026-11-21T10:00:00.000Z', updatedAt: '2026-11-21T10:00:00.000Z' };

  it('stores each column shape with its own values and returns camelCase rows', async () => {
    const withPhone = await insertReturning(db, 'demoRequests', { name: 'Ana', email: 'ana@a.example', company: 'A Autos', phone: '5125550101', ...stamps });
    const withoutPhone = await insertReturning(db, 'demoRequests', { name: 'Bo', email: 'bo@b.example', company: 'B Autos', phone: undefined, message: 'Call me', ...stamps });
    const again = await insertReturning(db, 'demoRequests', { name: 'Cy', email: 'cy@c.example', company: 'C Autos', phone: '5125550103', ...stamps });

    expect(withPhone).toMatchObject({ name: 'Ana', phone: '5125550101', message: null, status: 'new', createdAt: stamps.createdAt });
    expect(withoutPhone).toMatchObject({ name: 'Bo', phone: null, message: 'Call me' });
    expect(again).toMatchObject({ name: 'Cy', phone: '5125550103', message: null });
    const stored = await db.selectFrom('demoRequests').select(['name', 'phone', 'message']).orderBy('id').execute();
    expect(stored).toEqual([
      { name: 'Ana', phone: '5125550101', message: null },
      { name: 'Bo', phone: null, message: 'Call me' },
      { name: 'Cy', phone: '5125550103', message: null },
    ]);
  });
});
