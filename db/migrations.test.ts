// @scaled: every migration on each dialect
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from './client';
import { migrateToLatest, migratorFor } from './migrate';
import { onPostgres, testDatabaseOpener } from '../test/support/database';
import { migrations } from './migrations';

const dir = mkdtempSync(join(tmpdir(), 'lotwise-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The SQLite file's own schema (sqlite_master, pragmas): the PostgreSQL run skips these.
describe.skipIf(onPostgres)('2026-11-22T0000_chat_messages_lean', () => {
  it('keeps every message and its id, and later ids count on from the largest', async () => {
    const { db, sqlite } = createDb(join(dir, 'lean.db'));
    const migrator = migratorFor(db);
    const first = await migrator.migrateTo('2026-11-21T0000_initial');
    expect(first.error).toBeUndefined();
    const now = '2026-11-21T10:00:00.000Z';
    sqlite.prepare('insert into chat_sessions (id, visitor_id, last_message_at, created_at) values (?, ?, ?, ?)').run('session_a', 'visitor_a', now, now);
    const insert = sqlite.prepare('insert into chat_messages (session_id, message, is_from_user, client_id, created_at) values (?, ?, ?, ?, ?)');
    for (const [index, text] of ['Hello', 'Is the Civic still there?', 'Thanks'].entries()) insert.run('session_a', text, 1, `c${index}`, now);
    const before = sqlite.prepare('select * from chat_messages order by id').all();

    const lean = await migrator.migrateTo('2026-11-22T0000_chat_messages_lean');
    expect(lean.results?.map((result) => result.migrationName)).toEqual(['2026-11-22T0000_chat_messages_lean']);

    expect(sqlite.prepare('select * from chat_messages order by id').all()).toEqual(before);
    const tableSql = sqlite.prepare("select sql from sqlite_master where name = 'chat_messages'").pluck().get() as string;
    expect(tableSql).not.toMatch(/autoincrement/i);
    const indexes = sqlite.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'chat_messages' order by name").pluck().all();
    expect(indexes).toEqual(['chat_messages_session_client_id', 'chat_messages_session_id_id']);
    // The foreign key to the session and the once-per-clientId rule came through the rebuild.
    expect(() => insert.run('no_such_session', 'Hi', 1, null, now)).toThrow(/FOREIGN KEY/);
    expect(() => insert.run('session_a', 'Hello again', 1, 'c0', now)).toThrow(/UNIQUE/);
    const next = insert.run('session_a', 'One more thing', 1, 'c3', now);
    expect(Number(next.lastInsertRowid)).toBe((before.at(-1) as { id: number }).id + 1);
    await db.destroy();
  });

  it('migrates down again, messages kept', async () => {
    const { db, sqlite } = createDb(join(dir, 'down.db'));
    await migrateToLatest(db);
    const now = '2026-11-21T10:00:00.000Z';
    sqlite.prepare('insert into chat_sessions (id, visitor_id, last_message_at, created_at) values (?, ?, ?, ?)').run('session_b', 'visitor_b', now, now);
    sqlite.prepare('insert into chat_messages (session_id, message, is_from_user, created_at) values (?, ?, ?, ?)').run('session_b', 'Hello', 1, now);

    const down = await migratorFor(db).migrateTo('2026-11-21T0000_initial');
    expect(down.error).toBeUndefined();

    expect(sqlite.prepare('select message from chat_messages').pluck().all()).toEqual(['Hello']);
    const tableSql = sqlite.prepare("select sql from sqlite_master where name = 'chat_messages'").pluck().get() as string;
    expect(tableSql).toMatch(/autoincrement/i);
    await db.destroy();
  });
});

describe.skipIf(onPostgres)('2026-11-23T1200_sessions_by_account', () => {
  it('signs everyone out once, and names the accounts of each session from then on', async () => {
    const { db, sqlite } = createDb(join(dir, 'sessions.db'));
    const migrator = migratorFor(db);
    expect((await migrator.migrateTo('2026-11-22T0000_chat_messages_lean')).error).toBeUndefined();
    const now = '2026-11-23T10:00:00.000Z';
    sqlite.prepare('insert into admins (email, password_hash, created_at) values (?, ?, ?)').run('boss@lotwise.example', 'hash', now);
    sqlite.prepare('insert into sessions (sid, data, expires_at) values (?, ?, ?)').run('old-session', '{"adminId":1}', Date.now() + 60_000);

    expect((await migrator.migrateTo('2026-11-23T1200_sessions_by_account')).error).toBeUndefined();
    // A session from before has no credential stamp: it is gone rather than trusted.
    expect(sqlite.prepare('select count(*) from sessions').pluck().get()).toBe(0);
    expect(sqlite.prepare('select credential_version from admins').pluck().get()).toBe(0);
    sqlite.prepare('insert into sessions (sid, data, expires_at, admin_id) values (?, ?, ?, ?)').run('new-session', '{}', Date.now(), 1);
    const indexes = sqlite.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'sessions' and name not like 'sqlite_%' order by name").pluck().all();
    expect(indexes).toEqual(['sessions_admin_id', 'sessions_dealer_id', 'sessions_expires_at']);

    expect((await migrator.migrateTo('2026-11-22T0000_chat_messages_lean')).error).toBeUndefined();
    const columns = sqlite.prepare("select name from pragma_table_info('sessions') order by cid").pluck().all();
    expect(columns).toEqual(['sid', 'data', 'expires_at']);
    expect(sqlite.prepare('select sid from sessions').pluck().all()).toEqual(['new-session']);
    await db.destroy();
  });
});

describe(`migrations on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, async () => {
  const open = await testDatabaseOpener('migrations-both');

  // SQLite is one process's database (DESIGN section 9): several processes are PostgreSQL's case.
  it.skipIf(!onPostgres)('run once when several processes start at once (PostgreSQL)', async () => {
    const processes = [open(), open(), open(), open()];
    const applied = await Promise.all(processes.map((db) => migrateToLatest(db)));
    // Every migration was applied by exactly one of them; the others found nothing to do.
    expect(applied.flat().sort()).toEqual(Object.keys(migrations).sort());
    const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(processes[0]!);
    expect(recorded.rows.map((row) => row.name)).toEqual(Object.keys(migrations).sort());
  });
});

describe(`2026-12-01T0000_chat_message_seq on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, async () => {
  const open = await testDatabaseOpener('migrations-seq');

  it('numbers the messages of each session in id order, and moves the read marker onto seq, and back down', async () => {
    const db = open();
    const migrator = migratorFor(db);
    expect((await migrator.migrateTo('2026-11-23T1200_sessions_by_account')).error).toBeUndefined();
    const now = '2026-11-30T10:00:00.000Z';
    await sql`insert into chat_sessions (id, visitor_id, last_message_at, created_at) values ('session_a', 'v', ${now}, ${now}), ('session_b', 'v', ${now}, ${now}), ('session_c', 'v', ${now}, ${now})`.execute(db);
    // Interleaved ids across two sessions; session_c has none.
    for (const [session, text] of [['session_a', 'a1'], ['session_b', 'b1'], ['session_a', 'a2'], ['session_b', 'b2'], ['session_a', 'a3']] as const) {
      await sql`insert into chat_messages (session_id, message, is_from_user, created_at) values (${session}, ${text}, 1, ${now})`.execute(db);
    }
    const a2 = await sql<{ id: number }>`select id from chat_messages where message = 'a2'`.execute(db);
    await sql`update chat_sessions set last_read_message_id = ${a2.rows[0]!.id} where id = 'session_a'`.execute(db);

    expect((await migrator.migrateTo('2026-12-01T0000_chat_message_seq')).error).toBeUndefined();
    const messages = await sql<{ message: string; seq: number }>`select message, seq from chat_messages order by id`.execute(db);
    expect(messages.rows.map((row) => [row.message, Number(row.seq)])).toEqual([
      ['a1', 1],
      ['b1', 1],
      ['a2', 2],
      ['b2', 2],
      ['a3', 3],
    ]);
    const sessions = await sql<{ id: string; lastSeq: number; lastReadSeq: number }>`select id, last_seq as "lastSeq", last_read_seq as "lastReadSeq" from chat_sessions order by id`.execute(db);
    expect(sessions.rows.map((row) => [row.id, Number(row.lastSeq), Number(row.lastReadSeq)])).toEqual([
      ['session_a', 3, 2],
      ['session_b', 2, 0],
      ['session_c', 0, 0],
    ]);
    // One seq per session.
    await expect(sql`insert into chat_messages (session_id, message, is_from_user, seq, created_at) values ('session_a', 'again', 1, 3, ${now})`.execute(db)).rejects.toThrow(/UNIQUE|duplicate key/);

    expect((await migrator.migrateTo('2026-11-23T1200_sessions_by_account')).error).toBeUndefined();
    const marker = await sql<{ read: number }>`select last_read_message_id as "read" from chat_sessions where id = 'session_a'`.execute(db);
    expect(Number(marker.rows[0]!.read)).toBe(a2.rows[0]!.id);
  });
});

/** The plan of `query`, as text: PostgreSQL told to shun sequential scans, which it prefers on tables this small. */
async function planOf(db: Db, query: string): Promise<string> {
  if (!onPostgres) {
    const plan = await sql<{ detail: string }>`explain query plan ${sql.raw(query)}`.execute(db);
    return plan.rows.map((row) => row.detail).join('\n');
  }
  return db.connection().execute(async (connection) => {
    await sql`set enable_seqscan = off`.execute(connection);
    const plan = await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(query)}`.execute(connection);
    await sql`reset enable_seqscan`.execute(connection);
    return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

describe(`2026-12-02T0000_chat_session_context on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, async () => {
  const open = await testDatabaseOpener('migrations-context');

  it('adds the time zone and the page views (gone with their session), finds people by email in any case through indexes, and goes down again', async () => {
    const db = open();
    const migrator = migratorFor(db);
    expect((await migrator.migrateTo('2026-12-01T0000_chat_message_seq')).error).toBeUndefined();
    const now = '2026-12-02T10:00:00.000Z';
    await sql`insert into chat_sessions (id, visitor_id, sender_email, last_message_at, created_at) values ('session_a', 'v', 'Ann@Dealer.example', ${now}, ${now})`.execute(db);

    expect((await migrator.migrateTo('2026-12-02T0000_chat_session_context')).error).toBeUndefined();
    const zone = await sql<{ timeZone: string | null }>`select time_zone as "timeZone" from chat_sessions`.execute(db);
    expect(zone.rows).toEqual([{ timeZone: null }]);
    for (const url of ['https://a.example/', 'https://a.example/pricing']) {
      await sql`insert into chat_page_views (session_id, url, viewed_at) values ('session_a', ${url}, ${now})`.execute(db);
    }
    await expect(sql`insert into chat_page_views (session_id, url, viewed_at) values ('no_such_session', 'https://a.example/', ${now})`.execute(db)).rejects.toThrow(
      /FOREIGN KEY|foreign key/,
    );

    expect(await planOf(db, `select id from chat_page_views where session_id = 'session_a' order by id desc limit 50`)).toMatch(/chat_page_views_session_id_id/);
    expect(await planOf(db, `select id from chat_sessions where lower("chat_sessions"."sender_email") = lower('ann@dealer.example') or "chat_sessions"."visitor_id" = 'v'`)).toMatch(
      /chat_sessions_sender_email_lower[\s\S]*chat_sessions_visitor_id|chat_sessions_visitor_id[\s\S]*chat_sessions_sender_email_lower/,
    );
    for (const table of ['demo_requests', 'contact_submissions', 'support_tickets', 'get_started_requests']) {
      expect(await planOf(db, `select id from ${table} where lower("email") = lower('ann@dealer.example')`)).toMatch(new RegExp(`${table}_email_lower`));
    }

    await sql`delete from chat_sessions where id = 'session_a'`.execute(db);
    const left = await sql<{ n: number }>`select count(*) as n from chat_page_views`.execute(db);
    expect(Number(left.rows[0]!.n)).toBe(0);

    expect((await migrator.migrateTo('2026-12-01T0000_chat_message_seq')).error).toBeUndefined();
    await expect(sql`select time_zone from chat_sessions`.execute(db)).rejects.toThrow(/time_zone/);
    await expect(sql`select id from chat_page_views`.execute(db)).rejects.toThrow(/chat_page_views/);
    expect((await migrator.migrateTo('2026-12-02T0000_chat_session_context')).error).toBeUndefined();
  });
});

describe(`2026-12-10 message authors and staff roles on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, async () => {
  const open = await testDatabaseOpener('migrations-authors');

  it('gives old messages their kind from is_from_user and no author, makes every existing account an admin, and goes down again', async () => {
    const db = open();
    const migrator = migratorFor(db);
    expect((await migrator.migrateTo('2026-12-02T0100_lead_status_indexes')).error).toBeUndefined();
    const now = '2026-12-09T10:00:00.000Z';
    await sql`insert into admins (email, password_hash, created_at) values ('boss@lotwise.example', 'hash', ${now}), ('anna.lee@lotwise.example', 'hash', ${now})`.execute(db);
    await sql`insert into chat_sessions (id, visitor_id, last_seq, last_message_at, created_at) values ('session_a', 'v', 3, ${now}, ${now})`.execute(db);
    for (const [seq, text, fromUser] of [[1, 'Hello?', 1], [2, 'Hi, how can we help?', 0], [3, 'Thanks', 1]] as const) {
      await sql`insert into chat_messages (session_id, seq, message, is_from_user, created_at) values ('session_a', ${seq}, ${text}, ${fromUser}, ${now})`.execute(db);
    }

    const up = await migrator.migrateTo('2026-12-10T0100_staff_roles');
    expect(up.error).toBeUndefined();
    expect(up.results?.map((result) => result.migrationName)).toEqual(['2026-12-10T0000_message_authors', '2026-12-10T0100_staff_roles']);

    const messages = await sql<{ message: string; kind: string; authorStaffId: number | null }>`
      select message, kind, author_staff_id as "authorStaffId" from chat_messages order by seq`.execute(db);
    expect(messages.rows).toEqual([
      { message: 'Hello?', kind: 'visitor', authorStaffId: null },
      { message: 'Hi, how can we help?', kind: 'staff', authorStaffId: null },
      { message: 'Thanks', kind: 'visitor', authorStaffId: null },
    ]);
    const admins = await sql<{ email: string; role: string; displayName: string | null }>`
      select email, role, display_name as "displayName" from admins order by id`.execute(db);
    expect(admins.rows).toEqual([
      { email: 'boss@lotwise.example', role: 'admin', displayName: null },
      { email: 'anna.lee@lotwise.example', role: 'admin', displayName: null },
    ]);

    // An account made later without a role has the least one; only the three kinds and two roles are stored.
    await sql`insert into admins (email, password_hash, created_at) values ('new@lotwise.example', 'hash', ${now})`.execute(db);
    const newcomer = await sql<{ role: string }>`select role from admins where email = 'new@lotwise.example'`.execute(db);
    expect(newcomer.rows).toEqual([{ role: 'agent' }]);
    await expect(sql`update admins set role = 'owner' where email = 'boss@lotwise.example'`.execute(db)).rejects.toThrow(/CHECK|check constraint/);
    await expect(sql`update chat_messages set kind = 'note' where seq = 1`.execute(db)).rejects.toThrow(/CHECK|check constraint/);

    // The author is a staff account that exists, and a message outlives its author's account.
    await expect(sql`update chat_messages set author_staff_id = 999 where seq = 2`.execute(db)).rejects.toThrow(/FOREIGN KEY|foreign key/);
    const boss = await sql<{ id: number }>`select id from admins where email = 'boss@lotwise.example'`.execute(db);
    await sql`update chat_messages set author_staff_id = ${boss.rows[0]!.id} where seq = 2`.execute(db);
    await sql`delete from admins where email = 'boss@lotwise.example'`.execute(db);
    const orphan = await sql<{ message: string; authorStaffId: number | null }>`
      select message, author_staff_id as "authorStaffId" from chat_messages where seq = 2`.execute(db);
    expect(orphan.rows).toEqual([{ message: 'Hi, how can we help?', authorStaffId: null }]);

    expect((await migrator.migrateTo('2026-12-02T0100_lead_status_indexes')).error).toBeUndefined();
    await expect(sql`select kind from chat_messages`.execute(db)).rejects.toThrow(/kind/);
    await expect(sql`select author_staff_id from chat_messages`.execute(db)).rejects.toThrow(/author_staff_id/);
    await expect(sql`select role from admins`.execute(db)).rejects.toThrow(/role/);
    await expect(sql`select display_name from admins`.execute(db)).rejects.toThrow(/display_name/);
    const kept = await sql<{ n: number }>`select count(*) as n from chat_messages`.execute(db);
    expect(Number(kept.rows[0]!.n)).toBe(3);
    expect((await migrator.migrateTo('2026-12-10T0100_staff_roles')).error).toBeUndefined();
  });
});

describe(`2026-12-12T0000_jobs_pending_index on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, async () => {
  const open = await testDatabaseOpener('migrations-jobs-index');
  // The runner's two questions (api/jobs/jobs.repository.ts): the due jobs to claim, and when the next one is due.
  const claim = `select id from jobs where state = 'pending' and kind in ('count') and run_at <= 5000 and (locked_until is null or locked_until <= 5000) order by run_at, id limit 8`;
  const nextDue = `select min(run_at) from jobs where state = 'pending' and kind in ('count') and (locked_until is null or locked_until <= 5000)`;

  it('reads the pending jobs through their own index, in order, however many are done, and goes down again', async () => {
    const db = open();
    const migrator = migratorFor(db);
    expect((await migrator.migrateTo('2026-12-11T0000_jobs')).error).toBeUndefined();
    for (let start = 0; start < 2000; start += 500) {
      const rows = Array.from({ length: 500 }, (_, offset) => {
        const n = start + offset;
        const done = n % 2 === 0;
        return sql`(${'count'}, ${'{}'}, ${done ? 'done' : 'pending'}, ${n}, ${n}, ${n}, ${done ? n + 1 : null})`;
      });
      await sql`insert into jobs (kind, payload, state, run_at, due_at, created_at, finished_at) values ${sql.join(rows)}`.execute(db);
    }

    expect((await migrator.migrateTo('2026-12-12T0000_jobs_pending_index')).error).toBeUndefined();
    for (const query of [claim, nextDue]) {
      const plan = await planOf(db, query);
      expect(plan).toMatch(/jobs_pending_run_at/);
      // SQLite reads them in the index's order instead of sorting every pending job (PostgreSQL,
      // with this table's few rows, may sort the handful its bitmap scan finds).
      if (!onPostgres) expect(plan).not.toMatch(/TEMP B-TREE/);
    }

    expect((await migrator.migrateTo('2026-12-11T0000_jobs')).error).toBeUndefined();
    expect(await planOf(db, claim)).toMatch(/jobs_/);
    expect((await migrator.migrateTo('2026-12-12T0000_jobs_pending_index')).error).toBeUndefined();
  });
});

describe(`2026-12-21T0400_chat_resolution on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, async () => {
  const open = await testDatabaseOpener('migrations-resolution');

  it('adds when and by whom a session was resolved (null for the old ones, and once the account is gone), reads sessions by start through an index, and goes down again', async () => {
    const db = open();
    const migrator = migratorFor(db);
    expect((await migrator.migrateTo('2026-12-21T0000_audit_log')).error).toBeUndefined();
    const now = '2026-12-21T10:00:00.000Z';
    await sql`insert into chat_sessions (id, visitor_id, status, last_message_at, created_at) values ('session_a', 'v', 'resolved', ${now}, ${now})`.execute(db);
    await sql`insert into admins (email, password_hash, created_at) values ('anna@lotwise.example', 'hash', ${now})`.execute(db);

    expect((await migrator.migrateTo('2026-12-21T0400_chat_resolution')).error).toBeUndefined();
    const old = await sql<{ resolvedAt: string | null; by: number | null }>`select resolved_at as "resolvedAt", resolved_by_staff_id as "by" from chat_sessions`.execute(db);
    expect(old.rows).toEqual([{ resolvedAt: null, by: null }]);
    await expect(sql`update chat_sessions set resolved_by_staff_id = 999`.execute(db)).rejects.toThrow(/FOREIGN KEY|foreign key/);
    const anna = await sql<{ id: number }>`select id from admins`.execute(db);
    await sql`update chat_sessions set resolved_at = ${now}, resolved_by_staff_id = ${anna.rows[0]!.id}`.execute(db);
    await sql`delete from admins`.execute(db);
    const kept = await sql<{ resolvedAt: string | null; by: number | null }>`select resolved_at as "resolvedAt", resolved_by_staff_id as "by" from chat_sessions`.execute(db);
    expect(kept.rows).toEqual([{ resolvedAt: now, by: null }]);
    expect(await planOf(db, `select id from chat_sessions where created_at >= '2026-12-01' and created_at < '2026-12-22'`)).toMatch(/chat_sessions_created_at/);

    expect((await migrator.migrateTo('2026-12-21T0000_audit_log')).error).toBeUndefined();
    await expect(sql`select resolved_at from chat_sessions`.execute(db)).rejects.toThrow(/resolved_at/);
    expect((await migrator.migrateTo('2026-12-21T0400_chat_resolution')).error).toBeUndefined();
  });
});

describe(`2026-12-23T0100_mail_policy on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, async () => {
  const open = await testDatabaseOpener('migrations-mail-policy');

  it('moves the unsubscribe list into the mail policy’s addresses as hashes (the addresses themselves gone), and goes down again', async () => {
    const db = open();
    const migrator = migratorFor(db);
    expect((await migrator.migrateTo('2026-12-22T0000_jobs_claim_plan')).error).toBeUndefined();
    await sql`insert into email_unsubscribes (email, created_at) values ('dana@example.com', '2026-12-20T10:00:00.000Z')`.execute(db);

    expect((await migrator.migrateTo('2026-12-23T0100_mail_policy')).error).toBeUndefined();
    const rows = await sql<{ hash: string; at: number | string; reason: string }>`select address_hash as hash, suppressed_at as at, suppressed_reason as reason from mail_addresses`.execute(db);
    // The hash api/modules/mail/mail.addresses.ts computes for the address (its test checks it gives this one).
    const hash = createHash('sha256').update('lotwise-mail-address\ndana@example.com').digest('base64url');
    expect(rows.rows.map((row) => ({ ...row, at: Number(row.at) }))).toEqual([{ hash, at: Date.parse('2026-12-20T10:00:00.000Z'), reason: 'unsubscribed' }]);
    await expect(sql`select email from email_unsubscribes`.execute(db)).rejects.toThrow(/email_unsubscribes/);

    expect((await migrator.migrateTo('2026-12-22T0000_jobs_claim_plan')).error).toBeUndefined();
    await expect(sql`select address_hash from mail_addresses`.execute(db)).rejects.toThrow(/mail_addresses/);
    expect((await migrator.migrateTo('2026-12-23T0100_mail_policy')).error).toBeUndefined();
  });
});

describe(`2026-12-23T0200_audit_actor_invites on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, async () => {
  const open = await testDatabaseOpener('migrations-audit-actor');

  it('fills the actor of old entries from the accounts, withdraws open invites whose sender is no active admin, and goes down again', async () => {
    const db = open();
    const migrator = migratorFor(db);
    expect((await migrator.migrateTo('2026-12-22T0000_jobs_claim_plan')).error).toBeUndefined();
    const now = '2026-12-22T10:00:00.000Z';
    const later = '2026-12-24T10:00:00.000Z';
    await sql`insert into admins (email, password_hash, created_at, display_name, role) values ('anna@lotwise.example', 'hash', ${now}, 'Anna', 'admin')`.execute(db);
    await sql`insert into admins (email, password_hash, created_at, role, deactivated_at) values ('ben@lotwise.example', 'hash', ${now}, 'admin', ${now})`.execute(db);
    const ids = await sql<{ id: number; email: string }>`select id, email from admins order by id`.execute(db);
    const [anna, ben] = ids.rows;
    await sql`insert into audit_log (at, actor_id, action) values (1, ${anna!.id}, 'staff.signed-in'), (2, null, 'retention.erased')`.execute(db);
    await sql`insert into staff_invites (email, display_name, role, token_hash, invited_by, created_at, expires_at)
      values ('a@x.example', 'A', 'agent', 'h1', ${anna!.id}, ${now}, ${later}), ('b@x.example', 'B', 'admin', 'h2', ${ben!.id}, ${now}, ${later})`.execute(db);

    expect((await migrator.migrateTo('2026-12-23T0200_audit_actor_invites')).error).toBeUndefined();
    const entries = await sql<{ email: string | null; name: string | null }>`select actor_email as email, actor_display_name as name from audit_log order by at`.execute(db);
    expect(entries.rows).toEqual([
      { email: 'anna@lotwise.example', name: 'Anna' },
      { email: null, name: null },
    ]);
    const invites = await sql<{ email: string; used: string | null }>`select email, used_at as used from staff_invites order by email`.execute(db);
    expect(invites.rows.map((row) => [row.email, row.used !== null])).toEqual([
      ['a@x.example', false],
      ['b@x.example', true],
    ]);

    expect((await migrator.migrateTo('2026-12-22T0000_jobs_claim_plan')).error).toBeUndefined();
    await expect(sql`select actor_email from audit_log`.execute(db)).rejects.toThrow(/actor_email/);
    expect((await migrator.migrateTo('2026-12-23T0200_audit_actor_invites')).error).toBeUndefined();
  });
});

describe(`2026-12-23T0300_chat_grant_expiry on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, async () => {
  const open = await testDatabaseOpener('migrations-grant-expiry');

  it("gives each existing conversation grant an end 30 days after it was made, and goes down again", async () => {
    const db = open();
    const migrator = migratorFor(db);
    expect((await migrator.migrateTo('2026-12-23T0200_audit_actor_invites')).error).toBeUndefined();
    const now = '2026-12-20T10:15:30.250Z';
    await sql`insert into chat_sessions (id, visitor_id, last_message_at, created_at) values ('session_a', 'v', ${now}, ${now})`.execute(db);
    await sql`insert into chat_session_grants (visitor_id, session_id, created_at) values ('w', 'session_a', ${now})`.execute(db);

    expect((await migrator.migrateTo('2026-12-23T0300_chat_grant_expiry')).error).toBeUndefined();
    const grants = await sql<{ expiresAt: string }>`select expires_at as "expiresAt" from chat_session_grants`.execute(db);
    expect(grants.rows).toEqual([{ expiresAt: '2027-01-19T10:15:30.250Z' }]);

    expect((await migrator.migrateTo('2026-12-23T0200_audit_actor_invites')).error).toBeUndefined();
    await expect(sql`select expires_at from chat_session_grants`.execute(db)).rejects.toThrow(/expires_at/);
    expect((await migrator.migrateTo('2026-12-23T0300_chat_grant_expiry')).error).toBeUndefined();
  });
});
