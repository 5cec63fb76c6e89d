import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type DocumentNode, execute, type GraphQLSchema, parse, validate } from 'graphql';
import type { Principal } from '../../platform/auth/authenticate.ts';
import type { CreateContext } from '../../app/context.ts';
import { AppError } from '../../platform/errors.ts';
import { deadlineFor } from '../../platform/graphql/deadline.ts';
import type { OperationGuard } from '../../platform/graphql/limits.ts';

/** What a page shows instead of its content: 400 (bad input in the URL), 403, 404. */
export class PageError extends Error {
  constructor(readonly status: 400 | 403 | 404, message: string) {
    super(message);
  }
}

/**
 * Runs the pages' GraphQL operations on the server, as the session's principal: the same resolvers, access
 * rules and tenant confinement as /graphql. Each operation is parsed and validated once.
 */
export function createPageGraphQL(schema: GraphQLSchema, guard: OperationGuard, createContext: CreateContext) {
  const documents = new Map<string, DocumentNode>();

  function documentOf(query: string): DocumentNode {
    let document = documents.get(query);
    if (!document) {
      document = parse(query);
      const errors = validate(schema, document);
      if (errors.length) throw new Error(`page operation is invalid: ${errors[0]!.message}`);
      documents.set(query, document);
    }
    return document;
  }

  return async function run<T>(principal: Principal, log: FastifyBaseLogger, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const document = documentOf(query);
    let operation: string | undefined;
    try {
      operation = guard.check(document, variables);
    } catch (err) {
      if (err instanceof AppError) throw new PageError(400, err.message);
      throw err;
    }
    const contextValue = { ...createContext(principal, randomUUID(), log), deadline: deadlineFor(operation, guard.limits.deadlineMs) };
    const result = await execute({ schema, document, variableValues: variables, contextValue });
    const error = result.errors?.[0];
    if (error) {
      const original = error.originalError;
      if (original instanceof AppError) {
        if (original.code === 'BAD_USER_INPUT') throw new PageError(400, original.message);
        if (original.code === 'NOT_FOUND') throw new PageError(404, original.message);
        if (original.code === 'FORBIDDEN') throw new PageError(403, original.message);
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
