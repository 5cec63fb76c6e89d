import {
  DateResolver,
  DateTimeResolver,
  EmailAddressResolver,
  JSONObjectResolver,
  URLResolver,
  UUIDResolver,
} from 'graphql-scalars';
import { GraphQLError, GraphQLScalarType } from 'graphql';
import { UploadedFile } from '../src/http/multipart.ts';

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
 * rather than a Date at UTC midnight, so services compare and store days without time zone arithmetic.
 */
const base = DateResolver.toConfig();
const CalendarDateResolver = new GraphQLScalarType<string, string>({
  ...base,
  parseValue: (value) => calendarDay(base.parseValue!(value)),
  parseLiteral: (ast, variables) => calendarDay(base.parseLiteral!(ast, variables)),
});

const calendarDay = (value: unknown): string => (value as Date).toISOString().slice(0, 10);

export const scalarResolvers = {
  UUID: UUIDResolver,
  Date: CalendarDateResolver,
  DateTime: DateTimeResolver,
  URL: URLResolver,
  EmailAddress: EmailAddressResolver,
  JSONObject: JSONObjectResolver,
  Upload: UploadResolver,
};
