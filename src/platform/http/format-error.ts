import { randomUUID } from 'node:crypto';
import { unwrapResolverError } from '@apollo/server/errors';
import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError } from '../errors.ts';

// Apollo's errors about the request itself: the client's to fix, safe to show as they are.
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

/**
 * AppErrors keep their message and carry their code in extensions.code; GraphQL's own request errors
 * (parse, validation, variable coercion) pass through; anything else is masked behind a correlation id
 * that is also logged with the real error. Never a stack trace.
 */
export function formatGraphQLError(log: FastifyBaseLogger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const { stacktrace: _drop, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
    if (original instanceof AppError) {
      const details = original.code === 'BAD_USER_INPUT' ? { fields: original.details.fields } : {};
      return { ...formatted, message: original.message, extensions: { ...extensions, ...details, code: original.code } };
    }
    if (REQUEST_ERROR_CODES.has(String(extensions.code))) return { ...formatted, extensions };
    // An error without a path was raised before anything executed: coercing a variable (it carries the scalar's
    // error as originalError). Apollo marks those BAD_USER_INPUT; graphql-ws hands them over unmarked.
    if (original instanceof GraphQLError && !original.path && original.originalError)
      return { ...formatted, extensions: { ...extensions, code: 'BAD_USER_INPUT' } };
    if (original instanceof GraphQLError && !original.originalError) return { ...formatted, extensions };
    const correlationId = randomUUID();
    log.error({ err: original, correlationId }, 'unhandled error in GraphQL operation');
    return {
      message: `internal server error (correlation id ${correlationId})`,
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: { code: 'INTERNAL_SERVER_ERROR', correlationId },
    };
  };
}
