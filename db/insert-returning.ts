import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from './client';
import { isPostgres } from './migrations/dialect';
import { CamelCase, type PreparedQuery, prepareQuery } from './prepared';
import type { Database } from './schema';

type Table = keyof Database;

const insertsByShape = new Map<string, PreparedQuery<Record<string, unknown>, unknown>>();

/**
 * `insertInto(table).values(values).returningAll()` as a prepared query: one per table and set of
 * columns, built by Kysely the first time that shape is inserted (db/prepared.ts). Kysely leaves out
 * undefined values, so the shape is the set of defined columns, in order.
 */
export async function insertReturning<T extends Table>(db: Db, table: T, values: Insertable<Database[T]>): Promise<Selectable<Database[T]>> {
  const inserted = (await insertOfShape(table, values, 'returning').first(db, values)) as Selectable<Database[T]> | undefined;
  if (!inserted) throw new Error(`insert into ${table} returned no row`);
  return inserted;
}

/** The prepared insert of `values`' table and defined columns (returning the row, or not). */
function insertOfShape(table: Table, values: object, answer: 'returning' | 'nothing'): PreparedQuery<Record<string, unknown>, unknown> {
  const row = values as Record<string, unknown>;
  let shape = `${answer}:${table}`;
  for (const column in row) if (row[column] !== undefined) shape += `,${column}`;
  let insert = insertsByShape.get(shape);
  if (!insert) {
    const columns = Object.keys(row).filter((column) => row[column] !== undefined);
    insert = prepareQuery((builder: Db, params: Record<string, unknown>) => {
      const query = builder.insertInto(table).values(Object.fromEntries(columns.map((column) => [column, params[column]])));
      return answer === 'returning' ? query.returningAll() : query;
    });
    insertsByShape.set(shape, insert);
  }
  return insert;
}

/** A table with an id the database counts up (an identity column on PostgreSQL). */
type TableWithId = { [T in Table]: Selectable<Database[T]> extends { id: number } ? T : never }[Table];

/**
 * Inserts a row that gives every column but its id, in the transaction of `db`, and answers the row
 * as stored. On PostgreSQL the id is taken ahead from the table's sequence (`idsAhead` at a time, one
 * statement for them all) and the insert goes with the COMMIT (db/pipelined.ts): a write of a row
 * and the jobs it promises is one message to the database instead of two. Nothing in the transaction
 * may read the row back before it commits, and the caller gives each column (no database default
 * fills one in), so the row answered is the row stored. On SQLite, which has no round trip to save,
 * it is an insert returning the row.
 */
export async function insertWhole<T extends TableWithId>(db: Db, table: T, values: Omit<Selectable<Database[T]>, 'id'>): Promise<Selectable<Database[T]>> {
  if (!isPostgres(db)) return insertReturning(db, table, values as Insertable<Database[T]>);
  const row = { id: await nextId(db, table), ...values } as unknown as Selectable<Database[T]>;
  await insertOfShape(table, row, 'nothing').runAtCommit(db, row);
  return row;
}

/**
 * How many ids one statement takes ahead per table and process. A process that stops loses the
 * rest of its block (a gap in the ids, as a rolled-back insert leaves one); two processes interleave
 * theirs, so ids follow the order of writes only roughly, as they always did across connections.
 */
const idsAhead = 32;

/** Ids taken ahead and not used yet: by database (its Kysely adapter, shared by its transactions), by table. */
const idsTaken = new WeakMap<object, Map<Table, number[]>>();
const snake = new CamelCase();

const takeIds = new Map<Table, PreparedQuery<Record<string, never>, { id: number }>>();

async function nextId(db: Db, table: TableWithId): Promise<number> {
  const database = db.getExecutor().adapter;
  let tables = idsTaken.get(database);
  if (!tables) idsTaken.set(database, (tables = new Map<Table, number[]>()));
  let ids = tables.get(table);
  if (!ids) tables.set(table, (ids = []));
  if (ids.length === 0) {
    let take = takeIds.get(table);
    if (!take) {
      const sequence = sql`pg_get_serial_sequence(${sql.lit(snake.toSnake(table))}, 'id')`;
      take = prepareQuery((builder: Db) => builder.selectFrom(sql`generate_series(1, ${sql.lit(idsAhead)})`.as('n')).select(sql<number>`nextval(${sequence})`.as('id')));
      takeIds.set(table, take);
    }
    // In the caller's transaction, which is open anyway: sequences are never rolled back, so a failed write only leaves a gap.
    // Two writes may take a block each at once: both blocks are used.
    ids.push(...(await take.all(db, {})).map((taken) => Number(taken.id)));
    ids.sort((a, b) => a - b);
  }
  return ids.shift()!;
}
