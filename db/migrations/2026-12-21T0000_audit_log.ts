import type { Kysely } from 'kysely';
import { autoIncrementId, epochMillisecondsType } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * Who did what to which thing, and when (DESIGN.md 11): one row an action, written by the action's
 * own transaction. Never the data itself: `subject_kind`/`subject_id` name the thing (a lead, a chat
 * session, a staff account), `detail` says what changed in words of the app's own ("status: resolved",
 * "role: agent", "12 erased"), never a visitor's or a dealer's text. `actor_id` is the staff account
 * (null: the app itself, e.g. a retention job). `at` is epoch milliseconds.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('at', epochMillisecondsType(db), (col) => col.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('subject_kind', 'text')
    .addColumn('subject_id', 'text')
    .addColumn('detail', 'text')
    .execute();
  // The log is read newest first, a page at a time.
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
