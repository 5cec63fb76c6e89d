import { DateResolver, DateTimeResolver, EmailAddressResolver, JSONObjectResolver, URLResolver, UUIDResolver } from 'graphql-scalars';
import { GraphQLError, GraphQLScalarType } from 'graphql';
import { isoTime } from '../lib/iso-time.ts';
import { UploadedFile } from '../lib/uploaded-file.ts';

const NOT_A_FILE = 'Upload values are files sent as parts of a multipart request (GraphQL multipart request spec)';

/** A file of a multipart request; the server has read it fully (at most 25 MB) before the operation runs. */
const UploadResolver = new GraphQLScalarType<UploadedFile, never>({
  name: 'Upload',
  description: 'A file sent with the GraphQL multipart request spec.',
  parseValue(value) {
    if (value instanceof UploadedFile) return value;
    throw new GraphQLError(NOT_A_FILE);
  },
  parseLiteral() {
    throw new GraphQLError(NOT_A_FILE);
  },
  serialize() {
    throw new GraphQLError('Upload is an input-only scalar');
  },
});

/**
 * graphql-scalars' Date, except that an input arrives as the calendar day 'YYYY-MM-DD' (like `date` columns)
 * rather than a Date at UTC midnight, so services compare and store days without time zone arithmetic. Input days
 * run from 1900 to 2999: week and report arithmetic a few days either side of 0001-01-01 or 9999-12-31 leaves what
 * Postgres and a 'YYYY-MM-DD' string can hold.
 */
const base = DateResolver.toConfig();
const CalendarDateResolver = new GraphQLScalarType<string, string>({
  ...base,
  parseValue: (value) => calendarDay(base.parseValue!(value)),
  parseLiteral: (ast, variables) => calendarDay(base.parseLiteral!(ast, variables)),
});

const FIRST_DAY = '1900-01-01';
const LAST_DAY = '2999-12-31';

function calendarDay(value: unknown): string {
  const day = (value as Date).toISOString().slice(0, 10);
  if (day < FIRST_DAY || day > LAST_DAY) throw new GraphQLError(`Date must be a day from ${FIRST_DAY} to ${LAST_DAY} (got ${day})`);
  return day;
}

/**
 * graphql-scalars' DateTime, except that a result holds the ISO string rather than a Date: the bytes sent are the
 * same (JSON writes a Date with its toJSON, which is toISOString), but a Date anywhere in a result sends
 * JSON.stringify down its slow path, one toJSON call per value — a 35-item inventory list (70 timestamps) took
 * 118 µs to serialize instead of 42.
 */
const dateTimeBase = DateTimeResolver.toConfig();
const IsoDateTimeResolver = new GraphQLScalarType<Date, string>({
  ...dateTimeBase,
  serialize: (value) => isoTime(value instanceof Date && !Number.isNaN(value.getTime()) ? value : (dateTimeBase.serialize!(value) as Date)),
});

/** 8-4-4-4-12 hex digits, as the database writes a uuid. */
function isCanonicalUuid(value: string): boolean {
  if (value.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = value.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
    } else if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return false;
  }
  return true;
}

/**
 * graphql-scalars' UUID, except that a result's canonical uuid is checked without building a regular expression
 * per value (its serialize does; ~2% of a list's event-loop time). Anything else is serialized (or refused) by it.
 */
const uuidBase = UUIDResolver.toConfig();
const CheapUUIDResolver = new GraphQLScalarType<string, string>({
  ...uuidBase,
  serialize: (value) => (typeof value === 'string' && isCanonicalUuid(value) ? value : (uuidBase.serialize!(value) as string)),
});

export const scalarResolvers = {
  UUID: CheapUUIDResolver,
  Date: CalendarDateResolver,
  DateTime: IsoDateTimeResolver,
  URL: URLResolver,
  EmailAddress: EmailAddressResolver,
  JSONObject: JSONObjectResolver,
  Upload: UploadResolver,
};
