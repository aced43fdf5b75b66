import { CompiledQuery, type Insertable, type Selectable } from 'kysely';
import type { Db } from './client';
import type { Database } from './schema';

type Table = keyof Database;

const compiledByShape = new WeakMap<Db, Map<string, string>>();

/**
 * `insertInto(table).values(values).returningAll()`, with the SQL built by Kysely once per table and
 * set of columns and then reused with fresh parameters. Building and transforming the query tree cost
 * about as much as SQLite's own insert on the form hot path; the compiled SQL is still Kysely's, for
 * whichever dialect, and results still pass through its plugins (camelCase keys).
 */
export async function insertReturning<T extends Table>(db: Db, table: T, values: Insertable<Database[T]>): Promise<Selectable<Database[T]>> {
  const row = values as Record<string, unknown>;
  // Kysely leaves out undefined values, so the shape is the set of defined columns, in order.
  const columns = Object.keys(row).filter((column) => row[column] !== undefined);
  const shape = `${table}:${columns.join(',')}`;
  let cache = compiledByShape.get(db);
  if (!cache) compiledByShape.set(db, (cache = new Map()));
  let sqlText = cache.get(shape);
  if (sqlText === undefined) {
    sqlText = db.insertInto(table).values(values).returningAll().compile().sql;
    cache.set(shape, sqlText);
  }
  const result = await db.executeQuery<Selectable<Database[T]>>(CompiledQuery.raw(sqlText, columns.map((column) => row[column])));
  const inserted = result.rows[0];
  if (!inserted) throw new Error(`insert into ${table} returned no row`);
  return inserted;
}
