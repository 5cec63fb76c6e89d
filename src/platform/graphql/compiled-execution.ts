import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';

// Execution of a validated document, compiled by graphql-jit (issue 17): a document is turned once into JavaScript
// that resolves exactly its fields, with the schema's own resolvers and scalars, instead of graphql-js walking the
// schema and the document for every field of every request (~15–18% of a 35-item read's CPU). The stored REST
// operations compile on their first run; client documents on /graphql on their second, so a one-off document does
// not pay for a compilation. A document graphql-jit cannot compile (or a subscription) runs on graphql-js.
// Variables are coerced by graphql-js first, as `execute` does, so a bad value is refused with the scalar's own
// message ("Date must be a day from 1900-01-01 …"), which graphql-jit would shorten to "Expected type Date.".

export interface ExecuteArgs {
  document: DocumentNode;
  variables: Record<string, unknown> | undefined;
  contextValue: unknown;
  operationName?: string | null;
}

interface Compiled {
  query: CompiledQuery;
  variables: readonly VariableDefinitionNode[];
}

/** An execute function for `schema` that compiles a document once it has run `compileAfterRuns` times (0: at once). */
export function createCompiledExecution(schema: GraphQLSchema, options: { compileAfterRuns: number }) {
  /** Per document, per operation name: the compiled query, null when it is not compiled, or the runs so far. */
  const byDocument = new WeakMap<DocumentNode, Map<string, Compiled | null | number>>();

  function compiledOf(document: DocumentNode, operationName: string | null | undefined): Compiled | null {
    let byName = byDocument.get(document);
    if (!byName) byDocument.set(document, (byName = new Map()));
    const name = operationName ?? '';
    const known = byName.get(name) ?? 0;
    if (typeof known !== 'number') return known;
    if (known < options.compileAfterRuns) {
      byName.set(name, known + 1);
      return null;
    }
    const operation = getOperationAST(document, operationName);
    const query = operation && operation.operation !== 'subscription' ? compileOrNull(schema, document, operationName) : null;
    const entry = query && isCompiledQuery(query) ? { query, variables: operation!.variableDefinitions ?? [] } : null;
    byName.set(name, entry);
    return entry;
  }

  return function executeDocument({ document, variables = {}, contextValue, operationName }: ExecuteArgs): Promise<ExecutionResult> | ExecutionResult {
    const entry = compiledOf(document, operationName);
    if (!entry) return execute({ schema, document, variableValues: variables, contextValue, operationName });
    const coerced = getVariableValues(schema, entry.variables, variables, { maxErrors: 50 });
    if (coerced.errors) return { errors: coerced.errors };
    const result = entry.query.query(undefined, contextValue, variables);
    return isPromise(result) ? result.then(asGraphQLJsResult) : asGraphQLJsResult(result);
  };
}

/** graphql-jit's compilation of a document, or null when it throws on one (graphql-js then runs it, as before). */
function compileOrNull(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined) {
  try {
    return compileQuery(schema, document, operationName ?? undefined);
  } catch {
    return null;
  }
}

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => typeof (value as Promise<T>)?.then === 'function';

/**
 * graphql-jit's errors are GraphQLErrors without `extensions` when the thrown error had none; graphql-js always gives
 * an object there, and Apollo reads `extensions.code` of every error (it answered INTERNAL_SERVER_ERROR instead of
 * formatting a NOT_FOUND). Its errors become graphql-js's, with the same message, locations, path and original error.
 * A field error graphql-jit raised itself (a null for a non-null field) gets an Error as its original error, as in
 * graphql-js, so it is masked as an internal error the same way.
 */
function asGraphQLJsResult(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((e) => {
    const originalError = e.originalError ?? (e.path ? new Error(e.message) : undefined);
    const error = new GraphQLError(e.message, { path: e.path, originalError, extensions: e.extensions });
    return Object.assign(error, { locations: e.locations });
  });
  return { ...result, errors };
}
