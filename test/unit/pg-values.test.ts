import types from 'pg-types';
import { describe, expect, test } from 'vitest';
import '../../src/platform/db/pg-values.ts';

// The timestamptz parser of pg-values.ts (PostgreSQL's text in a UTC session, without postgres-date's regular
// expressions) against the instant the text names, computed independently: ISO 8601 with the fraction cut to
// milliseconds, as a Date holds them.
const parse = types.getTypeParser(types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;

function expected(day: string, time: string, fraction: string): number {
  return Date.parse(`${day}T${time}.${(fraction + '000').slice(0, 3)}Z`);
}

describe('timestamptz values', () => {
  test('every fraction length (none, 1–6 digits) gives the instant, cut to whole milliseconds', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 2000; i++) {
      const day = `${1000 + random(9000)}-${String(1 + random(12)).padStart(2, '0')}-${String(1 + random(28)).padStart(2, '0')}`;
      const time = [random(24), random(60), random(60)].map((n) => String(n).padStart(2, '0')).join(':');
      const digits = random(7);
      const fraction = Array.from({ length: digits }, () => random(10)).join('');
      const text = `${day} ${time}${digits ? `.${fraction}` : ''}+00`;
      expect(parse(text).getTime(), text).toBe(expected(day, time, fraction));
    }
  });

  test('another offset, infinity and years before 1000 go to pg-types’ own parser', () => {
    expect(parse('2026-03-09 10:11:12.5+02').toISOString()).toBe('2026-03-09T08:11:12.500Z');
    expect(parse('0999-01-02 03:04:05+00').toISOString()).toBe('0999-01-02T03:04:05.000Z');
    expect(parse('infinity')).toBe(Infinity);
  });
});
