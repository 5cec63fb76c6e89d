import fc from 'fast-check';
import type { GraphQLArgument, GraphQLField, GraphQLInputField } from 'graphql';
import { isUrlInput } from './safe-urls.ts';
import type { Slot } from './slots.ts';
import { Huge, Many } from './wire.ts';

// Every input at its limits (issue 47: `search(relevantOnly: true, limit: 34)` was a 500 while 33 was not). The
// limits are read from what the API says about the input — @maxItems, the default value, the numbers of its
// description and of its field's ("limit 1 to 50", "at most 2,000 characters", "64 KB"), OpenAPI's minimum, maximum,
// minLength, maxLength and maxItems — and each is tried at, below and above; with them the values every numeric
// input should survive: 0, 1, -1, the 32-bit bounds and past them, and huge.

/** The numbers a description states (1,000,000,000 and 64 KB read as numbers), at most 10^9 + 1. */
export function numbersIn(text: string | null | undefined): number[] {
  const found: number[] = [];
  for (const m of (text ?? '').matchAll(/(\d{1,3}(?:,\d{3})+|\d+)(\s*KB)?/g)) {
    const n = Number(m[1]!.replace(/,/g, '')) * (m[2] ? 1024 : 1);
    if (Number.isSafeInteger(n) && n <= 1_000_000_001) found.push(n);
  }
  return found;
}

/** The limits of a GraphQL argument or input field: its @maxItems, its default, the numbers of its descriptions. */
export function graphqlLimits(input: GraphQLArgument | GraphQLInputField, field?: GraphQLField<unknown, unknown>): number[] {
  const limits = [...numbersIn(input.description), ...numbersIn(field?.description)];
  for (const directive of input.astNode?.directives ?? []) {
    for (const arg of directive.arguments ?? []) if (arg.value.kind === 'IntValue') limits.push(Number(arg.value.value));
  }
  if (typeof input.defaultValue === 'number') limits.push(input.defaultValue);
  return [...new Set(limits)];
}

/** The limits an OpenAPI schema states. */
export function openApiLimits(schema: Record<string, unknown>): number[] {
  const keys = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems'];
  return keys.map((k) => schema[k]).filter((v): v is number => typeof v === 'number');
}

const around = (limits: readonly number[]) => [...new Set(limits.flatMap((n) => [n - 1, n, n + 1]))];
const INT_EDGES = [0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 53 - 1, 1e15, -1e15];
/** Lengths a string may be tried at: a Huge past 200,000 characters is the hostile generator's business. */
const MAX_LENGTH = 200_001;

/**
 * A value at or next to a limit of `slot`: numbers around each limit and at the integer edges; strings and lists (of
 * `item`s) of the lengths around each limit, and empty; JSON objects of about the stated size. Undefined for inputs
 * without a notion of size (booleans, enums, ids, dates, files) and for URL inputs (only safe URLs go there).
 */
export function atLimit(slot: Slot, item: fc.Arbitrary<unknown> = fc.constant('a')): fc.Arbitrary<unknown> | undefined {
  if (isUrlInput(slot.name)) return undefined;
  const limits = ('limits' in slot ? slot.limits : undefined) ?? [];
  switch (slot.kind) {
    case 'integer':
      return fc.constantFrom(...around(limits), ...INT_EDGES);
    case 'number':
      return fc.constantFrom(...around(limits), ...around(limits).map((n) => n + 0.5), ...INT_EDGES, 0.0001, -0.0001, 1e308);
    case 'string': {
      if (slot.enum || (slot.format && slot.format !== 'uri')) return undefined;
      const lengths = around(limits).filter((n) => n >= 0 && n <= MAX_LENGTH);
      return fc.constantFrom(0, 1, ...lengths).map((n) => new Huge('a', n));
    }
    case 'array': {
      const counts = around(limits).filter((n) => n >= 0 && n <= 10_000);
      return fc.tuple(item, fc.constantFrom(0, 1, ...counts)).map(([i, n]) => new Many(i, n));
    }
    case 'json': {
      const sizes = around(limits).filter((n) => n > 16 && n <= MAX_LENGTH);
      return fc.constantFrom(0, ...sizes).map((n) => (n === 0 ? {} : { padding: new Huge('a', n - 16) }));
    }
    default:
      return undefined;
  }
}
