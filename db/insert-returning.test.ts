import { describe, expect, it } from 'vitest';
import { insertReturning } from './insert-returning';
import { testDatabase } from '../test/support/database';

describe('insertReturning', async () => {
  const db = await testDatabase('db');
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
