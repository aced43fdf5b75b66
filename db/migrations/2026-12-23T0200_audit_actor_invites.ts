import { type Kysely, sql } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * The audit log names its actor as they were when they acted (a later rename changes nothing):
 * - `audit_log.actor_email`, `audit_log.actor_display_name`: the acting account's email and display
 *   name (null: none chosen, the email's part before the @ is shown), written with each entry.
 *   Entries from before are filled from the accounts as they are now: the best that is known of them.
 * - `staff_invites_invited_by`: an admin's open invites, found when they are deactivated or demoted.
 *   An open invite whose sender is already not an active admin is withdrawn now, as their
 *   deactivation or demotion withdraws one from now on (it could not be accepted any more anyway).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('actor_email', 'text').execute();
  await db.schema.alterTable('audit_log').addColumn('actor_display_name', 'text').execute();
  await sql`update audit_log set
    actor_email = (select admins.email from admins where admins.id = audit_log.actor_id),
    actor_display_name = (select admins.display_name from admins where admins.id = audit_log.actor_id)
    where actor_id is not null`.execute(db);
  await db.schema.createIndex('staff_invites_invited_by').on('staff_invites').column('invited_by').execute();
  const now = new Date().toISOString();
  await sql`update staff_invites set used_at = ${now}
    where used_at is null
      and (invited_by is null or invited_by not in (select id from admins where role = 'admin' and deactivated_at is null))`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('staff_invites_invited_by').execute();
  await db.schema.alterTable('audit_log').dropColumn('actor_display_name').execute();
  await db.schema.alterTable('audit_log').dropColumn('actor_email').execute();
}
