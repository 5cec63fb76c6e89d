import { type GraphQLFieldResolver, type GraphQLSchema, isObjectType } from 'graphql';
import { DeadlineExceeded } from '../errors.ts';

// A per-request execution deadline. Every field with a resolver of ours first checks the request's deadline (set on
// the context for queries): once it has passed, nothing new is resolved and each remaining field fails with
// DEADLINE_EXCEEDED, so a slow or huge query releases the database and the event loop instead of running on.
// Fields without a resolver read a property of their parent and are left alone (no cost worth guarding).

export interface WithDeadline {
  /** No field is resolved after `at` (epoch ms), `ms` after the request started; absent for mutations and subscriptions. */
  deadline?: { at: number; ms: number };
}

/** The deadline of an operation starting now: queries only (a mutation's work is bounded by its own budgets). */
export function deadlineFor(operation: string | undefined, ms: number): WithDeadline['deadline'] {
  return operation === 'query' ? { at: Date.now() + ms, ms } : undefined;
}

/** Wraps, in place, every resolver of the schema's object types with the deadline check. */
export function enforceDeadlines(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve) field.resolve = checked(field.resolve);
    }
  }
  return schema;
}

function checked(resolve: GraphQLFieldResolver<unknown, WithDeadline>): GraphQLFieldResolver<unknown, WithDeadline> {
  return (source, args, context, info) => {
    const deadline = context?.deadline;
    if (deadline && Date.now() > deadline.at) throw new DeadlineExceeded(deadline.ms);
    return resolve(source, args, context, info);
  };
}
