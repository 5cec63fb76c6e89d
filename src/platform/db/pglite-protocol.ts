import type { PGlite } from '@electric-sql/pglite';
import { DatabaseError, serialize } from 'pg-protocol';
import types from 'pg-types';
import type { RowNames } from './camel-case-rows.ts';
import type { EngineResult } from './pglite-dialect.ts';
import { DEFAULT_PREPARED, PreparedNames, STALE_PLAN, STATEMENT_GONE } from './prepared-names.ts';
import { rowsOf } from './row-objects.ts';

/**
 * A statement's result with its rows as arrays of values beside the column names: what the database's thread sends
 * (structured cloning writes no key per value: the 35-item list's rows cloned in ~56 µs instead of ~95, counting the
 * objects built on the other side). `rowsOf` makes the rows.
 */
export interface StatementResult {
  columns: string[];
  values: unknown[][];
  /** Positions of the bytea columns (their values are Buffers, which another thread receives as Uint8Arrays). */
  bytea?: number[];
  command?: string;
  rowCount?: number;
}

/** A result as Kysely's driver takes it. */
export function engineResult(result: StatementResult): EngineResult {
  return { rows: rowsOf(result), command: result.command, rowCount: result.rowCount };
}

// One statement on PGlite in one exchange of the extended protocol (Parse once per distinct statement, then Bind,
// Describe, Execute, Sync), its answer read here from the raw bytes. PGlite's query() sends those as six exchanges,
// then parses every message with pg-protocol's general parser and builds the rows: measured on the demo seed's
// inventory list (35 rows × 13 columns, issue 17) 1.3 ms, of which Postgres itself (the exchange with the answer left
// unparsed) 0.28 ms.
// Values are read as node-postgres reads them: every column as text through pg-types' parser for its type.
// Without parameters the simple protocol runs the text as a script (several statements), and the last statement's
// result is returned, as PGlite's exec() and pg do.

/** An ErrorResponse's field codes → node-postgres' DatabaseError properties. */
const ERROR_FIELDS: Record<string, string> = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

/**
 * A parameter as the driver prepared it (pglite-dialect.ts): text, null, or bytes — a vector's binary form, which
 * pg-protocol sends with the binary format code because it is a Buffer (bytea arrives here as text).
 */
function parameter(value: unknown): string | Buffer | null {
  if (value === null || value === undefined) return null;
  return value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : String(value);
}

/** A prefix no other client of the same PGlite (pglite-socket in tests) would give its statements. */
const NAME_PREFIX = 'partner_api_s';

/**
 * The statements prepared on each PGlite instance. A statement is parsed, analysed and (after five runs, when Postgres
 * finds the generic plan no costlier) planned once instead of on every run: the demo's inventory list went from
 * 250–310 µs to 135–145 µs in Postgres. Evicted ones are closed with the instance's next request.
 */
const prepared = new WeakMap<PGlite, PreparedNames>();
let named = 0;

async function exchange(pglite: PGlite, message: Uint8Array, names?: RowNames): Promise<Answer> {
  const chunks: Buffer[] = [];
  await pglite.runExclusive(() =>
    pglite.execProtocolRawStream(message, {
      // A view of PGlite's receive buffer, reused by the next write: copied.
      onRawData: (data: Uint8Array) => void chunks.push(Buffer.from(data)),
    }),
  );
  return readMessages(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), names);
}

/**
 * Runs `sql` on `pglite` (under its own lock) and returns the last statement's rows, command and row count. With
 * parameters (the extended protocol) the statement is prepared once and then only bound and executed. `names`:
 * rows keyed (and json values renamed) as Kysely's CamelCasePlugin would.
 */
export async function runStatement(pglite: PGlite, sql: string, params?: unknown[], names?: RowNames): Promise<StatementResult> {
  if (!params) return outcome(await exchange(pglite, serialize.query(sql), names));
  let statements = prepared.get(pglite);
  if (!statements) prepared.set(pglite, (statements = new PreparedNames(DEFAULT_PREPARED)));
  for (let attempt = 0; ; attempt++) {
    const known = statements.use(sql);
    const name = known ?? `${NAME_PREFIX}${++named}`;
    const answer = await exchange(
      pglite,
      Buffer.concat([
        ...statements.takeClosing().map((closed) => serialize.close({ type: 'S', name: closed })),
        ...(known === undefined ? [serialize.parse({ name, text: sql })] : []),
        serialize.bind({ statement: name, values: params.map(parameter) }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      names,
    );
    if (known === undefined && answer.parsed) statements.add(sql, name);
    const code = (answer.error as { code?: string } | undefined)?.code;
    if (known !== undefined && (code === STATEMENT_GONE || code === STALE_PLAN)) {
      statements.forget(sql, code === STALE_PLAN);
      // Outside a transaction block the failed statement left no trace: prepare it again and rerun it (a 0A000 that
      // was not the cached plan's comes back the same way). Inside one, the transaction has failed anyway.
      if (attempt === 0 && answer.status === 'I') continue;
    }
    return outcome(answer);
  }
}

type Parser = (text: string) => unknown;

/** What one exchange answered. */
interface Answer {
  result: StatementResult;
  /** The first ErrorResponse. */
  error?: Error;
  /** A ParseComplete came back: the statement sent with Parse now exists. */
  parsed: boolean;
  /** ReadyForQuery's transaction status: I idle, T in a transaction block, E in a failed one. */
  status?: string;
}

function outcome(answer: Answer): StatementResult {
  if (answer.error) throw answer.error;
  return answer.result;
}

/**
 * The answer's messages: rows, the last CommandComplete, the first ErrorResponse, ParseComplete, ReadyForQuery.
 * An answer with rows is decoded once as Latin-1 (a character per byte), and a value of ASCII bytes (most are) is a
 * substring of that text: on the 35-item list one decode instead of 455, and reading its answer ~150 → ~100 µs
 * (`toString` per value was ~10% of the database thread's time). A value longer than a few characters shares the
 * answer's text until it is copied (the server's database thread hands its rows over by structured cloning, which
 * copies them).
 */
function readMessages(bytes: Buffer, rename: RowNames | undefined): Answer {
  let text: string | undefined;
  let names: string[] = [];
  let bytea: number[] = [];
  let parsers: Parser[] = [];
  let rows: unknown[][] = [];
  let last: StatementResult = { columns: [], values: [] };
  let error: Error | undefined;
  let parsed = false;
  let status: string | undefined;
  let at = 0;
  while (at + 5 <= bytes.length) {
    const type = bytes[at]!;
    const length = bytes.readInt32BE(at + 1);
    const body = at + 5;
    const end = at + 1 + length;
    switch (type) {
      case 0x54: // T RowDescription
        [names, parsers, bytea] = describeRow(bytes, body, rename);
        rows = [];
        break;
      case 0x44: // D DataRow
        rows.push(readRow(bytes, (text ??= bytes.toString('latin1')), body, parsers, rename));
        break;
      case 0x43: {
        // C CommandComplete: "SELECT 35", "INSERT 0 2", "UPDATE 3", "BEGIN", "COMMIT" (or "ROLLBACK" after an error)
        const tag = bytes.toString('utf8', body, end - 1);
        const space = tag.lastIndexOf(' ');
        const count = space > 0 ? Number(tag.slice(space + 1)) : NaN;
        const command = (tag.includes(' ') ? tag.slice(0, tag.indexOf(' ')) : tag).toUpperCase();
        last = { columns: names, values: rows, command, ...(Number.isInteger(count) ? { rowCount: count } : {}), ...(bytea.length ? { bytea } : {}) };
        rows = [];
        names = [];
        parsers = [];
        bytea = [];
        break;
      }
      case 0x49: // I EmptyQueryResponse
        last = { columns: [], values: [] };
        break;
      case 0x45: // E ErrorResponse
        error ??= errorResponse(bytes, body, end);
        break;
      case 0x31: // 1 ParseComplete
        parsed = true;
        break;
      case 0x5a: // Z ReadyForQuery
        status = String.fromCharCode(bytes[body]!);
        break;
      default: // BindComplete, CloseComplete, NoData, notices, parameter statuses: nothing to keep
    }
    at = end;
  }
  return { result: last, error, parsed, status };
}

/** A RowDescription's column names, their parsers and the positions of its bytea columns. */
function describeRow(bytes: Buffer, at: number, rename: RowNames | undefined): [string[], Parser[], number[]] {
  const count = bytes.readInt16BE(at);
  at += 2;
  const names: string[] = new Array(count);
  const parsers: Parser[] = new Array(count);
  const bytea: number[] = [];
  for (let i = 0; i < count; i++) {
    const nul = bytes.indexOf(0, at);
    const name = bytes.toString('utf8', at, nul);
    names[i] = rename ? rename.name(name) : name;
    at = nul + 1;
    // table oid (4), column number (2), type oid (4), type size (2), type modifier (4), format (2)
    const typeOid = bytes.readUInt32BE(at + 6);
    parsers[i] = types.getTypeParser(typeOid, 'text') as Parser;
    if (typeOid === types.builtins.BYTEA) bytea.push(i);
    at += 18;
  }
  return [names, parsers, bytea];
}

/** A DataRow's values; `text`: the whole answer as Latin-1, a character per byte. */
function readRow(bytes: Buffer, text: string, at: number, parsers: Parser[], rename: RowNames | undefined): unknown[] {
  const count = (bytes[at]! << 8) | bytes[at + 1]!;
  at += 2;
  const values: unknown[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const length = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
    at += 4;
    if (length < 0) {
      values[i] = null;
      continue;
    }
    const end = at + length;
    let ascii = true;
    for (let k = at; k < end; k++) {
      if (bytes[k]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    const value = parsers[i]!(ascii ? text.substring(at, end) : bytes.toString('utf8', at, end));
    values[i] = rename && typeof value === 'object' && value !== null ? rename.value(value) : value;
    at = end;
  }
  return values;
}

/** An ErrorResponse as node-postgres raises it: a DatabaseError with the fields PostgreSQL sent. */
function errorResponse(bytes: Buffer, at: number, end: number): Error {
  const fields: Record<string, string> = {};
  let message = 'unknown database error';
  while (at < end && bytes[at] !== 0) {
    const code = String.fromCharCode(bytes[at]!);
    const nul = bytes.indexOf(0, at + 1);
    const value = bytes.toString('utf8', at + 1, nul);
    if (code === 'M') message = value;
    else if (ERROR_FIELDS[code]) fields[ERROR_FIELDS[code]] = value;
    at = nul + 1;
  }
  return databaseError(message, fields);
}

/** node-postgres' DatabaseError with PostgreSQL's fields (also how the database's thread hands one over). */
export function databaseError(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new DatabaseError(message, 0, 'error'), fields);
}
