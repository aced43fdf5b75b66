import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { isPostgres } from './migrations/dialect';

/**
 * Case-insensitive "contains" on a column, with the search text's own wildcards escaped. Plain SQL
 * that PostgreSQL runs as well: lower(...) LIKE lower(...) ESCAPE.
 */
export function textContains(column: string, text: string): RawBuilder<SqlBool> {
  const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
}

/**
 * Case-insensitive equality (an email, stored as typed): lower(...) = lower(...), which an index on
 * `lower(column)` serves on SQLite and PostgreSQL alike.
 */
export function equalsIgnoringCase(column: string, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) = lower(${text})`;
}

/**
 * Keyset paging, newest first: the rows strictly older than the cursor `(at, id)` in the order
 * `atColumn desc, idColumn desc`. The row-wise comparison is written out, so every SQL engine runs it.
 */
export function olderThanCursor(atColumn: string, idColumn: string, cursor: { at: string; id: number | string }): RawBuilder<SqlBool> {
  const at = sql.ref(atColumn);
  return sql<SqlBool>`(${at} < ${cursor.at} or (${at} = ${cursor.at} and ${sql.ref(idColumn)} < ${cursor.id}))`;
}

/**
 * Whether one statement can write two tables: PostgreSQL's data-modifying WITH feeds one write's
 * RETURNING rows into another. SQLite cannot, and does not need to: its statements cost no round trip.
 */
export function chainsWrites<DB>(db: Kysely<DB>): boolean {
  return isPostgres(db);
}

/** PostgreSQL refused a write by a unique index (23505): the statement as a whole changed nothing. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/**
 * Whether the job runner's claim and next-due read run as the functions of migration
 * 2026-12-22T0000_jobs_claim_plan: on PostgreSQL, whose planner misjudges a queue table's backlog
 * (and whose claim skips rows another runner is claiming). SQLite has one writer at a time and plans
 * them well as plain statements.
 */
export function claimsThroughFunctions<DB>(db: Kysely<DB>): boolean {
  return isPostgres(db);
}

/**
 * The rows of `query` locked until this transaction ends, waiting for a transaction that holds one:
 * `FOR UPDATE` on PostgreSQL. SQLite has one writer at a time, so a write's read is already alone.
 */
export function lockedForUpdate<Q extends { forUpdate(): Q }, DB>(db: Kysely<DB>, query: Q): Q {
  return isPostgres(db) ? query.forUpdate() : query;
}

/**
 * The rows of `query` kept from changing until this transaction ends (other readers may keep them
 * too): `FOR SHARE` on PostgreSQL, which waits for a transaction changing one and then reads it as
 * that one left it. SQLite has one writer at a time.
 */
export function lockedForShare<Q extends { forShare(): Q }, DB>(db: Kysely<DB>, query: Q): Q {
  return isPostgres(db) ? query.forShare() : query;
}
