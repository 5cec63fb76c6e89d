// Hashed character n-grams (fastText-style `<token>` boundaries, 3- to 5-grams) with signed feature hashing
// (Weinberger et al. 2009): each n-gram adds ±1 to one bucket, the sign coming from another hash bit, so unrelated
// tokens have an expected dot product of 0 and bucket collisions cancel out instead of piling up.

export const NGRAM_BUCKETS = 256;
const MIN_N = 3;
const MAX_N = 5;

/** Adds `weight` × the unit n-gram vector of `token` into `out[offset .. offset + NGRAM_BUCKETS)`. */
export function addTokenNgrams(out: Float32Array, offset: number, token: string, weight: number): void {
  const s = `<${token}>`;
  let grams = 0;
  for (let n = MIN_N; n <= MAX_N; n++) grams += Math.max(0, s.length - n + 1);
  if (grams === 0) return;
  // Distinct n-grams of one token rarely share a bucket, so 1/√count makes each token's vector ~unit length.
  const w = weight / Math.sqrt(grams);
  for (let n = MIN_N; n <= MAX_N; n++) {
    for (let i = 0; i + n <= s.length; i++) {
      const h = hash(s, i, i + n);
      out[offset + (h & (NGRAM_BUCKETS - 1))]! += h & 0x80000000 ? -w : w;
    }
  }
}

/** FNV-1a over UTF-16 code units, then murmur3's finaliser so low and high bits are both well mixed. */
function hash(s: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
