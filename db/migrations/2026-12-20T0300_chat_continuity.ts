import type { Kysely } from 'kysely';
import { autoIncrementId, epochMillisecondsType } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * The visitor is never lost (DESIGN.md 10): seen receipts, email continuity, transcripts.
 * - `chat_sessions.visitor_seen_seq`: the highest seq the visitor has had on screen (only moves forward).
 * - `chat_continuity_mails`: per session, the last continuity mail (when, by which job, which seqs):
 *   its conditional upsert is the "one mail per session per 10 minutes" gate, the same on every node.
 * - `chat_session_grants`: a visitor identity that opened a session's mailed link may act in that one
 *   session (read, reply, seen), read only when the ordinary owner check fails.
 * - `email_unsubscribes`: addresses (lower case) that get no more continuity mail.
 * - `chat_transcript_requests`: each transcript mailed, for its limits per session and per address.
 */
export async function up(db: AnyDb): Promise<void> {
  const millis = epochMillisecondsType(db);
  await db.schema.alterTable('chat_sessions').addColumn('visitor_seen_seq', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('chat_continuity_mails')
    .addColumn('session_id', 'text', (col) => col.primaryKey().references('chat_sessions.id').onDelete('cascade'))
    .addColumn('mailed_at', millis, (col) => col.notNull())
    .addColumn('job_id', 'integer', (col) => col.notNull())
    .addColumn('after_seq', 'integer', (col) => col.notNull())
    .addColumn('up_to_seq', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('chat_session_grants')
    .addColumn('visitor_id', 'text', (col) => col.notNull())
    .addColumn('session_id', 'text', (col) => col.notNull().references('chat_sessions.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('chat_session_grants_pkey', ['visitor_id', 'session_id'])
    .execute();
  await db.schema
    .createTable('email_unsubscribes')
    .addColumn('email', 'text', (col) => col.primaryKey())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('chat_transcript_requests')
    .addColumn('id', 'integer', autoIncrementId(db))
    .addColumn('session_id', 'text', (col) => col.notNull().references('chat_sessions.id').onDelete('cascade'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('requested_at', millis, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('chat_transcript_requests_session_at').on('chat_transcript_requests').columns(['session_id', 'requested_at']).execute();
  await db.schema.createIndex('chat_transcript_requests_email_at').on('chat_transcript_requests').columns(['email', 'requested_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('chat_transcript_requests').execute();
  await db.schema.dropTable('email_unsubscribes').execute();
  await db.schema.dropTable('chat_session_grants').execute();
  await db.schema.dropTable('chat_continuity_mails').execute();
  await db.schema.alterTable('chat_sessions').dropColumn('visitor_seen_seq').execute();
}
