import { expect, test } from 'vitest';
import { addTokenNgrams, NGRAM_BUCKETS } from '../../src/platform/embeddings/char-ngrams.ts';
import { tokenize } from '../../src/platform/embeddings/tokenize.ts';

test('tokenize: lower case, accents stripped, split on anything but letters and digits', () => {
  expect(tokenize('Crème BRÛLÉE, 2×SKU-A12/b  Ñandú')).toEqual(['creme', 'brulee', '2', 'sku', 'a12', 'b', 'nandu']);
  expect(tokenize(' -- / ')).toEqual([]);
});

test('a token n-gram vector has about unit length; different tokens are nearly orthogonal', () => {
  const a = new Float32Array(NGRAM_BUCKETS);
  const b = new Float32Array(NGRAM_BUCKETS);
  addTokenNgrams(a, 0, 'sysco', 1);
  addTokenNgrams(b, 0, 'staples', 1);
  const norm = (v: Float32Array) => Math.hypot(...v);
  expect(norm(a)).toBeGreaterThan(0.8);
  expect(norm(a)).toBeLessThan(1.25);
  let dot = 0;
  for (let i = 0; i < NGRAM_BUCKETS; i++) dot += a[i]! * b[i]!;
  expect(Math.abs(dot / (norm(a) * norm(b)))).toBeLessThan(0.3);
});

test('n-grams are written at the offset and scaled by the weight', () => {
  const v = new Float32Array(10 + NGRAM_BUCKETS);
  addTokenNgrams(v, 10, 'ab', 0.5);
  expect(v.slice(0, 10).every((x) => x === 0)).toBe(true);
  // "<ab>" has two 3-grams and one 4-gram: each ±0.5/√3.
  const nonZero = Array.from(v.slice(10)).filter((x) => x !== 0);
  expect(nonZero.reduce((s, x) => s + Math.abs(x), 0)).toBeCloseTo(3 * (0.5 / Math.sqrt(3)), 5);
});
