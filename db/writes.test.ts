// @scaled: the write path on each dialect
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDb, type Db } from './client';
import { prepareQuery } from './prepared';
import { freshPostgresUrl, onPostgres, testDatabaseFile } from '../test/support/database';
import { migrateToLatest } from './migrate';
import { transactionsFor } from './writes';

const stamp = '2026-11-22T10:00:00.000Z';
const insertAdmin = prepareQuery((db: Db, params: { email: string }) =>
  db.insertInto('admins').values({ email: params.email, passwordHash: 'hash', createdAt: stamp }).returningAll(),
);


class Refusal extends Error {}

/** The database under test, and the emails another connection (as another process would) sees committed. */
async function databaseWithReader(): Promise<{ db: Db; committedEmails: (pattern: string) => Promise<string[]> }> {
  if (onPostgres) {
    const url = await freshPostgresUrl();
    const db = createPostgresDb(url, 5);
    await migrateToLatest(db);
    const reader = createPostgresDb(url, 1);
    afterAll(async () => {
      await reader.destroy();
      await db.destroy();
    });
    const committedEmails = async (pattern: string) =>
      (await reader.selectFrom('admins').select('email').where('email', 'like', pattern).orderBy('id').execute()).map((row) => row.email);
    return { db, committedEmails };
  }
  const { db, path } = await testDatabaseFile('writes');
  const reader = new SQLite(path, { readonly: true });
  afterAll(() => reader.close());
  const committedEmails = async (pattern: string) =>
    (reader.prepare('select email from admins where email like ? order by id').all(pattern) as { email: string }[]).map((row) => row.email);
  return { db, committedEmails };
}

describe(`writes (${onPostgres ? 'PostgreSQL: a transaction per write' : 'SQLite: group commit'})`, async () => {
  const { db, committedEmails } = await databaseWithReader();
  const writes = transactionsFor(db);
  const adminNamed = (email: string) => (connection: Db) => insertAdmin.first(connection, { email });

  it('answers each write with its own value, only once it is committed', async () => {
    const emails = ['ana@commit.example', 'bo@commit.example', 'cy@commit.example'];
    const answers = await Promise.all(
      emails.map((email) =>
        writes.run(async (connection) => {
          const row = await adminNamed(email)(connection);
          return { row, committedElsewhere: await committedEmails(email) };
        }),
      ),
    );
    expect(answers.map((answer) => answer.row?.email)).toEqual(emails);
    // Not visible while its transaction was open; visible to other connections by the time it resolved.
    expect(answers.every((answer) => answer.committedElsewhere.length === 0)).toBe(true);
    // Committed side by side on PostgreSQL, so their ids need not follow the order of the calls.
    expect((await committedEmails('%@commit.example')).sort()).toEqual(emails);
  });

  it('answers a failed write with its error, and it changes nothing', async () => {
    await writes.run(adminNamed('dee@statement.example'));
    // The same email again breaks the unique constraint: refused by the database, nothing stored.
    await expect(writes.run(adminNamed('dee@statement.example'))).rejects.toThrow(/UNIQUE|duplicate key/);
    expect(await committedEmails('%@statement.example')).toEqual(['dee@statement.example']);
  });

  it('fails a refused write alone, and stores the others', async () => {
    const results = await Promise.allSettled([
      writes.run(adminNamed('first@refusal.example')),
      writes.run(() => Promise.reject(new Refusal('not yours'))),
      writes.run(adminNamed('third@refusal.example')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(Refusal);
    expect((await committedEmails('%@refusal.example')).sort()).toEqual(['first@refusal.example', 'third@refusal.example']);
  });

  it('takes back every write of a failed one, and later writes go on', async () => {
    // The second admin with one email breaks a unique constraint: a database error, not a refusal.
    await expect(
      writes.run(async (connection) => {
        await adminNamed('twice@failed.example')(connection);
        return adminNamed('twice@failed.example')(connection);
      }),
    ).rejects.toThrow(/UNIQUE|duplicate key/);
    expect(await committedEmails('%@failed.example')).toEqual([]);
    await expect(writes.run(adminNamed('later@failed.example'))).resolves.toMatchObject({ email: 'later@failed.example' });
    expect(await committedEmails('%@failed.example')).toEqual(['later@failed.example']);
  });

  // On SQLite the writes of one event-loop turn share a transaction: each still stands or falls alone.
  it('never fails or undoes a write because another write of the same moment failed in the database', async () => {
    const results = await Promise.allSettled([
      writes.run(adminNamed('kept@batch.example')),
      writes.run(async (connection) => {
        // Its first statement is written, then its second breaks a unique constraint: both undone.
        await adminNamed('twice@batch.example')(connection);
        return adminNamed('twice@batch.example')(connection);
      }),
      writes.run(async (connection) => {
        await adminNamed('also-kept@batch.example')(connection);
        return sql`select * from no_such_table`.execute(connection);
      }),
      writes.run(adminNamed('after@batch.example')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE|duplicate key/);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/no_such_table|does not exist/);
    expect((await committedEmails('%@batch.example')).sort()).toEqual(['after@batch.example', 'kept@batch.example']);
  });

  it.skipIf(onPostgres)('waits while a Kysely transaction holds the connection, then writes (SQLite: one connection)', async () => {
    let write: Promise<unknown> | undefined;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('admins').values({ email: 'holder@wait.example', passwordHash: 'hash', createdAt: stamp }).execute();
      write = writes.run(adminNamed('waiter@wait.example'));
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(await committedEmails('%@wait.example')).toEqual([]);
    });
    await expect(write).resolves.toMatchObject({ email: 'waiter@wait.example' });
    expect(await committedEmails('%@wait.example')).toEqual(['holder@wait.example', 'waiter@wait.example']);
  });

  it('keeps other queries out of a write’s transaction while it waits: they see only what is committed', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const write = writes.run(async (connection) => {
      await adminNamed('slow@isolated.example')(connection);
      entered();
      await held;
      return 'done';
    });
    await inside;
    // Another request's read meanwhile (on SQLite it waits for the write's commit; on PostgreSQL it does not see it).
    const read = db.selectFrom('admins').select('email').where('email', '=', 'slow@isolated.example').execute();
    release();
    await expect(write).resolves.toBe('done');
    const seen = await read;
    expect(seen.length === 0 || seen[0]!.email === 'slow@isolated.example').toBe(true);
    expect(await committedEmails('%@isolated.example')).toEqual(['slow@isolated.example']);
  });
});

describe.skipIf(onPostgres)('the SQLite write rule: a write awaits nothing but the database', async () => {
  const { db } = await testDatabaseFile('slow-batch');
  const guarded = (slowBatchMs: number) => {
    const warnings: { writes: number; heldMs: number }[] = [];
    const writes = transactionsFor(db, { slowBatchMs, log: { warn: (details) => warnings.push(details) } });
    return { writes, warnings };
  };

  it('logs a batch whose write awaited something else while holding the connection', async () => {
    const { writes, warnings } = guarded(50);
    await writes.run(async (connection) => {
      await insertAdmin.first(connection, { email: 'slow@batch.example' });
      // What a write must never do: wait on something besides the database (a fetch, a hash, a timer).
      await new Promise((resolve) => setTimeout(resolve, 80));
    });
    expect(warnings).toEqual([{ writes: 1, heldMs: expect.any(Number) as number }]);
    expect(warnings[0]!.heldMs).toBeGreaterThanOrEqual(80);
  });

  it('says nothing of a batch within its limit', async () => {
    const { writes, warnings } = guarded(10_000);
    await Promise.all(['a', 'b', 'c'].map((name) => writes.run((connection) => insertAdmin.first(connection, { email: `${name}@quick.example` }))));
    expect(warnings).toEqual([]);
  });
});

describe.runIf(onPostgres)('prepared queries on PostgreSQL', () => {
  it('run as a named statement that each connection plans once, answering fresh values every call', async () => {
    const db = createPostgresDb(await freshPostgresUrl(), 1);
    try {
      await migrateToLatest(db);
      const named = async () => (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db)).rows;
      expect(await named()).toEqual([]);

      const first = await insertAdmin.first(db, { email: 'first@named.example' });
      const second = await insertAdmin.first(db, { email: 'second@named.example' });
      expect([first?.email, second?.email]).toEqual(['first@named.example', 'second@named.example']);
      expect(second!.id).toBeGreaterThan(first!.id);
      // One pooled connection, one statement parsed for both calls; other queries stay unnamed.
      const statements = await named();
      expect(statements).toHaveLength(1);
      expect(statements[0]!.name).toMatch(/^lotwise_\d+$/);
      expect(statements[0]!.statement).toContain('insert into "admins"');
    } finally {
      await db.destroy();
    }
  });
});
