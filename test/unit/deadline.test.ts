import { makeExecutableSchema } from '@graphql-tools/schema';
import { execute, parse } from 'graphql';
import { describe, expect, test } from 'vitest';
import { DeadlineExceeded } from '../../src/platform/errors.ts';
import { deadlineFor, enforceDeadlines } from '../../src/platform/graphql/deadline.ts';

// A query whose first level takes 60 ms, under a 30 ms deadline: what is already resolved stays, nothing new starts.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let childCalls = 0;
const schema = enforceDeadlines(
  makeExecutableSchema({
    typeDefs: 'type Item { id: Int! child: Item } type Query { slow: [Item!]! fast: Int! } type Mutation { work: Item! }',
    resolvers: {
      Query: { slow: async () => (await sleep(60), [{ id: 1 }, { id: 2 }]), fast: () => 1 },
      Mutation: { work: async () => (await sleep(60), { id: 3 }) },
      Item: { child: (item: { id: number }) => (childCalls++, { id: item.id * 10 }) },
    },
  }),
);

describe('execution deadline', () => {
  test('fields past the deadline fail with DEADLINE_EXCEEDED and are not resolved', async () => {
    childCalls = 0;
    const result = await execute({ schema, document: parse('{ fast slow { id child { id } } }'), contextValue: { deadline: deadlineFor('query', 30) } });
    expect(childCalls).toBe(0);
    expect(result.errors).toHaveLength(2);
    for (const error of result.errors!) expect(error.originalError).toBeInstanceOf(DeadlineExceeded);
    expect(result.errors![0]!.message).toMatch(/longer than 0.03 s/);
  });

  test('within the deadline everything resolves', async () => {
    const result = await execute({ schema, document: parse('{ slow { id child { id } } }'), contextValue: { deadline: deadlineFor('query', 5000) } });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      slow: [
        { id: 1, child: { id: 10 } },
        { id: 2, child: { id: 20 } },
      ],
    });
  });

  test('mutations and subscriptions get no deadline (their work has its own budgets)', async () => {
    expect(deadlineFor('mutation', 30)).toBeUndefined();
    expect(deadlineFor('subscription', 30)).toBeUndefined();
    const result = await execute({ schema, document: parse('mutation { work { child { id } } }'), contextValue: { deadline: deadlineFor('mutation', 30) } });
    expect(result.errors).toBeUndefined();
  });
});
