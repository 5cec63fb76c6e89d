/** Turns texts into vectors for similarity search. Implementations: local.embedder.ts, openai.embedder.ts. */
export interface Embedder {
  /** Identifies the vector space: stored vectors from a different id must be re-embedded. */
  readonly id: string;
  readonly dimensions: number;
  /** One L2-normalised vector per text, in the same order (a text with nothing to embed gives a zero vector). */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close?(): Promise<void>;
}

/** Scales `v` in place to unit length; a zero vector stays zero. */
export function l2Normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i]! *= inv;
  return v;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
