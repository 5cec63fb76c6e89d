import { expect, test } from 'vitest';
import { isoTime } from '../../src/platform/lib/iso-time.ts';

test('isoTime writes what toISOString writes', () => {
  const edges = [0, 1, 999, 86_399_999, 86_400_000, 951_782_400_000, 951_868_800_000, 4_107_542_400_000, 253_402_300_799_999];
  const outside = [-1, -62_198_755_200_000, 253_402_300_800_000, 8.64e15];
  const random = Array.from({ length: 200_000 }, () => Math.floor(Math.random() * 253_402_300_800_000));
  for (const ms of [...edges, ...outside, ...random]) {
    const date = new Date(ms);
    if (isoTime(date) !== date.toISOString()) expect(isoTime(date)).toBe(date.toISOString());
  }
  expect(isoTime(new Date('2024-02-29T23:59:59.007Z'))).toBe('2024-02-29T23:59:59.007Z');
  expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
});
