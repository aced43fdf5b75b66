import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from './client';
import { GroupCommit } from './group-commit';
import { prepareQuery } from './prepared';
import { testDatabaseFile } from './test-database';

const stamp = '2026-11-22T10:00:00.000Z';
const insertAdmin = prepareQuery((db: Db, params: { email: string }) =>
  db.insertInto('admins').values({ email: params.email, passwordHash: 'hash', createdAt: stamp }).returningAll(),
);

class Refusal extends Error {}

describe('group commit', async () => {
  const { db, path } = await testDatabaseFile('group-commit');
  const writes = new GroupCommit(db, (error) => error instanceof Refusal);
  // A second connection, as another process would read the file: it sees only committed data.
  const reader = new SQLite(path, { readonly: true });
  afterAll(() => reader.close());
  const stored = (pattern: string) =>
    (reader.prepare('select email from admins where email like ? order by id').all(pattern) as { email: string }[]).map((row) => row.email);
  const adminNamed = (email: string) => (connection: Db) => insertAdmin.firstNow(connection, { email });

  it('answers each write with its own value, only once it is committed', async () => {
    const emails = ['ana@commit.example', 'bo@commit.example', 'cy@commit.example'];
    const answers = await Promise.all(
      emails.map((email) =>
        writes.run((connection) => {
          const row = adminNamed(email)(connection);
          return { row, committedElsewhere: stored(email) };
        }),
      ),
    );
    expect(answers.map((answer) => answer.row?.email)).toEqual(emails);
    // Not visible while its transaction was open; visible to other connections by the time it resolved.
    expect(answers.every((answer) => answer.committedElsewhere.length === 0)).toBe(true);
    expect(stored('%@commit.example')).toEqual(emails);
  });

  it('fails a refused write alone, and stores the rest of its turn', async () => {
    const results = await Promise.allSettled([
      writes.run(adminNamed('first@refusal.example')),
      writes.run(() => {
        throw new Refusal('not yours');
      }),
      writes.run(adminNamed('third@refusal.example')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(Refusal);
    expect(stored('%@refusal.example')).toEqual(['first@refusal.example', 'third@refusal.example']);
  });

  it('takes back the whole turn when a write fails for any other reason, and the next turn goes on', async () => {
    const failed = await Promise.allSettled([
      writes.run(adminNamed('kept-out@batch.example')),
      // The second admin with one email breaks a unique constraint: a database error, not a refusal.
      writes.run((connection) => {
        adminNamed('twice@batch.example')(connection);
        return adminNamed('twice@batch.example')(connection);
      }),
    ]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(String((failed[0] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(stored('%@batch.example')).toEqual([]);

    await expect(writes.run(adminNamed('later@batch.example'))).resolves.toMatchObject({ email: 'later@batch.example' });
    expect(stored('%@batch.example')).toEqual(['later@batch.example']);
  });

  it('waits while a Kysely transaction holds the connection, then writes', async () => {
    let write: Promise<unknown> | undefined;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('admins').values({ email: 'holder@wait.example', passwordHash: 'hash', createdAt: stamp }).execute();
      write = writes.run(adminNamed('waiter@wait.example'));
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(stored('%@wait.example')).toEqual([]);
    });
    await expect(write).resolves.toMatchObject({ email: 'waiter@wait.example' });
    expect(stored('%@wait.example')).toEqual(['holder@wait.example', 'waiter@wait.example']);
  });
});
