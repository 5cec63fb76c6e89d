import fc from 'fast-check';
import { Deep, Huge, Many, RawJson } from './wire.ts';

// Hostile values of every kind, for any input: text with control characters, 100 KB–1 MB strings, odd Unicode,
// injection-shaped strings, malformed UUIDs and dates, numbers at and past every limit, values of the wrong type,
// JSON nested 100,000 deep.

const CONTROL = ['\u0000', '\u0001', '\u0007', '\b', '\u000b', '\f', '\u001b', '\u001f', '\u007f', '\u0085', '\u009b'];
const ODD_UNICODE = [
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u200b',
  '\u202e',
  '\u2028',
  '\ufffd',
  '\uffff',
  '😀',
  '👩‍👩‍👧',
  'é',
  '́',
  '１２３',
  '٣',
  'ß',
  'İ',
  '\t',
  '\r\n',
];

const injections = fc.constantFrom(
  "' OR '1'='1",
  '"; DROP TABLE invoices; --',
  "'); select pg_sleep(10); --",
  '%s%s%s%n',
  '${7*7}{{7*7}}<%= 7*7 %>',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '\\',
  '\\u0000',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '[]',
  '{}',
  '-1',
  '1e309',
  ' ',
  '',
  '$where',
  '*',
  '%',
  '_',
);

const controlText = fc
  .array(fc.oneof(fc.constantFrom(...CONTROL), fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''))
  .filter((s) => /[\u0000-\u001f\u007f-\u009f]/.test(s));

const oddUnicode = fc.array(fc.oneof(fc.constantFrom(...ODD_UNICODE), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 8 }).map((p) => p.join(''));

/** 100 KB to 1 MB of text (a few small ones too: just over the usual column and field limits). */
export const hugeText: fc.Arbitrary<Huge> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'ab ', 'é', '😀', '\u0000', '%00', "'", ' ', '\u0301'), fc.integer({ min: 100_000, max: 1_000_000 }))
      .map(([unit, bytes]) => new Huge(unit, Math.ceil(bytes / Buffer.byteLength(unit)))),
  },
  { weight: 1, arbitrary: fc.constantFrom(201, 256, 501, 1001, 2049, 10_001, 65_536).map((n) => new Huge('a', n)) },
);

/** A hostile string (or a recipe for one). */
export const hostileText: fc.Arbitrary<string | Huge> = fc.oneof(
  { weight: 3, arbitrary: controlText },
  { weight: 2, arbitrary: hugeText },
  { weight: 2, arbitrary: oddUnicode },
  { weight: 2, arbitrary: injections },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

/** Numbers past every limit: huge, negative, fractional, unsafe integers; as raw JSON, ones JavaScript cannot hold. */
export const hostileNumber: fc.Arbitrary<number | RawJson> = fc.oneof(
  fc.constantFrom(
    1e308,
    -1e308,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 63,
    0.5,
    -0.0001,
    5e-324,
    -0,
    -1,
    0,
    1e21,
    123456789012.345,
    99999999999.999,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('1e400', '-1e400', `1${'0'.repeat(400)}`, '1.0000000000000000000000001', '-0.0', '1E2').map((n) => new RawJson(n)),
);

/** Values of the wrong JSON type for `kind` (and a few of every type). */
export function wrongType(kind: string): fc.Arbitrary<unknown> {
  const others: unknown[] = [];
  if (kind !== 'string') others.push('1', 'true', 'abc', '');
  if (kind !== 'integer' && kind !== 'number') others.push(1, 0, -1, 3.5);
  if (kind !== 'boolean') others.push(true, false);
  if (kind !== 'array') others.push([], ['a'], [1, 2], [null], [[]]);
  if (kind !== 'object' && kind !== 'json') others.push({}, { a: 1 }, { $gt: '' }, JSON.parse('{"__proto__":{"admin":true}}'));
  others.push(null);
  return fc.constantFrom(...others);
}

/** JSON nested 100 to 100,000 levels deep. */
export const deepJson: fc.Arbitrary<Deep> = fc
  .tuple(fc.constantFrom(100, 1_000, 10_000, 100_000), fc.constantFrom<'array' | 'object'>('array', 'object'))
  .map(([d, s]) => new Deep(d, s));

/** An array of 1,000 to 100,000 copies of an item. */
export function hugeArray(item: fc.Arbitrary<unknown>): fc.Arbitrary<Many> {
  return fc.tuple(item, fc.constantFrom(1_000, 10_000, 100_000)).map(([i, n]) => new Many(i, n));
}

/** Strings that look almost like a UUID, or like one of another kind. */
export const badUuid: fc.Arbitrary<string | Huge> = fc.oneof(
  fc.constantFrom(
    '',
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '12345678-1234-1234-1234-123456789012',
    "1' or '1'='1",
    '%00',
    '../',
    'null',
    '0',
  ),
  fc.tuple(fc.uuid(), fc.constantFrom('upper', 'braces', 'nul', 'space', 'short', 'long', 'nodash', 'urn', 'g', 'fullwidth')).map(([u, how]) => {
    switch (how) {
      case 'upper':
        return u.toUpperCase();
      case 'braces':
        return `{${u}}`;
      case 'nul':
        return `${u}\u0000`;
      case 'space':
        return ` ${u} `;
      case 'short':
        return u.slice(0, -1);
      case 'long':
        return `${u}0`;
      case 'nodash':
        return u.replace(/-/g, '');
      case 'urn':
        return `urn:uuid:${u}`;
      case 'g':
        return `g${u.slice(1)}`;
      default:
        return u.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
    }
  }),
  fc.constant(new Huge('0', 100_000)),
);

export const badDate = fc.constantFrom(
  '2026-02-30',
  '2026-13-01',
  '2026-00-10',
  '0000-01-01',
  '0001-01-01',
  '9999-12-31',
  '-000001-01-01',
  '+275760-09-13',
  '2026-1-1',
  '20260101',
  '2026-01-01T00:00:00Z',
  'yesterday',
  '1970-01-01',
  '2038-01-19',
  '2026-01-01\u0000',
  '2026-02-29',
  '2024-02-29',
);

export const badDateTime = fc.constantFrom(
  '2026-01-05T25:00:00Z',
  '2026-01-05T14:00:00+99:00',
  '2026-01-05 14:00',
  '1e10',
  '2026-01-05T14:00:00.123456789Z',
  '+275760-09-13T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '2026-01-05',
  '2026-01-05T14:00:00',
  '1970-01-01T00:00:00Z',
);

export const badEmail = fc.constantFrom(
  'a@b',
  '@',
  'a@',
  'plain',
  `a@b.c${'o'.repeat(300)}`,
  '"quoted"@x.co',
  'a@[127.0.0.1]',
  'ü@ü.de',
  'a@b.co\u0000',
  'a@b.co\r\nBcc: c@d.co',
  'a..b@c.co',
);
