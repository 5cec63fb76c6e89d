import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { serialize } from 'pg-protocol';
import type { EngineResult } from './pglite-dialect.ts';

// One statement on PGlite in one exchange of the extended protocol (Parse, Bind, Describe, Execute, Sync), its answer
// read here from the raw bytes. PGlite's query() sends those as six exchanges, then parses every message with
// pg-protocol's general parser and builds the rows: measured on the demo seed's inventory list (35 rows × 13
// columns, issue 17) 1.3 ms, of which Postgres itself (the exchange with the answer left unparsed) 0.28 ms.
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

/** A parameter already prepared as text (pg-values.ts `prepare`), or null. */
function textParameter(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** The request's bytes: one exchange. */
function request(sql: string, params: unknown[] | undefined): Uint8Array {
  if (!params) return serialize.query(sql);
  return Buffer.concat([
    serialize.parse({ text: sql }),
    serialize.bind({ values: params.map(textParameter) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ]);
}

/** Runs `sql` on `pglite` (under its own lock) and returns the last statement's rows, command and row count. */
export async function runStatement(pglite: PGlite, sql: string, params?: unknown[]): Promise<EngineResult> {
  const chunks: Buffer[] = [];
  const message = request(sql, params);
  await pglite.runExclusive(() =>
    pglite.execProtocolRawStream(message, {
      // A view of PGlite's receive buffer, reused by the next write: copied.
      onRawData: (data: Uint8Array) => void chunks.push(Buffer.from(data)),
    }),
  );
  return readAnswer(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
}

type Parser = (text: string) => unknown;

/** The answer's messages: rows, the last CommandComplete, an ErrorResponse (thrown after ReadyForQuery). */
export function readAnswer(bytes: Buffer): EngineResult {
  let names: string[] = [];
  let parsers: Parser[] = [];
  let rows: Record<string, unknown>[] = [];
  let last: EngineResult = { rows: [] };
  let error: Error | undefined;
  let at = 0;
  while (at + 5 <= bytes.length) {
    const type = bytes[at]!;
    const length = bytes.readInt32BE(at + 1);
    const body = at + 5;
    const end = at + 1 + length;
    switch (type) {
      case 0x54: // T RowDescription
        [names, parsers] = describeRow(bytes, body);
        rows = [];
        break;
      case 0x44: // D DataRow
        rows.push(readRow(bytes, body, names, parsers));
        break;
      case 0x43: {
        // C CommandComplete: "SELECT 35", "INSERT 0 2", "UPDATE 3", "BEGIN", "COMMIT" (or "ROLLBACK" after an error)
        const tag = bytes.toString('utf8', body, end - 1);
        const space = tag.lastIndexOf(' ');
        const count = space > 0 ? Number(tag.slice(space + 1)) : NaN;
        const command = (tag.includes(' ') ? tag.slice(0, tag.indexOf(' ')) : tag).toUpperCase();
        last = { rows, command, ...(Number.isInteger(count) ? { rowCount: count } : {}) };
        rows = [];
        names = [];
        parsers = [];
        break;
      }
      case 0x49: // I EmptyQueryResponse
        last = { rows: [] };
        break;
      case 0x45: // E ErrorResponse
        error ??= errorResponse(bytes, body, end);
        break;
      default: // ParseComplete, BindComplete, NoData, ReadyForQuery, notices, parameter statuses: nothing to keep
    }
    at = end;
  }
  if (error) throw error;
  return last;
}

function describeRow(bytes: Buffer, at: number): [string[], Parser[]] {
  const count = bytes.readInt16BE(at);
  at += 2;
  const names: string[] = new Array(count);
  const parsers: Parser[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const nul = bytes.indexOf(0, at);
    names[i] = bytes.toString('utf8', at, nul);
    at = nul + 1;
    // table oid (4), column number (2), type oid (4), type size (2), type modifier (4), format (2)
    const typeOid = bytes.readUInt32BE(at + 6);
    parsers[i] = pg.types.getTypeParser(typeOid, 'text') as Parser;
    at += 18;
  }
  return [names, parsers];
}

function readRow(bytes: Buffer, at: number, names: string[], parsers: Parser[]): Record<string, unknown> {
  const count = bytes.readInt16BE(at);
  at += 2;
  const row: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const length = bytes.readInt32BE(at);
    at += 4;
    if (length < 0) {
      row[names[i]!] = null;
      continue;
    }
    row[names[i]!] = parsers[i]!(bytes.toString('utf8', at, at + length));
    at += length;
  }
  return row;
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
  return Object.assign(new pg.DatabaseError(message, 0, 'error'), fields);
}
