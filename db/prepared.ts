import type SQLite from 'better-sqlite3';
import { CamelCasePlugin, type Compilable, CompiledQuery, type Kysely } from 'kysely';

/**
 * Prepared queries for the hot paths (a form post, a chat message, the widget's poll).
 *
 * Kysely builds and compiles each query once, with placeholders for its parameters; every call then
 * binds fresh values to that SQL. On SQLite the statement runs straight on the connection, prepared
 * once: per call, Kysely's query tree, compiler, executor, connection mutex and promise chain cost
 * as much as SQLite's own insert. Elsewhere (another dialect, or while a Kysely transaction holds the
 * connection) the same compiled SQL goes through Kysely's executor, so results and isolation are the
 * same either way.
 */

/** Kysely's CamelCasePlugin, with its column-name mapping usable by the direct path too. */
export class CamelCase extends CamelCasePlugin {
  toCamel(column: string): string {
    return this.camelCase(column);
  }
}

interface DirectConnection {
  sqlite: SQLite.Database;
  camelCase: CamelCase;
  /** Statements in raw (array) mode with their camelCase column names, by SQL text. */
  statements: Map<string, { statement: SQLite.Statement; columns: string[] | undefined }>;
  /** True for a Kysely transaction's own instance, which holds the connection while it runs. */
  holdsConnection: boolean;
}

const directConnections = new WeakMap<object, DirectConnection>();

/** Lets prepared queries on `db` run straight on `sqlite` (db/client.ts calls it for every SQLite database). */
export function enableDirectQueries(db: Kysely<any>, sqlite: SQLite.Database, camelCase: CamelCase): void {
  directConnections.set(db, { sqlite, camelCase, statements: new Map(), holdsConnection: false });
}

/**
 * Runs `work` in a Kysely transaction whose prepared queries also run directly: the transaction
 * holds the one connection, so nothing else can interleave with its statements.
 */
export async function transaction<DB, T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const direct = directConnections.get(db);
  return db.transaction().execute(async (trx) => {
    if (direct) directConnections.set(trx, { ...direct, holdsConnection: true });
    return work(trx);
  });
}

/** The connection to run on directly, or undefined when the call must go through Kysely's executor. */
function directConnectionOf(db: object): DirectConnection | undefined {
  const direct = directConnections.get(db);
  // An open transaction belongs to whoever holds Kysely's connection: wait for it through the executor.
  if (!direct || (!direct.holdsConnection && direct.sqlite.inTransaction)) return undefined;
  return direct;
}

const maxStatements = 200;

function directStatement(direct: DirectConnection, sqlText: string) {
  let entry = direct.statements.get(sqlText);
  if (!entry) {
    const statement = direct.sqlite.prepare(sqlText);
    if (statement.reader) statement.raw(true);
    const columns = statement.reader ? statement.columns().map((column) => direct.camelCase.toCamel(column.name)) : undefined;
    entry = { statement, columns };
    if (direct.statements.size >= maxStatements) direct.statements.delete(direct.statements.keys().next().value!);
    direct.statements.set(sqlText, entry);
  }
  return entry;
}

function toRow<R>(columns: string[], values: unknown[]): R {
  const row: Record<string, unknown> = {};
  for (let index = 0; index < columns.length; index += 1) row[columns[index]!] = values[index];
  return row as R;
}

const placeholderPrefix = '\u0000lotwise-parameter:';

/** One compiled form of a query: its SQL, and where each parameter's value comes from. */
interface Compiled<P> {
  sql: string;
  parameters: ({ name: keyof P } | { value: unknown })[];
}

export interface PreparedQuery<P, R> {
  /** Every row (none for a statement that returns no data). */
  all(db: Kysely<any>, params: P): Promise<R[]>;
  /** The first row, or undefined. */
  first(db: Kysely<any>, params: P): Promise<R | undefined>;
  /** Runs a statement for its effect; answers the number of rows it changed. */
  run(db: Kysely<any>, params: P): Promise<number>;
}

/**
 * A query built once by Kysely. `build` receives stand-ins for the parameters: it must use each one
 * as a value (in `where`, `values`, `set`, `limit`...) and must not branch on them, because it runs
 * only once. A query whose shape depends on its input needs one prepared query per shape.
 */
export function prepareQuery<DB, P extends Record<string, unknown>, R>(
  build: (db: Kysely<DB>, params: P) => Compilable<R>,
): PreparedQuery<P, R> {
  // One compiled form per SQL dialect (its adapter), made on first use.
  const compiledByDialect = new Map<unknown, Compiled<P>>();

  const compiledFor = (db: Kysely<any>): Compiled<P> => {
    const dialect = db.getExecutor().adapter.constructor;
    let compiled = compiledByDialect.get(dialect);
    if (!compiled) {
      const standIns = new Proxy({} as P, { get: (_target, name) => `${placeholderPrefix}${String(name)}` });
      const query = build(db as Kysely<DB>, standIns).compile();
      compiled = {
        sql: query.sql,
        parameters: query.parameters.map((value) =>
          typeof value === 'string' && value.startsWith(placeholderPrefix) ? { name: value.slice(placeholderPrefix.length) as keyof P } : { value },
        ),
      };
      compiledByDialect.set(dialect, compiled);
    }
    return compiled;
  };

  const bind = (compiled: Compiled<P>, params: P): unknown[] => {
    const values = new Array<unknown>(compiled.parameters.length);
    for (let index = 0; index < values.length; index += 1) {
      const parameter = compiled.parameters[index]!;
      values[index] = 'name' in parameter ? (params[parameter.name] ?? null) : parameter.value;
    }
    return values;
  };

  const throughKysely = async (db: Kysely<any>, sqlText: string, values: unknown[]) => {
    const result = await db.executeQuery<R>(CompiledQuery.raw(sqlText, values));
    return { rows: result.rows, changes: Number(result.numAffectedRows ?? 0) };
  };

  const execute = (db: Kysely<any>, params: P, want: 'all' | 'first' | 'run'): { rows: R[]; changes: number } | Promise<{ rows: R[]; changes: number }> => {
    const compiled = compiledFor(db);
    const values = bind(compiled, params);
    const direct = directConnectionOf(db);
    if (!direct) return throughKysely(db, compiled.sql, values);
    const { statement, columns } = directStatement(direct, compiled.sql);
    if (!columns) return { rows: [], changes: statement.run(values).changes };
    if (want === 'first') {
      const row = statement.get(values) as unknown[] | undefined;
      return { rows: row ? [toRow<R>(columns, row)] : [], changes: 0 };
    }
    const rows = (statement.all(values) as unknown[][]).map((values) => toRow<R>(columns, values));
    return { rows, changes: 0 };
  };

  return {
    all: async (db, params) => (await execute(db, params, 'all')).rows,
    first: async (db, params) => (await execute(db, params, 'first')).rows[0],
    run: async (db, params) => (await execute(db, params, 'run')).changes,
  };
}
