import pg from 'pg';

// Values in and out of the database as node-postgres passes them: parameters are prepared by pg's prepareValue (for
// PGlite as text, pglite-protocol.ts), result columns are parsed by pg-types' text parsers, so a date stays
// 'YYYY-MM-DD', numeric and int8 stay strings, json is parsed, and unknown types such as pgvector's come back as text.

// A `date` is a calendar day: keep Postgres' 'YYYY-MM-DD' text instead of a Date at local midnight, which
// shifts the day in any time zone west of UTC. (Here so that the database thread parses dates the same way.)
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils.prepareValue;
/** A parameter as node-postgres sends it (text), with bytea in its text form instead of a binary parameter. */
export function prepare(value: unknown): unknown {
  const prepared = prepareValue(value);
  return Buffer.isBuffer(prepared) ? `\\x${prepared.toString('hex')}` : prepared;
}
