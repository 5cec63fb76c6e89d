import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  getOperationAST,
  getVariableValues,
  type GraphQLSchema,
  parse,
  validate,
  type VariableDefinitionNode,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { deadlineFor, type WithDeadline } from './deadline.ts';
import type { OperationGuard } from './limits.ts';

/**
 * THE stored-operation executor: REST routes (src/platform/rest/router.ts) and the server-rendered pages
 * (src/web/pages/) run their GraphQL operations through it, against the same schema, resolvers, access checks and
 * tenant confinement as /graphql. Operations are parsed and validated once (against the schema and the static
 * depth/alias limits); each run checks the variables' limits and sets the execution deadline.
 *
 * A document is compiled once, on its first run, by graphql-jit into JavaScript that resolves exactly its fields
 * (the same resolvers, scalars and errors; no per-field lookups of the schema and AST at run time): a REST read's
 * GraphQL execution was ~15% of its CPU (issue 17). A document graphql-jit cannot compile runs on graphql-js.
 * Variables are coerced by graphql-js first, as `execute` does, so a bad value is refused with the scalar's own
 * message ("Date must be a day from 1900-01-01 …"), which graphql-jit would shorten to "Expected type Date.".
 */
export function createOperationExecutor(schema: GraphQLSchema, guard: OperationGuard) {
  const parsed = new Map<string, DocumentNode>();
  const compiled = new WeakMap<DocumentNode, Compiled | null>();

  function compiledOf(document: DocumentNode): Compiled | null {
    let entry = compiled.get(document);
    if (entry === undefined) {
      const query = compileQuery(schema, document);
      const operation = getOperationAST(document);
      entry = isCompiledQuery(query) && operation ? { query, variables: operation.variableDefinitions ?? [] } : null;
      compiled.set(document, entry);
    }
    return entry;
  }

  /** Validates a document against the schema and the static limits; throws naming every problem. */
  function prepare(document: DocumentNode, what: string): DocumentNode {
    const errors = [...validate(schema, document).map((e) => e.message), ...guard.staticProblems(document)];
    if (errors.length > 0) throw new Error(`${what} is invalid: ${errors.join('; ')}`);
    return document;
  }

  return {
    prepare,
    /** The document of an operation's text, parsed and validated on first use. */
    documentOf(text: string): DocumentNode {
      let document = parsed.get(text);
      if (!document) {
        document = prepare(parse(text), 'operation');
        parsed.set(text, document);
      }
      return document;
    },
    /** Runs a prepared document as the context's principal (variable limits checked first: an AppError). */
    async run<C extends object>(document: DocumentNode, variables: Record<string, unknown>, context: C): Promise<ExecutionResult> {
      const operation = guard.check(document, variables);
      const contextValue: C & WithDeadline = { ...context, deadline: deadlineFor(operation, guard.limits.deadlineMs) };
      const entry = compiledOf(document);
      if (!entry) return execute({ schema, document, variableValues: variables, contextValue });
      const coerced = getVariableValues(schema, entry.variables, variables, { maxErrors: 50 });
      if (coerced.errors) return { errors: coerced.errors };
      return entry.query.query(undefined, contextValue, variables);
    },
  };
}
export type OperationExecutor = ReturnType<typeof createOperationExecutor>;

/** A document compiled by graphql-jit, with its operation's variable definitions. */
interface Compiled {
  query: CompiledQuery;
  variables: readonly VariableDefinitionNode[];
}
