import { buildSchema, type ExecutionResult, parse } from 'graphql';
import { expect, test } from 'vitest';
import type { Principal } from '../../src/platform/auth/authenticate.ts';
import { createSharedExecution, shareKey } from '../../src/platform/http/shared-execution.ts';

const principal = (over: Partial<Principal> = {}): Principal => ({
  keyId: 'k1',
  keyPrefix: 'pk_aaaaaaaa',
  scopes: new Set(['invoices:read', 'read']),
  partner: { id: 'p1', name: 'P', tier: 'storage', legacyPlan: null },
  defaultTenantId: 't1',
  ...over,
});

test('the share key differs whenever who is asking or what is asked differs', () => {
  const q = { query: 'subscription { x }' };
  const base = shareKey(principal(), q);
  expect(shareKey(principal({ scopes: new Set(['read', 'invoices:read']) }), q)).toBe(base);
  for (const other of [
    shareKey(principal({ partner: { id: 'p2', name: 'P', tier: 'storage', legacyPlan: null } }), q),
    shareKey(principal({ keyId: 'k2' }), q),
    shareKey(principal({ scopes: new Set(['read']) }), q),
    shareKey(principal({ session: { userId: 'u', tenantId: 't1', storeId: null } }), q),
    shareKey(principal({ session: { userId: 'u', tenantId: 't1', storeId: 's1' } }), q),
    shareKey(principal(), { query: 'subscription { x }', variables: { a: 1 } }),
    shareKey(principal(), { query: 'subscription { y }' }),
  ])
    expect(other).not.toBe(base);
});

test('subscribers with one share key get one execution per event; another key gets its own', async () => {
  let executions = 0;
  const schema = buildSchema('type Query { x: Int } type Subscription { tick: Int }');
  const event = { n: 1 };
  const source = () => ({
    async *[Symbol.asyncIterator]() {
      yield event;
    },
  });
  (schema.getSubscriptionType()!.getFields().tick as any).subscribe = source;
  (schema.getSubscriptionType()!.getFields().tick as any).resolve = (e: { n: number }) => (executions++, e.n);
  const shared = createSharedExecution();
  const run = async (key: string) => {
    const contextValue = {};
    shared.mark(contextValue, key);
    const stream = (await shared.subscribe({ schema, document: parse('subscription { tick }'), contextValue })) as AsyncIterableIterator<ExecutionResult>;
    return (await stream.next()).value as ExecutionResult;
  };
  const results = [await run('a'), await run('a'), await run('b')];
  expect(results.map((r) => r.data)).toEqual([{ tick: 1 }, { tick: 1 }, { tick: 1 }]);
  expect(executions).toBe(2);
  expect(results[0]).toBe(results[1]);
  expect(results[2]).not.toBe(results[0]);
});
