import { randomUUID } from 'node:crypto';
import type { Logger } from '../log.ts';
import type { GraphQLError } from 'graphql';
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
export function errorOfResult(error: GraphQLError): unknown {
  const original = error.originalError;
  if (original instanceof AppError) return original;
  if (!error.path) return new InvalidInput(variableMessage(error.message));
  return original ?? error;
}

// 'Variable "$tenantId" got invalid value "x"; Value is not a valid UUID: x' → 'tenantId: Value is not a valid UUID: x'
function variableMessage(message: string): string {
  const m = /^Variable "\$(\w+)" got invalid value .*?; (.*)$/s.exec(message);
  return m ? `${m[1]}: ${m[2]}` : message;
}
