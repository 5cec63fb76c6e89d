import { type DocumentNode, type ExecutionResult, type GraphQLSchema, parse, validate } from 'graphql';
import { createCompiledExecution } from './compiled-execution.ts';
import { deadlineFor, type WithDeadline } from './deadline.ts';
import type { OperationGuard } from './limits.ts';

/**
 * THE stored-operation executor: REST routes (src/platform/rest/router.ts) and the server-rendered pages
 * (src/web/pages/) run their GraphQL operations through it, against the same schema, resolvers, access checks and
 * tenant confinement as /graphql. Operations are parsed and validated once (against the schema and the static
 * depth/alias limits); each run checks the variables' limits and sets the execution deadline.
 * Operations run compiled by graphql-jit from their first run on (compiled-execution.ts).
 */
export function createOperationExecutor(schema: GraphQLSchema, guard: OperationGuard) {
  const parsed = new Map<string, DocumentNode>();
  const executeDocument = createCompiledExecution(schema, { compileAfterRuns: 0 });

  /** Validates a document against the schema and the static limits; throws naming every problem. */
  function prepare(document: DocumentNode, what: string): DocumentNode {
    const errors = [...validate(schema, document).map((e) => e.message), ...guard.staticProblems(document)];
    if (errors.length > 0) throw new Error(`${what} is invalid: ${errors.join('; ')}`);
    return document;
  }

  return {
    schema,
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
      return executeDocument({ document, variables, contextValue });
    },
  };
}
export type OperationExecutor = ReturnType<typeof createOperationExecutor>;
