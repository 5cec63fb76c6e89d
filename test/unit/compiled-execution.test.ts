import { execute, getIntrospectionQuery, GraphQLError, parse } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { describe, expect, it } from 'vitest';
import { createCompiledExecution } from '../../src/platform/graphql/compiled-execution.ts';
import { NotFound } from '../../src/platform/errors.ts';

// graphql-jit must answer exactly what graphql-js answers: data, nulls, error messages, paths, locations and the
// original errors Apollo and the REST router read codes from.
const schema = makeExecutableSchema({
  typeDefs: /* GraphQL */ `
    scalar Day
    interface Named {
      name: String!
    }
    type Item implements Named {
      id: ID!
      name: String!
      cost: Float
      tags: [String!]!
      parent: Item
    }
    type Store implements Named {
      name: String!
      items(first: Int = 2): [Item!]!
    }
    union Thing = Item | Store
    type Query {
      store(name: String!): Store
      things: [Thing!]!
      broken: Item
      required: Item!
      day(value: Day!): String
    }
  `,
  resolvers: {
    Day: {
      __serialize: (v: unknown) => v,
      __parseValue: (v: unknown) => {
        if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw new GraphQLError('Day must be YYYY-MM-DD');
        return v;
      },
    },
    Named: { __resolveType: (v: { id?: string }) => (v.id ? 'Item' : 'Store') },
    Thing: { __resolveType: (v: { id?: string }) => (v.id ? 'Item' : 'Store') },
    Query: {
      store: async (_: unknown, { name }: { name: string }) => (name === 'none' ? null : { name }),
      things: () => [{ id: '1', name: 'Flour', tags: ['dry'] }, { name: 'Uptown' }],
      broken: () => {
        throw new NotFound('item');
      },
      required: () => null,
      day: (_: unknown, { value }: { value: string }) => `day ${value}`,
    },
    Store: {
      items: (_: unknown, { first }: { first: number }) =>
        Array.from({ length: first }, (_, i) => ({
          id: `i${i}`,
          name: `Item ${i}`,
          cost: i === 1 ? null : i * 1.5,
          tags: [],
          parent: i ? { id: 'p', name: 'P', tags: ['x'] } : null,
        })),
    },
  },
});

const cases: Array<[string, Record<string, unknown>]> = [
  ['query($n: String!) { store(name: $n) { name items { id name cost tags parent { id tags } } } }', { n: 'Uptown' }],
  ['query($n: String!, $f: Int) { s: store(name: $n) { items(first: $f) { ...I } } } fragment I on Item { id name }', { n: 'x', f: 3 }],
  ['{ store(name: "none") { name } }', {}],
  ['{ things { __typename ... on Item { id name } ... on Store { name } } }', {}],
  ['query($b: Boolean!) { things { ... on Named { name } } store(name: "a") @include(if: $b) { name } }', { b: false }],
  ['{ broken { id } things { __typename } }', {}],
  ['{ required { id } }', {}],
  ['query($d: Day!) { day(value: $d) }', { d: '2026-11-27' }],
  ['query($d: Day!) { day(value: $d) }', { d: 'yesterday' }],
  ['query($d: Day!) { day(value: $d) }', {}],
  [getIntrospectionQuery(), {}],
];

describe('compiled execution (graphql-jit) answers as graphql-js does', () => {
  for (const [text, variables] of cases) {
    it(text.slice(0, 90), async () => {
      const document = parse(text);
      const expected = await execute({ schema, document, variableValues: variables });
      const run = createCompiledExecution(schema, { compileAfterRuns: 0 });
      // Twice: the first run compiles, the second uses the compiled query.
      for (let i = 0; i < 2; i++) {
        const result = await run({ document, variables, contextValue: {} });
        expect(JSON.parse(JSON.stringify(result))).toEqual(JSON.parse(JSON.stringify(expected)));
        expect(result.errors?.map((e) => [e instanceof GraphQLError, e.originalError?.constructor.name, e.extensions])).toEqual(
          expected.errors?.map((e) => [e instanceof GraphQLError, e.originalError?.constructor.name, e.extensions]),
        );
      }
    });
  }

  it('compiles a client document only when it comes back (compileAfterRuns: 1), with the same answer', async () => {
    const document = parse('{ things { __typename } }');
    const run = createCompiledExecution(schema, { compileAfterRuns: 1 });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await run({ document, variables: undefined, contextValue: {} }));
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });
});
