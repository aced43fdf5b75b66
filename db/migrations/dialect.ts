import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

/**
 * What the migrations write differently per dialect, chosen so each produces the same schema on
 * SQLite as it always did, and its PostgreSQL equal.
 */
export function isPostgres<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An id that counts up: `integer primary key autoincrement` on SQLite, an identity column on PostgreSQL. */
export function autoIncrementId(db: Kysely<unknown>): (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return isPostgres(db) ? (column) => column.primaryKey().generatedByDefaultAsIdentity() : (column) => column.primaryKey().autoIncrement();
}

/** Milliseconds since the epoch: SQLite's integer holds 64 bits, PostgreSQL's holds 32 (bigint there). */
export function epochMillisecondsType(db: Kysely<unknown>): 'integer' | 'bigint' {
  return isPostgres(db) ? 'bigint' : 'integer';
}
