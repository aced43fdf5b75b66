import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect';

// Frozen once landed: later changes go in a new migration file.

/** Migrations are frozen: they build schema and run SQL, never read the app's table types. */
type AnyDb = Kysely<unknown>;

/**
 * A conversation grant (a mailed link opened on a device) ends with the link's token:
 * `chat_session_grants.expires_at`, ISO text like every timestamp, after which the grant lets nobody
 * in. A grant made before this migration came from a link valid 30 days from its mail, which was
 * sent before the grant: 30 days from the grant's own time is never shorter than that link's life.
 */
export async function up(db: AnyDb): Promise<void> {
  // A default that has already passed: a row the backfill below missed lets nobody in.
  await db.schema
    .alterTable('chat_session_grants')
    .addColumn('expires_at', 'text', (col) => col.notNull().defaultTo('1970-01-01T00:00:00.000Z'))
    .execute();
  if (isPostgres(db)) {
    await sql`update chat_session_grants
      set expires_at = to_char((created_at::timestamptz + interval '30 days') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.execute(db);
  } else {
    await sql`update chat_session_grants set expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+30 days')`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('chat_session_grants').dropColumn('expires_at').execute();
}
