import { randomUUID } from 'node:crypto';
import type { Principal } from '../../platform/auth/authenticate.ts';
import type { CreateContext } from '../../app/context.ts';
import { AppError } from '../../platform/errors.ts';
import type { OperationExecutor } from '../../platform/graphql/executor.ts';
import { httpStatus } from '../../platform/http/error-status.ts';
import type { Logger } from '../../platform/log.ts';

/** What a page shows instead of its content: 400 (bad input in the URL), 403, 404. */
export class PageError extends Error {
  constructor(
    readonly status: 400 | 403 | 404,
    message: string,
  ) {
    super(message);
  }
}

/** The errors a page shows in its frame (with the status of the error table); anything else is a 500. */
const SHOWN = new Set(['BAD_USER_INPUT', 'NOT_FOUND', 'FORBIDDEN']);
const pageError = (err: AppError) => new PageError(httpStatus(err.code) as PageError['status'], err.message);

/**
 * Runs the pages' GraphQL operations on the server, as the session's principal, through the one operation
 * executor: the same resolvers, access rules and tenant confinement as /graphql and the REST routes.
 */
export function createPageGraphQL(executor: OperationExecutor, createContext: CreateContext) {
  return async function run<T>(principal: Principal, log: Logger, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const document = executor.documentOf(query);
    let result;
    try {
      result = await executor.run(document, variables, createContext(principal, randomUUID(), log));
    } catch (err) {
      if (err instanceof AppError) throw new PageError(400, err.message);
      throw err;
    }
    const error = result.errors?.[0];
    if (error) {
      const original = error.originalError;
      if (original instanceof AppError) {
        if (SHOWN.has(original.code)) throw pageError(original);
        throw original;
      }
      // No path: the request itself was refused, i.e. a value from the URL is not of its variable's type.
      if (!error.path) throw new PageError(400, `A value in the address is not valid. ${error.message}`);
      throw original ?? error;
    }
    return result.data as T;
  };
}
export type PageGraphQL = ReturnType<typeof createPageGraphQL>;
