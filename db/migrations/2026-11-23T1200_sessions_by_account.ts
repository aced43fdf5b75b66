import { type Kysely, sql } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;

/**
 * A password change ends the account's other sessions, in every server process:
 * - `credential_version` on each account counts its password changes; a sign-in stamps the
 *   version it saw into its session, and a session whose stamp is behind is signed out on load
 *   (so a request in flight that writes the session back cannot revive it).
 * - `admin_id`/`dealer_id` on `sessions` name the accounts a session is signed in to, so the
 *   sessions of one account are found and deleted without reading every session's JSON.
 * Sessions from before carry no stamp: every sign-in ends once, here.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('admins').addColumn('credential_version', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('credential_version', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.deleteFrom('sessions').execute();
  await db.schema.alterTable('sessions').addColumn('admin_id', 'integer').execute();
  await db.schema.alterTable('sessions').addColumn('dealer_id', 'integer').execute();
  await db.schema.createIndex('sessions_admin_id').on('sessions').column('admin_id').where(sql.ref('admin_id'), 'is not', null).execute();
  await db.schema.createIndex('sessions_dealer_id').on('sessions').column('dealer_id').where(sql.ref('dealer_id'), 'is not', null).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('sessions_dealer_id').execute();
  await db.schema.dropIndex('sessions_admin_id').execute();
  await db.schema.alterTable('sessions').dropColumn('dealer_id').execute();
  await db.schema.alterTable('sessions').dropColumn('admin_id').execute();
  await db.schema.alterTable('users').dropColumn('credential_version').execute();
  await db.schema.alterTable('admins').dropColumn('credential_version').execute();
}
