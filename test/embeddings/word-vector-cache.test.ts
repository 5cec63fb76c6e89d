import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { cosine } from '../../src/platform/embeddings/embedder.ts';
import { buildWordVectorCache } from '../../src/platform/embeddings/word-vector-cache.build.ts';
import { decodeWordVectors, readWordVectorCache, wordVectorCacheExists, wordVectorCacheFile } from '../../src/platform/embeddings/word-vector-cache.ts';

// A miniature of the package JSON: vectors carry two extra entries (norm, index) after the 4 dimensions.
const DIMS = 4;
const words = ['the', ',', 'café', 'cafe', '2009', 'cross-country', 'lettuce', 'bill', 'zero', 'Tomato'];
const vec = (i: number) => [Math.sin(i + 1), Math.cos(i * 2), i % 3, -0.5 * i, 9, i];
const source = {
  precision: 8,
  dimensions: DIMS,
  size: words.length,
  words,
  vectors: Object.fromEntries(words.map((w, i) => [w, w === 'zero' ? [0, 0, 0, 0, 0, i] : vec(i)])),
  unkVector: [0, 0, 0, 0, 0, -1],
};

const root = mkdtempSync(path.join(os.tmpdir(), 'partner-api-wv-'));
const sourceFile = path.join(root, 'mini.json');
writeFileSync(sourceFile, JSON.stringify(source));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const unit = (xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs, (x) => x / n);
};

test('builds in a child process: only tokenizable, non-numeric, first-seen words, with their source ranks', async () => {
  const dir = path.join(root, 'built');
  const progress: [number, number][] = [];
  expect(wordVectorCacheExists(dir)).toBe(false);
  const built = await buildWordVectorCache(dir, { source: sourceFile, maxWords: 100, onProgress: (d, t) => progress.push([d, t]) });
  expect(built).toMatchObject({ file: wordVectorCacheFile(dir), words: 5 });
  expect(built.bytes).toBe(readFileSync(built.file).length);
  expect(wordVectorCacheExists(dir)).toBe(true);
  expect(readdirSync(dir)).toEqual(['wink-sg-100d.v1.bin']); // no temporary file left behind
  expect(progress.at(-1)).toEqual([5, 5]);

  const wv = readWordVectorCache(dir);
  // "," and "cross-country" are not single tokens, "2009" is only digits, "cafe" repeats "café", "zero" has no direction.
  expect(wv.words).toEqual(['the', 'cafe', 'lettuce', 'bill', 'tomato']);
  expect(Array.from(wv.ranks)).toEqual([0, 2, 6, 7, 9]);
  expect(wv).toMatchObject({ dims: DIMS, sourceSize: words.length });
  wv.words.forEach((_, i) => {
    const q = Float32Array.from(wv.vectors.subarray(i * DIMS, (i + 1) * DIMS), (x) => x * wv.scales[i]!);
    const original = unit(vec(wv.ranks[i]!).slice(0, DIMS));
    expect(cosine(q, original)).toBeGreaterThan(0.9999);
    expect(Math.hypot(...q)).toBeCloseTo(1, 2);
  });
});

test('maxWords keeps the most frequent words', async () => {
  const dir = path.join(root, 'top2');
  await buildWordVectorCache(dir, { source: sourceFile, maxWords: 2 });
  expect(readWordVectorCache(dir).words).toEqual(['the', 'cafe']);
});

test('a failed build reports the child error and leaves no file', async () => {
  const dir = path.join(root, 'failed');
  await expect(buildWordVectorCache(dir, { source: path.join(root, 'missing.json') })).rejects.toThrow(/failed \(exit 1\).*ENOENT/s);
  expect(wordVectorCacheExists(dir)).toBe(false);
});

test('a truncated or foreign file is rejected with a clear message', () => {
  const good = readFileSync(wordVectorCacheFile(path.join(root, 'built')));
  expect(() => decodeWordVectors(good.subarray(0, good.length - 1), 'x.bin')).toThrow(/x\.bin is not a valid word-vector cache \(size/);
  expect(() => decodeWordVectors(Buffer.from('{"words": []}'), 'x.bin')).toThrow(/bad magic/);
});
