import type { Insertable, Selectable } from 'kysely';
import type { Db } from './client';
import { type PreparedQuery, prepareQuery } from './prepared';
import type { Database } from './schema';

type Table = keyof Database;

const insertsByShape = new Map<string, PreparedQuery<Record<string, unknown>, unknown>>();

/**
 * `insertInto(table).values(values).returningAll()` as a prepared query: one per table and set of
 * columns, built by Kysely the first time that shape is inserted (db/prepared.ts). Kysely leaves out
 * undefined values, so the shape is the set of defined columns, in order.
 */
export async function insertReturning<T extends Table>(db: Db, table: T, values: Insertable<Database[T]>): Promise<Selectable<Database[T]>> {
  const inserted = (await insertOfShape(table, values).first(db, values)) as Selectable<Database[T]> | undefined;
  if (!inserted) throw new Error(`insert into ${table} returned no row`);
  return inserted;
}

/** The prepared insert of `values`' table and defined columns, returning the row. */
function insertOfShape(table: Table, values: object): PreparedQuery<Record<string, unknown>, unknown> {
  const row = values as Record<string, unknown>;
  let shape: string = table;
  for (const column in row) if (row[column] !== undefined) shape += `,${column}`;
  let insert = insertsByShape.get(shape);
  if (!insert) {
    const columns = Object.keys(row).filter((column) => row[column] !== undefined);
    insert = prepareQuery((builder: Db, params: Record<string, unknown>) => {
      return builder.insertInto(table).values(Object.fromEntries(columns.map((column) => [column, params[column]]))).returningAll();
    });
    insertsByShape.set(shape, insert);
  }
  return insert;
}
