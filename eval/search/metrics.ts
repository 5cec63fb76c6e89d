// Scoring for eval/search/main.ts: rank-based relevance of one query's results and latency percentiles.

/** What one result position maps to: a dataset file, or something that is never relevant. */
export type ResultTarget = { file: string } | { vendor: true } | { synthetic: true } | { unknown: true };

export interface QueryScore {
  q: string;
  relevant: string[];
  /** 1-based position of the first result whose file is relevant; null when none is in the top k. */
  firstRelevantRank: number | null;
  reciprocalRank: number;
  /** Distinct relevant files in the top k / relevant files. */
  recall: number;
  foundRelevant: number;
  /** How the top k were made up. */
  composition: { dataset: number; vendor: number; synthetic: number; unknown: number };
  /** Similarity (0–100, as the API shows it) of the first result and of the first relevant one. */
  topSimilarity: number | null;
  firstRelevantSimilarity: number | null;
  /** Files (or "vendor" / "synthetic") with their similarity, in result order, for reading the run. */
  top: Array<{ hit: string; similarity: number }>;
}

export interface RankedResult {
  target: ResultTarget;
  similarity: number;
}

export function scoreQuery(q: string, relevant: readonly string[], results: readonly RankedResult[], k = 10): QueryScore {
  const wanted = new Set(relevant);
  const top = results.slice(0, k);
  const found = new Set<string>();
  let firstRelevantRank: number | null = null;
  let firstRelevantSimilarity: number | null = null;
  const composition = { dataset: 0, vendor: 0, synthetic: 0, unknown: 0 };
  top.forEach(({ target: r, similarity }, i) => {
    if ('file' in r) {
      composition.dataset++;
      if (wanted.has(r.file)) {
        found.add(r.file);
        if (firstRelevantRank === null) {
          firstRelevantRank = i + 1;
          firstRelevantSimilarity = similarity;
        }
      }
    } else if ('vendor' in r) composition.vendor++;
    else if ('synthetic' in r) composition.synthetic++;
    else composition.unknown++;
  });
  return {
    q,
    relevant: [...relevant],
    firstRelevantRank,
    reciprocalRank: firstRelevantRank ? 1 / firstRelevantRank : 0,
    recall: wanted.size ? found.size / wanted.size : 0,
    foundRelevant: found.size,
    composition,
    topSimilarity: top[0]?.similarity ?? null,
    firstRelevantSimilarity,
    top: top.map(({ target: r, similarity }) => ({
      hit: 'file' in r ? r.file : 'vendor' in r ? 'vendor' : 'synthetic' in r ? 'synthetic' : 'unknown',
      similarity,
    })),
  };
}

export function meanOf(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

/** Nearest-rank percentile (p in 0–100) of the samples; 0 for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (!samples.length) return 0;
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
