import { type Kysely, sql } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * Staff have a role and a display name (DESIGN.md 14):
 * - `role`: `admin` or `agent`. Every account so far could do everything: they become admins. The
 *   column's default is the lesser role, so an account made without saying which (a future invite
 *   path that forgets) gets no more than an agent's; the app's account creation says `admin`.
 * - `display_name`: the name other staff see on a member's replies. Null until one is chosen: it is
 *   then shown as the part of the email before the @ (the app does that, so it follows the email).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('admins')
    .addColumn('role', 'text', (col) => col.notNull().defaultTo('agent').check(sql`role in ('admin', 'agent')`))
    .execute();
  await sql`update admins set role = 'admin'`.execute(db);
  await db.schema.alterTable('admins').addColumn('display_name', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('admins').dropColumn('display_name').execute();
  await db.schema.alterTable('admins').dropColumn('role').execute();
}
