import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { autoIncrementId, epochMillisecondsType } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/** The address hash of api/modules/mail (mail.addresses.ts `addressHash`), frozen here as it was. */
function addressHash(email: string): string {
  return createHash('sha256').update(`lotwise-mail-address\n${email.trim().toLowerCase()}`).digest('base64url');
}

/**
 * One outbound-mail policy (DESIGN.md 17), its tables:
 * - `mail_addresses`: per address, by hash only (never the address): when it proved it wants our
 *   mail (a link we mailed it was opened), and when it asked for none (unsubscribed) or was erased.
 *   Replaces `email_unsubscribes`, whose addresses move here as hashes. Its row is also what two
 *   requests about one address lock (PostgreSQL), so a limit per address is counted once at a time.
 * - `sent_mails`: each mail sent (by its job's run, once), whom to, for what, and `sent_mail_subjects`:
 *   the rows it is about (`session:<id>`, `lead:<kind>:<id>`), so a data request finds it exactly.
 * - `mail_address_confirmations`: the work waiting for an address (lower case: the confirmation mail
 *   goes to it) to confirm it (a transcript), as a job kind and payload of ids, run when the mailed
 *   confirmation link is opened.
 */
export async function up(db: AnyDb): Promise<void> {
  const millis = epochMillisecondsType(db);
  await db.schema
    .createTable('mail_addresses')
    .addColumn('address_hash', 'text', (col) => col.primaryKey())
    .addColumn('verified_at', millis)
    .addColumn('suppressed_at', millis)
    .addColumn('suppressed_reason', 'text')
    .execute();
  // One-word names: the app's connection maps snake_case result names to camelCase.
  const unsubscribed = await sql<{ address: string; since: string }>`select email as address, created_at as since from email_unsubscribes`.execute(db);
  for (const row of unsubscribed.rows) {
    const at = Date.parse(row.since);
    await sql`insert into mail_addresses (address_hash, suppressed_at, suppressed_reason) values (${addressHash(row.address)}, ${Number.isNaN(at) ? 0 : at}, 'unsubscribed') on conflict (address_hash) do nothing`.execute(db);
  }
  await db.schema.dropTable('email_unsubscribes').execute();

  await db.schema
    .createTable('sent_mails')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('job_id', 'integer')
    .addColumn('job_due_at', millis)
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('message_id', 'text')
    .addColumn('outbox_file', 'text')
    .addColumn('to_verified', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sent_at', millis, (col) => col.notNull())
    .execute();
  // One record per promise a job keeps: a job's row is reused when its dedupe key is taken over (a
  // second reset mail of one link), due anew; a retry of one promise keeps its due time.
  await db.schema.createIndex('sent_mails_job').on('sent_mails').columns(['job_id', 'job_due_at']).unique().execute();
  await db.schema.createIndex('sent_mails_recipient_at').on('sent_mails').columns(['recipient', 'sent_at']).execute();
  await db.schema.createIndex('sent_mails_at').on('sent_mails').columns(['sent_at']).execute();
  await db.schema
    .createTable('sent_mail_subjects')
    .addColumn('sent_mail_id', 'integer', (col) => col.notNull().references('sent_mails.id').onDelete('cascade'))
    .addColumn('subject', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('sent_mail_subjects_pkey', ['sent_mail_id', 'subject'])
    .execute();
  await db.schema.createIndex('sent_mail_subjects_subject').on('sent_mail_subjects').columns(['subject']).execute();

  await db.schema
    .createTable('mail_address_confirmations')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('then_kind', 'text', (col) => col.notNull())
    .addColumn('then_payload', 'text', (col) => col.notNull())
    .addColumn('created_at', millis, (col) => col.notNull())
    .addColumn('confirmed_at', millis)
    .execute();
  await db.schema.createIndex('mail_address_confirmations_address').on('mail_address_confirmations').columns(['address']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('mail_address_confirmations').execute();
  await db.schema.dropTable('sent_mail_subjects').execute();
  await db.schema.dropTable('sent_mails').execute();
  await db.schema
    .createTable('email_unsubscribes')
    .addColumn('email', 'text', (col) => col.primaryKey())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.dropTable('mail_addresses').execute();
}
