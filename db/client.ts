import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { createPrivateFile } from './files';
import { CamelCase, enableDirectQueries, statementNameOf } from './prepared';
import type { Database } from './schema';

export type Db = Kysely<Database>;

const cachedStatementsMax = 200;

/**
 * Kysely prepares every query afresh; the same few statements run on every request, so keep them
 * prepared (the SQL text is the key, parameters stay parameters). A statement still busy with an
 * iteration is never handed out twice.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      const cached = statements.get(sqlText);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(sqlText);
      if (!cached) {
        if (statements.size >= cachedStatementsMax) statements.delete(statements.keys().next().value!);
        statements.set(sqlText, statement);
      }
      return statement;
    },
  };
}

/**
 * Opens the SQLite file (creating it and its folder, private to this user), with WAL, foreign keys and a busy timeout, on one
 * connection. `synchronous=NORMAL` under WAL keeps every committed write across a process crash;
 * only a power loss can take the last transactions.
 */
export function createDb(path: string): { db: Db; sqlite: SQLite.Database } {
  if (path !== ':memory:') createPrivateFile(path);
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const camelCase = new CamelCase();
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: [camelCase],
  });
  enableDirectQueries(db, sqlite, camelCase);
  return { db, sqlite };
}

// PostgreSQL answers int8 (bigint columns, count(*), sum) and numeric as strings, to keep digits a
// JavaScript number could lose. Ours are counts, ids and epoch milliseconds, far below 2^53.
const int8Oid = 20;
const numericOid = 1700;
const toNumber = (value: string) => Number(value);
const postgresTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === int8Oid || oid === numericOid ? toNumber : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/**
 * A PostgreSQL database through a `pg` pool of up to `poolSize` connections, with the same camelCase
 * mapping as SQLite. A connection, once opened, stays open: each new one costs PostgreSQL a process
 * and cold caches, and a pool that closed them after 10 s idle (pg's default) opened them again on
 * the next burst, each time holding up the messages of that moment (bench:cluster p99 on two nodes:
 * about 200 ms with the default, 20 ms without).
 */
export function createPostgresDb(url: string, poolSize: number): Db {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: postgresTypes, idleTimeoutMillis: 0 });
  // An idle connection the server dropped (a restart, an outage) is taken out of the pool; unheard,
  // pg's error event would end the process. The next query opens a new one (/readyz tells meanwhile).
  pool.on('error', () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }), plugins: [new CamelCase()] });
}

/**
 * The pool as Kysely's driver uses it, with one change: a prepared query's SQL (db/prepared.ts) runs
 * as a named statement (pg's own `name` option), which each connection parses and plans on first use
 * and then only binds and executes (pg keeps the names per connection).
 */
function withNamedStatements(pool: pg.Pool): PostgresPool {
  return {
    end: () => pool.end(),
    async connect() {
      const client = await pool.connect();
      const query = (sqlText: string, values: unknown[]) => {
        const name = statementNameOf(sqlText);
        return client.query(name ? { name, text: sqlText, values } : { text: sqlText, values });
      };
      // Kysely's driver sends SQL text with parameters (a cursor only for streaming, which we do not use).
      return { release: () => client.release(), query } as unknown as PostgresPoolClient;
    },
  };
}
