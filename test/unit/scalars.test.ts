import { GraphQLScalarType } from 'graphql';
import { DateTimeResolver, UUIDResolver } from 'graphql-scalars';
import { expect, test } from 'vitest';
import { scalarResolvers } from '../../src/platform/graphql/scalars.ts';

const { DateTime, UUID } = scalarResolvers as { DateTime: GraphQLScalarType; UUID: GraphQLScalarType };

test('DateTime results are the ISO strings JSON would write for graphql-scalars’ Dates; bad values are refused alike', () => {
  for (const value of [new Date('2026-03-09T10:11:12.345Z'), '2026-03-09T10:11:12+01:00', '2026-03-09T10:11:12.5Z', 1_700_000_000_000]) {
    expect(DateTime.serialize(value)).toBe(JSON.parse(JSON.stringify(DateTimeResolver.serialize(value))));
  }
  for (const bad of [new Date(Number.NaN), 'yesterday', true]) {
    expect(() => DateTime.serialize(bad)).toThrow();
    expect(() => DateTimeResolver.serialize(bad)).toThrow();
  }
});

test('UUID results: what graphql-scalars gives, and the same refusals', () => {
  for (const value of ['3eb6c6ff-c1b7-43c1-b6aa-9235b3b13c3b', '3EB6C6FF-C1B7-43C1-B6AA-9235B3B13C3B', '{3eb6c6ff-c1b7-43c1-b6aa-9235b3b13c3b}']) {
    expect(UUID.serialize(value)).toBe(UUIDResolver.serialize(value));
  }
  for (const bad of ['3eb6c6ff-c1b7-43c1-b6aa-9235b3b13c3g', '3eb6c6ffxc1b7-43c1-b6aa-9235b3b13c3b', 'x', 42]) {
    expect(() => UUID.serialize(bad)).toThrow(/UUID|not string/);
  }
});
