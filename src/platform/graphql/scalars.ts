import { DateResolver, DateTimeResolver, EmailAddressResolver, JSONObjectResolver, URLResolver, UUIDResolver } from 'graphql-scalars';
import { GraphQLError, GraphQLScalarType } from 'graphql';
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

export const scalarResolvers = {
  UUID: UUIDResolver,
  Date: CalendarDateResolver,
  DateTime: DateTimeResolver,
  URL: URLResolver,
  EmailAddress: EmailAddressResolver,
  JSONObject: JSONObjectResolver,
  Upload: UploadResolver,
};
