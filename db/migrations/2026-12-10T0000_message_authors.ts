import { type Kysely, sql } from 'kysely';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * Who wrote a chat message (DESIGN.md 14, "Messages have authors"):
 * - `kind`: `visitor`, `staff` or `system` (`is_from_user` stays, as the spec has it). Existing rows
 *   take theirs from `is_from_user`: 1 was a visitor's, 0 a staff reply (nothing else wrote 0 yet).
 * - `author_staff_id`: the staff account that wrote a staff message. Unknown for the replies stored
 *   before, so null; null again if the account is deleted, the message staying.
 * The partial index serves that delete's lookup on PostgreSQL and costs visitor messages nothing.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('chat_messages')
    .addColumn('kind', 'text', (col) => col.notNull().defaultTo('visitor').check(sql`kind in ('visitor', 'staff', 'system')`))
    .execute();
  await sql`update chat_messages set kind = 'staff' where is_from_user = 0`.execute(db);
  await db.schema
    .alterTable('chat_messages')
    .addColumn('author_staff_id', 'integer', (col) => col.references('admins.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('chat_messages_author_staff_id')
    .on('chat_messages')
    .column('author_staff_id')
    .where(sql.ref('author_staff_id'), 'is not', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('chat_messages_author_staff_id').execute();
  await db.schema.alterTable('chat_messages').dropColumn('author_staff_id').execute();
  await db.schema.alterTable('chat_messages').dropColumn('kind').execute();
}
