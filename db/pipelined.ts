import pg from 'pg';
// pg's own mapping of a JavaScript value to a parameter's text (dates, buffers, arrays, JSON).
import pgUtils from 'pg/lib/utils.js';

/**
 * PostgreSQL round trips saved on every transaction, with PostgreSQL's extended protocol: several
 * statements sent at once, answered in order, before one Sync.
 *
 * - `begin` is held back and sent with the transaction's first statement, in the same message.
 * - A statement marked to run at commit (db/prepared.ts `runAtCommit`: a write's job rows, which
 *   nothing in the write reads back) is held back and sent with the `commit`; a prepared query's goes
 *   as its named statement, parsed by the first commit that sends it on the connection, then only bound.
 *
 * A write of a row and its job is then two round trips instead of four, and one when the row itself
 * goes at commit (db/insert-returning.ts `insertWhole`). Under load each message to
 * PostgreSQL costs the Node process a system call, and those, not the queries, were most of the time
 * a form post took (bench:forms). What PostgreSQL runs is the same: BEGIN, the statements, COMMIT;
 * one that fails skips the rest of its message, as if sent alone, and the transaction is rolled back.
 */

/** Marks a statement's SQL to run at commit; the number names it, to tell its caller how many rows it changed. */
const atCommitPattern = /^\/\* lotwise:at-commit:(\d+) \*\/ /;
let lastToken = 0;
/** The callers waiting to hear how many rows their at-commit statement changed, by token. */
const awaitingCounts = new Map<number, (count: number) => void>();

/**
 * `sqlText` marked to run at the commit of the transaction it is sent in (db/prepared.ts
 * `runAtCommit`), and how many rows it changed, known once that transaction ended (0 when it was
 * rolled back). Outside a transaction it runs at once.
 */
export function markedToRunAtCommit(sqlText: string): { text: string; changed: Promise<number> } {
  lastToken += 1;
  const token = lastToken;
  const changed = new Promise<number>((resolve) => awaitingCounts.set(token, resolve));
  return { text: `/* lotwise:at-commit:${token} */ ${sqlText}`, changed };
}

function tell(token: number | undefined, count: number): void {
  if (token === undefined) return;
  awaitingCounts.get(token)?.(count);
  awaitingCounts.delete(token);
}

interface Step {
  text: string;
  values: unknown[];
  /** An at-commit statement's token. */
  token?: number;
  /** A prepared query's statement name (db/prepared.ts): parsed once per connection, then only bound. */
  name?: string;
}

interface Connection {
  parsedStatements: Record<string, string>;
  on(event: 'parseComplete', listener: () => void): void;
  off(event: 'parseComplete', listener: () => void): void;
  parse(message: { text: string; name?: string }): void;
  bind(message: { portal?: string; statement?: string; values: unknown[]; valueMapper?: (value: unknown) => unknown }): void;
  execute(message: { portal?: string; rows?: number }): void;
  sync(): void;
}

/**
 * One query with statements before it in the same message: only the query's own rows and
 * count are its result. The other statements return no rows (BEGIN, COMMIT, an INSERT without
 * RETURNING); each answers with a CommandComplete of its own, which is passed over.
 */
class PipelinedQuery extends pg.Query {
  private completed = 0;
  /** The row count each statement before the query answered with ("INSERT 0 1": 1). */
  readonly counts: number[] = [];

  constructor(
    private readonly before: Step[],
    query: Query,
    callback: (error: Error | null, result: pg.QueryResult) => void,
  ) {
    super({ ...query, callback } as pg.QueryConfig);
  }

  // The extended protocol always: a query without parameters would otherwise go as a simple query, alone.
  requiresPreparation(): boolean {
    return true;
  }

  // pg's Query then sends its parse, bind, describe, execute and the one sync.
  prepare(connection: Connection): void {
    // Each parse sent, in order, to record the named ones PostgreSQL parsed.
    const parses: { text: string; name?: string }[] = [];
    // A statement twice in one message (two jobs of a kind) is parsed by the first.
    const parsing = new Set<string>();
    for (const step of this.before) {
      const parse = send(connection, step, parsing);
      if (parse) parses.push(parse);
    }
    if (parses.some((parse) => parse.name !== undefined)) this.recordParses(connection, parses);
    (pg.Query.prototype as unknown as { prepare(connection: Connection): void }).prepare.call(this, connection);
  }

  /**
   * Records each named statement of `parses` as parsed on the connection once PostgreSQL says so (its
   * ParseComplete, answered in the order the parses went): a parse skipped because a statement
   * before it failed is not recorded, so it is sent again next time. pg records its own query's only.
   */
  private recordParses(connection: Connection, parses: { text: string; name?: string }[]): void {
    let answered = 0;
    const onParseComplete = () => {
      const parse = parses[answered];
      answered += 1;
      if (parse?.name !== undefined) connection.parsedStatements[parse.name] = parse.text;
    };
    connection.on('parseComplete', onParseComplete);
    this.stopRecording = () => connection.off('parseComplete', onParseComplete);
  }

  /** Stops recording parses: the query ended. */
  stopRecording = () => {};

  handleCommandComplete(message: unknown, connection: unknown): void {
    const index = this.completed;
    this.completed += 1;
    if (index < this.before.length) this.counts.push(Number(/\d+$/.exec((message as { text: string }).text)?.[0] ?? 0));
    if (index === this.before.length) (pg.Query.prototype as unknown as { handleCommandComplete(m: unknown, c: unknown): void }).handleCommandComplete.call(this, message, connection);
  }
}

/** Sends one statement of a pipeline; answers the parse it sent, if any. */
function send(connection: Connection, step: Step, parsing: Set<string>): { text: string; name?: string } | undefined {
  const { name } = step;
  const parsed = name !== undefined && (connection.parsedStatements[name] !== undefined || parsing.has(name));
  const parse = parsed ? undefined : { text: step.text, ...(name === undefined ? {} : { name }) };
  if (parse) connection.parse(parse);
  if (name !== undefined) parsing.add(name);
  connection.bind({ ...(name === undefined ? {} : { statement: name }), values: step.values, valueMapper: pgUtils.prepareValue });
  connection.execute({ portal: '' });
  return parse;
}

const begin: Step = { text: 'begin', values: [] };

function emptyResult(command: string): pg.QueryResult {
  return { command, rowCount: 0, rows: [], oid: 0, fields: [] };
}

type Query = { text: string; values: unknown[]; name?: string };

/**
 * Wraps one pooled client's `query` (what Kysely's driver calls, with SQL text and parameters) so a
 * transaction's BEGIN and its at-commit statements travel with other statements.
 */
export function pipelinedTransactions(client: pg.PoolClient, toQuery: (sqlText: string, values: unknown[]) => Query) {
  let inTransaction = false;
  let beginHeld = false;
  let heldForCommit: Step[] = [];

  const pipelined = (before: Step[], query: Query) =>
    new Promise<pg.QueryResult>((resolve, reject) => {
      const pipeline = new PipelinedQuery(before, query, (error, result) => {
        pipeline.stopRecording();
        before.forEach((step, index) => tell(step.token, error ? 0 : (pipeline.counts[index] ?? 0)));
        if (error) reject(error);
        else resolve(result);
      });
      client.query(pipeline);
    });

  /** Whether a named statement is parsed on this connection: a first parse goes alone, so pg's bookkeeping of it stays right. */
  const parsed = (name: string | undefined) =>
    name === undefined || (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements[name] !== undefined;

  /** Ends the transaction's bookkeeping; answers what was held for its end. */
  const end = () => {
    const held = { begin: beginHeld, steps: heldForCommit };
    inTransaction = false;
    beginHeld = false;
    heldForCommit = [];
    return held;
  };

  return async (sqlText: string, values: unknown[]): Promise<pg.QueryResult> => {
    if (sqlText === 'begin') {
      for (const step of end().steps) tell(step.token, 0);
      inTransaction = true;
      beginHeld = true;
      return emptyResult('BEGIN');
    }
    if (sqlText === 'rollback') {
      const held = end();
      for (const step of held.steps) tell(step.token, 0);
      // Nothing was sent: there is nothing to undo.
      return held.begin ? emptyResult('ROLLBACK') : client.query(sqlText);
    }
    if (sqlText === 'commit') {
      const held = end();
      if (held.begin && held.steps.length === 0) return emptyResult('COMMIT');
      return pipelined(held.begin ? [begin, ...held.steps] : held.steps, { text: 'commit', values: [] });
    }
    const marked = atCommitPattern.exec(sqlText);
    if (marked) {
      const text = sqlText.slice(marked[0].length);
      const step: Step = { text, values, token: Number(marked[1]), name: toQuery(text, values).name };
      if (!inTransaction) {
        let changed = 0;
        try {
          const result = await client.query(step.text, step.values);
          changed = result.rowCount ?? 0;
          return result;
        } finally {
          tell(step.token, changed);
        }
      }
      heldForCommit.push(step);
      // Its outcome is the commit's: a failure there fails the write.
      return emptyResult('INSERT');
    }
    const query = toQuery(sqlText, values);
    if (!beginHeld) return client.query(query);
    beginHeld = false;
    if (!parsed(query.name)) {
      await client.query(begin.text);
      return client.query(query);
    }
    return pipelined([begin], query);
  };
}
