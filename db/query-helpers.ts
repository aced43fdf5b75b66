import { type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * Case-insensitive "contains" on a column, with the search text's own wildcards escaped. Plain SQL
 * that PostgreSQL runs as well: lower(...) LIKE lower(...) ESCAPE.
 */
export function textContains(column: string, text: string): RawBuilder<SqlBool> {
  const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
}

/**
 * Keyset paging, newest first: the rows strictly older than the cursor `(at, id)` in the order
 * `atColumn desc, idColumn desc`. The row-wise comparison is written out, so every SQL engine runs it.
 */
export function olderThanCursor(atColumn: string, idColumn: string, cursor: { at: string; id: number | string }): RawBuilder<SqlBool> {
  const at = sql.ref(atColumn);
  return sql<SqlBool>`(${at} < ${cursor.at} or (${at} = ${cursor.at} and ${sql.ref(idColumn)} < ${cursor.id}))`;
}
