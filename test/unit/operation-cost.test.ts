import { parse } from 'graphql';
import { expect, test } from 'vitest';
import { buildSchema } from '../../src/app/schema.ts';
import { createOperationGuard, DEFAULT_LIMITS, QueryTooComplex } from '../../src/platform/graphql/limits.ts';

// The cost of a document is remembered per variables: the same request again skips the estimate, and the limit holds
// for every variables value, remembered or not.
test('remembered costs still refuse what is over the limit, per variables', () => {
  const guard = createOperationGuard(buildSchema(), { ...DEFAULT_LIMITS, maxCost: 1000 });
  const document = parse('query($n: Int, $m: Int) { vendors(limit: $n) { id invoices(first: $m) { nodes { id } } } }');
  for (let i = 0; i < 2; i++) {
    expect(guard.check(document, { n: 5, m: 5 })).toBe('query');
    expect(() => guard.check(document, { n: 500, m: 50 })).toThrow(QueryTooComplex);
    expect(guard.check(document, { n: 5, m: 5, extra: { deep: [1, 'x'] } })).toBe('query');
    expect(() => guard.check(document, { n: 500, m: 50, big: 'x'.repeat(5000) })).toThrow(QueryTooComplex);
  }
});
