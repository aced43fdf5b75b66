import { describe, expect, it } from 'vitest';
import type { Db } from './client';
import { testDatabaseFile } from '../test/support/database';
import { directTransaction, prepareQuery } from './prepared';

const stamp = '2026-11-22T10:00:00.000Z';

const insertAdmin = prepareQuery((db: Db, params: { email: string }) =>
  db.insertInto('admins').values({ email: params.email, passwordHash: 'hash', createdAt: stamp }).returningAll(),
);
const adminsNamed = prepareQuery((db: Db, params: { pattern: string; limit: number }) =>
  db.selectFrom('admins').select(['id', 'email', 'createdAt']).where('email', 'like', params.pattern).orderBy('id').limit(params.limit),
);
const renameAdmin = prepareQuery((db: Db, params: { from: string; to: string }) =>
  db.updateTable('admins').set({ email: params.to }).where('email', '=', params.from),
);

describe('prepared queries', async () => {
  const { db } = await testDatabaseFile('prepared');
  const emails = async () => (await db.selectFrom('admins').select('email').orderBy('id').execute()).map((row) => row.email);

  it('binds each call’s own values to the SQL built once, and answers camelCase rows', async () => {
    const first = await insertAdmin.first(db, { email: 'ana@lotwise.example' });
    const second = await insertAdmin.first(db, { email: 'bo@lotwise.example' });
    expect(first).toEqual({ id: expect.any(Number), email: 'ana@lotwise.example', passwordHash: 'hash', credentialVersion: 0, role: 'agent', displayName: null, deactivatedAt: null, lastSignInAt: null, createdAt: stamp });
    expect(second?.email).toBe('bo@lotwise.example');
    expect(second!.id).toBeGreaterThan(first!.id);

    expect(await adminsNamed.all(db, { pattern: '%lotwise%', limit: 1 })).toEqual([{ id: first!.id, email: 'ana@lotwise.example', createdAt: stamp }]);
    expect((await adminsNamed.all(db, { pattern: 'bo@%', limit: 10 })).map((row) => row.email)).toEqual(['bo@lotwise.example']);
    expect(await adminsNamed.first(db, { pattern: 'nobody@%', limit: 10 })).toBeUndefined();

    expect(await renameAdmin.run(db, { from: 'bo@lotwise.example', to: 'bob@lotwise.example' })).toBe(1);
    expect(await renameAdmin.run(db, { from: 'nobody@lotwise.example', to: 'x@lotwise.example' })).toBe(0);
    expect(await emails()).toEqual(['ana@lotwise.example', 'bob@lotwise.example']);
  });

  it('runs a direct transaction: a throw takes back every write in it', async () => {
    await expect(
      directTransaction(db, async (executor) => {
        await insertAdmin.first(executor, { email: 'rolled-back@lotwise.example' });
        expect(await renameAdmin.run(executor, { from: 'ana@lotwise.example', to: 'renamed@lotwise.example' })).toBe(1);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await emails()).toEqual(['ana@lotwise.example', 'bob@lotwise.example']);

    const kept = await directTransaction(db, (executor) => insertAdmin.first(executor, { email: 'kept@lotwise.example' }));
    expect(kept?.email).toBe('kept@lotwise.example');
    expect(await emails()).toContain('kept@lotwise.example');
  });

  it('lets only the direct transaction’s own executor into it: another caller waits, and keeps its row when it rolls back', async () => {
    let outsideWrite: Promise<unknown> | undefined;
    await expect(
      directTransaction(db, async (executor) => {
        await insertAdmin.first(executor, { email: 'inside-direct@lotwise.example' });
        outsideWrite = insertAdmin.first(db, { email: 'outside-direct@lotwise.example' });
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    await outsideWrite;
    const stored = await emails();
    expect(stored).toContain('outside-direct@lotwise.example');
    expect(stored).not.toContain('inside-direct@lotwise.example');
  });

  it('never writes into a transaction it is not part of: it waits for it, and keeps its row when that one rolls back', async () => {
    let outsideWrite: Promise<unknown> | undefined;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('admins').values({ email: 'inside@lotwise.example', passwordHash: 'hash', createdAt: stamp }).execute();
        // Another request's write, while this transaction holds the connection across an await.
        outsideWrite = insertAdmin.first(db, { email: 'outside@lotwise.example' });
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    await outsideWrite;
    const stored = await emails();
    expect(stored).toContain('outside@lotwise.example');
    expect(stored).not.toContain('inside@lotwise.example');
  });
});
