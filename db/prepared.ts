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

  toSnake(name: string): string {
    return this.snakeCase(name);
  }
}

interface DirectConnection {
  sqlite: SQLite.Database;
  camelCase: CamelCase;
  /** Statements in raw (array) mode, each with a maker of its camelCase rows, by SQL text. */
  statements: Map<string, DirectStatement>;
  /** The executor of the direct transaction open now (directTransaction()), the only one that may run directly in it. */
  transactionOwner: object | undefined;
  /** The Kysely bound to the connection that directTransaction() hands its work (bindToConnection). */
  bound?: object;
}

const directConnections = new WeakMap<object, DirectConnection>();

/** Lets prepared queries on `db` run straight on `sqlite` (db/client.ts calls it for every SQLite database). */
export function enableDirectQueries<DB>(db: Kysely<DB>, sqlite: SQLite.Database, camelCase: CamelCase): void {
  directConnections.set(db, { sqlite, camelCase, statements: new Map(), transactionOwner: undefined });
}

/** Whether prepared queries on `db` can run directly on its SQLite connection (db/client.ts databases). */
export function supportsDirectQueries<DB>(db: Kysely<DB>): boolean {
  return directConnections.has(db);
}

/**
 * A Kysely bound to SQLite's connection, as `db.connection()` gives it, made once: SQLite's driver has
 * one connection for its whole life, so every batch can take the same one instead of building a new
 * Kysely, executor and provider per commit. Used only while the driver's connection is held.
 */
function bindToConnection<DB>(db: Kysely<DB>): Promise<Kysely<DB>> {
  return db.connection().execute(async (bound) => bound);
}

/**
 * Runs `work` in one SQLite transaction on Kysely's connection, held for the whole of it: other
 * callers' queries (Kysely's or prepared ones) wait for it through Kysely's executor, so nothing
 * interleaves. `work` gets the executor bound to that connection; prepared queries given it run
 * straight on the connection, with no Kysely machinery per statement. BEGIN and COMMIT are prepared
 * statements too (better-sqlite3's transaction() builds a new wrapper per call).
 */
export async function directTransaction<DB, T>(db: Kysely<DB>, work: (executor: Kysely<DB>) => Promise<T>): Promise<T> {
  const direct = directConnections.get(db);
  if (!direct) throw new Error('directTransaction needs a SQLite database opened by db/client.ts');
  const executor = (direct.bound ??= await bindToConnection(db)) as Kysely<DB>;
  return db.getExecutor().provideConnection(async () => {
    directStatement(direct, 'begin').statement.run();
    direct.transactionOwner = executor;
    directConnections.set(executor, direct);
    try {
      const value = await work(executor);
      directStatement(direct, 'commit').statement.run();
      return value;
    } catch (error) {
      if (direct.sqlite.inTransaction) directStatement(direct, 'rollback').statement.run();
      throw error;
    } finally {
      direct.transactionOwner = undefined;
      directConnections.delete(executor);
    }
  });
}

/**
 * Runs `work` under a savepoint of the direct transaction `executor` holds (directTransaction): when
 * `work` fails, its statements alone are undone and the transaction goes on. When the failure ended
 * the transaction itself (SQLite does that on a few errors, a full disk say), it throws
 * TransactionLost: nothing of the transaction is left to commit.
 */
export async function directSavepoint<DB, T>(executor: Kysely<DB>, work: () => Promise<T>): Promise<T> {
  const direct = directConnections.get(executor);
  if (!direct || direct.transactionOwner !== executor) throw new Error('directSavepoint needs the executor of an open directTransaction');
  directStatement(direct, 'savepoint write').statement.run();
  try {
    const value = await work();
    directStatement(direct, 'release write').statement.run();
    return value;
  } catch (error) {
    if (direct.sqlite.inTransaction) {
      directStatement(direct, 'rollback to write').statement.run();
      directStatement(direct, 'release write').statement.run();
    } else {
      throw new TransactionLost(error);
    }
    throw error;
  }
}

/** A write's failure ended its whole transaction (SQLite rolled it back): every write of the batch is lost. */
export class TransactionLost extends Error {
  constructor(readonly original: unknown) {
    super(`transaction rolled back by the database: ${original instanceof Error ? original.message : String(original)}`, { cause: original });
  }
}

/** The connection to run on directly, or undefined when the call must go through Kysely's executor. */
function directConnectionOf(db: object): DirectConnection | undefined {
  const direct = directConnections.get(db);
  // An open transaction belongs to whoever holds Kysely's connection: wait for it through the executor.
  if (!direct || (direct.sqlite.inTransaction && direct.transactionOwner !== db)) return undefined;
  return direct;
}

const maxStatements = 200;

interface DirectStatement {
  statement: SQLite.Statement;
  /** Turns a raw row into an object with camelCase keys; undefined for a statement that returns no data. */
  toRow: ((values: unknown[]) => unknown) | undefined;
}

/**
 * The row maker of a statement's columns: one object literal with fixed keys, compiled once, so every
 * row has the same shape from birth (what better-sqlite3 and fast-json-stringify do too). Filling an
 * empty object key by key makes V8 look each key up the slow, megamorphic way, on every row.
 */
function rowMaker(columns: string[]): (values: unknown[]) => unknown {
  const fields = columns.map((column, index) => `${JSON.stringify(column)}: values[${index}]`);
  // The keys are column names SQLite reports, each quoted by JSON.stringify: nothing else reaches the code.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('values', `return { ${fields.join(', ')} };`) as (values: unknown[]) => unknown;
}

function directStatement(direct: DirectConnection, sqlText: string): DirectStatement {
  let entry = direct.statements.get(sqlText);
  if (!entry) {
    const statement = direct.sqlite.prepare(sqlText);
    if (statement.reader) statement.raw(true);
    const toRow = statement.reader ? rowMaker(statement.columns().map((column) => direct.camelCase.toCamel(column.name))) : undefined;
    entry = { statement, toRow };
    if (direct.statements.size >= maxStatements) direct.statements.delete(direct.statements.keys().next().value!);
    direct.statements.set(sqlText, entry);
  }
  return entry;
}

/**
 * The SQL text of every prepared query, with a statement name: on PostgreSQL, db/client.ts has each
 * pooled connection parse and plan such a text once (a named statement) instead of on every call.
 */
const statementNames = new Map<string, string>();

/** The statement name of a prepared query's SQL text, or undefined for any other query. */
export function statementNameOf(sqlText: string): string | undefined {
  return statementNames.get(sqlText);
}

const placeholderPrefix = '\u0000lotwise-parameter:';

/** One compiled form of a query: its SQL, and where each parameter's value comes from. */
interface Compiled<P> {
  sql: string;
  parameters: ({ name: keyof P } | { value: unknown })[];
}

export interface PreparedQuery<P, R> {
  /** Every row (none for a statement that returns no data). */
  all<D>(db: Kysely<D>, params: P): Promise<R[]>;
  /** The first row, or undefined. */
  first<D>(db: Kysely<D>, params: P): Promise<R | undefined>;
  /** Runs a statement for its effect; answers the number of rows it changed (or returned). */
  run<D>(db: Kysely<D>, params: P): Promise<number>;
}

/** Measuring (bench:forms BENCH_VARIANTS): every prepared query built and run by Kysely on each call. */
export const plainKysely = process.env.LOTWISE_PLAIN_KYSELY === '1';

function plainQuery<DB, P extends Record<string, unknown>, R>(build: (db: Kysely<DB>, params: P) => Compilable<R>): PreparedQuery<P, R> {
  const execute = <D>(db: Kysely<D>, params: P) => db.executeQuery<R>(build(db as unknown as Kysely<DB>, params).compile());
  return {
    all: async (db, params) => (await execute(db, params)).rows,
    first: async (db, params) => (await execute(db, params)).rows[0],
    run: async (db, params) => {
      const result = await execute(db, params);
      return Number(result.numAffectedRows ?? result.rows.length);
    },
  };
}

/**
 * A query built once by Kysely. `build` receives stand-ins for the parameters: it must use each one
 * as a value (in `where`, `values`, `set`, `limit`...) and must not branch on them, because it runs
 * only once. A query whose shape depends on its input needs one prepared query per shape. The linter
 * holds `build` to it (eslint.config.js `preparedBuildsDoNotBranch`: no branch or loop inside it);
 * a helper `build` calls is not seen there, so it must keep the rule too.
 */
export function prepareQuery<DB, P extends Record<string, unknown>, R>(
  build: (db: Kysely<DB>, params: P) => Compilable<R>,
): PreparedQuery<P, R> {
  if (plainKysely) return plainQuery(build);
  // One compiled form per SQL dialect (its adapter), made on first use.
  const compiledByDialect = new Map<unknown, Compiled<P>>();

  // Calls come from one database again and again: remember the last one's compiled form and statement.
  let lastDb: object | undefined;
  let lastCompiled: Compiled<P> | undefined;
  let lastDirect: DirectConnection | undefined;
  let lastStatement: DirectStatement | undefined;

  const compiledFor = <D>(db: Kysely<D>): Compiled<P> => {
    if (db === lastDb) return lastCompiled!;
    const dialect = db.getExecutor().adapter.constructor;
    let compiled = compiledByDialect.get(dialect);
    if (!compiled) {
      const standIns = new Proxy({} as P, { get: (_target, name) => `${placeholderPrefix}${String(name)}` });
      // Only the SQL is kept: the table types of the caller's database play no part in it.
      const query = build(db as unknown as Kysely<DB>, standIns).compile();
      compiled = {
        sql: query.sql,
        parameters: query.parameters.map((value) =>
          typeof value === 'string' && value.startsWith(placeholderPrefix) ? { name: value.slice(placeholderPrefix.length) } : { value },
        ),
      };
      compiledByDialect.set(dialect, compiled);
      if (!statementNames.has(compiled.sql)) statementNames.set(compiled.sql, `lotwise_${statementNames.size + 1}`);
    }
    lastDb = db;
    lastCompiled = compiled;
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

  const throughKysely = <D>(db: Kysely<D>, compiled: Compiled<P>, params: P) =>
    db.executeQuery<R>(CompiledQuery.raw(compiled.sql, bind(compiled, params)));

  /** The statement to run directly for this call, or undefined to go through Kysely. */
  const directFor = <D>(db: Kysely<D>, compiled: Compiled<P>) => {
    const direct = directConnectionOf(db);
    if (!direct) return undefined;
    if (direct !== lastDirect) {
      lastStatement = directStatement(direct, compiled.sql);
      lastDirect = direct;
    }
    return lastStatement;
  };

  const firstDirect = (direct: DirectStatement, values: unknown[]): R | undefined => {
    if (!direct.toRow) return (direct.statement.run(values), undefined);
    const row = direct.statement.get(values) as unknown[] | undefined;
    return row && (direct.toRow(row) as R);
  };
  // A statement with RETURNING answers one row per row it changed.
  const runDirect = (direct: DirectStatement, values: unknown[]): number =>
    direct.toRow ? direct.statement.all(values).length : direct.statement.run(values).changes;

  return {
    async all(db, params) {
      const compiled = compiledFor(db);
      const direct = directFor(db, compiled);
      if (!direct) return (await throughKysely(db, compiled, params)).rows;
      const toRow = direct.toRow;
      if (!toRow) return (direct.statement.run(bind(compiled, params)), []);
      return (direct.statement.all(bind(compiled, params)) as unknown[][]).map((values) => toRow(values) as R);
    },
    async first(db, params) {
      const compiled = compiledFor(db);
      const direct = directFor(db, compiled);
      if (!direct) return (await throughKysely(db, compiled, params)).rows[0];
      return firstDirect(direct, bind(compiled, params));
    },
    async run(db, params) {
      const compiled = compiledFor(db);
      const direct = directFor(db, compiled);
      if (!direct) return Number((await throughKysely(db, compiled, params)).numAffectedRows ?? 0);
      return runDirect(direct, bind(compiled, params));
    },
  };
}
