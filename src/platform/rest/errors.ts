import { randomUUID } from 'node:crypto';
import type { Logger } from '../log.ts';
import { type GraphQLError, type GraphQLSchema, isEnumType } from 'graphql';
import { AppError, InvalidInput, RateLimited } from '../errors.ts';
import { httpStatus } from '../http/error-status.ts';

export type Family = 'v1' | 'legacy' | 'adapter';

export interface RestErrorResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Which family a URL belongs to (for errors raised before a route runs: 404s, bad JSON). */
export function familyOf(url: string): Family | undefined {
  const path = url.split('?')[0] ?? '';
  if (path === '/api/v1/partner/extract') return 'adapter';
  if (path.startsWith('/api/v1/partner/') || path === '/api/v1/partner') return 'v1';
  if (path.startsWith('/api/partner/') || path === '/api/partner') return 'legacy';
  return undefined;
}

/**
 * Any error → status + body of the family's error shape. Unknown errors are masked: the client gets a
 * correlation id, the log gets the error.
 */
export function restError(family: Family, err: unknown, log: Logger): RestErrorResponse {
  if (err instanceof AppError) {
    // Statuses come from the one error table (the adapter family follows v1).
    const status = httpStatus(err.code, family === 'legacy' ? 'legacy' : 'default');
    const body: Record<string, unknown> = family === 'legacy' ? { success: false, error: err.message } : { error: err.message };
    const headers: Record<string, string> = {};
    if (err instanceof RateLimited) {
      body.retryAfter = err.retryAfter;
      headers['retry-after'] = String(err.retryAfter);
    }
    return { status, body, headers };
  }
  const correlationId = randomUUID();
  log.error({ err, correlationId }, 'unhandled error in REST route');
  const error = `internal server error (correlation id ${correlationId})`;
  const body = family === 'legacy' ? { success: false, error, correlationId } : { error, correlationId };
  return { status: 500, body, headers: {} };
}

/**
 * The first error of a stored operation's result, as the error to report. Errors without a path come from
 * coercing the variables the route built (bad input); errors with one were raised while executing.
 */
export function errorOfResult(error: GraphQLError, schema?: GraphQLSchema): unknown {
  const original = error.originalError;
  if (original instanceof AppError) return original;
  if (!error.path) return new InvalidInput(variableMessage(error.message, schema));
  return original ?? error;
}

/**
 * GraphQL's coercion problems in the words of the REST contract: the REST field, what it must be, what was sent.
 * Enum type names are GraphQL's, not the partner's: the allowed values are listed instead.
 */
const COERCION_PROBLEMS: ReadonlyArray<[RegExp, (m: RegExpExecArray, schema?: GraphQLSchema) => string | undefined]> = [
  [
    /^Value (".*") does not exist in "(\w+)" enum\./s,
    (m, schema) => {
      const type = schema?.getType(m[2]!);
      if (!isEnumType(type)) return undefined;
      return `must be one of ${type
        .getValues()
        .map((v) => v.name)
        .join(', ')} (got ${m[1]})`;
    },
  ],
  [/^Int cannot represent non-integer value: (.*)$/s, (m) => `must be an integer (got ${m[1]})`],
  [/^Int cannot represent non 32-bit signed integer value: (.*)$/s, (m) => `must be an integer from -2147483648 to 2147483647 (got ${m[1]})`],
  [/^Float cannot represent non numeric value: (.*)$/s, (m) => `must be a number (got ${m[1]})`],
  [/^Boolean cannot represent a non boolean value: (.*)$/s, (m) => `must be true or false (got ${m[1]})`],
  [/^String cannot represent a non string value: (.*)$/s, (m) => `must be a string (got ${m[1]})`],
  [/^Expected non-nullable type ".*" not to be null\.$/s, () => 'is required'],
  // graphql-scalars' words (they print the value bare: quoted here as the rules above quote a string).
  [/^Value is not string: (.*)$/s, (m) => `must be a string (got ${m[1]})`],
  [/^Value is not a valid UUID: (.*)$/s, (m) => `must be a UUID (got ${JSON.stringify(m[1])})`],
  [/^Value is not a valid email address: (.*)$/s, (m) => `must be an email address (got ${JSON.stringify(m[1])})`],
  [/^Date cannot represent an invalid date-string (.*)\.$/s, (m) => `must be a date YYYY-MM-DD (got ${JSON.stringify(m[1])})`],
  [/^Date cannot represent non string type (.*)$/s, (m) => `must be a date YYYY-MM-DD (got ${m[1]})`],
  [/^Date must be a day from (.*)$/s, (m) => `must be a day from ${m[1]}`],
  [/^DateTime cannot represent an invalid date-time-string (.*)\.$/s, (m) => `must be a date and time in ISO 8601 (got ${JSON.stringify(m[1])})`],
  [/^DateTime cannot represent non string or Date type (.*)$/s, (m) => `must be a date and time in ISO 8601 (got ${m[1]})`],
];

// 'Variable "$tenantId" got invalid value "x"; Value is not a valid UUID: x' → 'tenantId must be a UUID (got "x")'
// 'Variable "$role" got invalid value "boss"; Value "boss" does not exist in "UserRole" enum.'
//   → 'role must be one of account_owner, … (got "boss")'
// A value inside a list or an input object is named by its path ('events[1] must be a string (got 5)').
function variableMessage(message: string, schema?: GraphQLSchema): string {
  const m = /^Variable "\$(\w+)" got invalid value .*?(?: at "([\w.[\]]+)")?; (.*)$/s.exec(message);
  if (!m) return message;
  const field = m[2] ?? m[1]!;
  const problem = m[3]!;
  for (const [pattern, say] of COERCION_PROBLEMS) {
    const found = pattern.exec(problem);
    const said = found && say(found, schema);
    if (said) return `${field} ${said}`;
  }
  return `${field}: ${problem}`;
}
