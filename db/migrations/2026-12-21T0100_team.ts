import type { Kysely } from 'kysely';
import { autoIncrementId } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * The team (DESIGN.md 11):
 * - `admins.deactivated_at`: when an admin deactivated the account (null: active). A deactivated
 *   account keeps its row, so its replies keep their author; it cannot sign in.
 * - `admins.last_sign_in_at`: the Team screen's "last signed in".
 * - `staff_invites`: a set-password link mailed to a new member, valid 48 hours, used once. Only the
 *   token's SHA-256 is stored (`token_hash`); the account is made when the link is used.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('admins').addColumn('deactivated_at', 'text').execute();
  await db.schema.alterTable('admins').addColumn('last_sign_in_at', 'text').execute();
  await db.schema
    .createTable('staff_invites')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('display_name', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('invited_by', 'integer')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('staff_invites_email').on('staff_invites').column('email').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('staff_invites').execute();
  await db.schema.alterTable('admins').dropColumn('last_sign_in_at').execute();
  await db.schema.alterTable('admins').dropColumn('deactivated_at').execute();
}
