import types from 'pg-types';

// Values out of the database as node-postgres reads them: result columns are parsed by pg-types' text parsers (the
// same module `pg` uses, so both paths share these settings), so a date stays 'YYYY-MM-DD', numeric and int8 stay
// strings, json is parsed, and unknown types such as pgvector's come back as text. Imported for its settings by
// connect.ts (main thread) and by the embedded database's thread, which loads pg-types without the rest of `pg`.

// A `date` is a calendar day: keep Postgres' 'YYYY-MM-DD' text instead of a Date at local midnight, which
// shifts the day in any time zone west of UTC. (Here so that the database thread parses dates the same way.)
types.setTypeParser(types.builtins.DATE, (value: string) => value);

// A timestamptz as Postgres writes it in a UTC session, 'YYYY-MM-DD HH:MM:SS[.ffffff]+00', is read here without
// postgres-date's regular expressions (7% of the database thread's time on a 35-item list); anything else (another
// offset, BC, infinity, a year before 1000) goes to pg-types' own parser. Both give the same Date.
const slowTimestamptz = types.getTypeParser(types.builtins.TIMESTAMPTZ, 'text') as (text: string) => unknown;
types.setTypeParser(types.builtins.TIMESTAMPTZ, (text: string) => utcTimestamp(text) ?? slowTimestamptz(text));

/** The number written at text[from, to), or -1 if a character there is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * By the fraction's number of digits (1–6): what multiplies (up to 3) or divides it into whole milliseconds. A table,
 * not `10 ** (digits - 3)`: V8 computes that with its general `pow`, 1.3% of a REST read's CPU on PostgreSQL (70
 * timestamps a response, `perf record` of the server).
 */
const MS_SCALE = [0, 100, 10, 1, 10, 100, 1000];

function utcTimestamp(text: string): Date | undefined {
  const end = text.length - 3;
  if (end < 19 || text.charCodeAt(end) !== 43 /* + */ || text.charCodeAt(end + 1) !== 48 || text.charCodeAt(end + 2) !== 48) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== ' ' || text[13] !== ':' || text[16] !== ':') return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  const hour = digitsAt(text, 11, 13);
  const minute = digitsAt(text, 14, 16);
  const second = digitsAt(text, 17, 19);
  if (year < 1000 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  let ms = 0;
  if (end > 19) {
    // '.' and 1–6 digits: whole milliseconds (a Date holds no less), as Date.UTC truncates postgres-date's fraction.
    if (text[19] !== '.' || end - 20 < 1 || end - 20 > 6) return undefined;
    const fraction = digitsAt(text, 20, end);
    if (fraction < 0) return undefined;
    const digits = end - 20;
    ms = digits <= 3 ? fraction * MS_SCALE[digits]! : Math.trunc(fraction / MS_SCALE[digits]!);
  }
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
}
