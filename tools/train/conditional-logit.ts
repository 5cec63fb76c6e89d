// Fits a RankingModel (src/extraction/fields/scoring/model.ts): for each document, a softmax over its candidates and
// "none"; the loss is minus the log of the probability given to the right ones (several candidates may hold the right
// value), plus an L2 penalty. Full-batch gradient descent with momentum in a fixed order: the same data gives the
// same weights, to the bit.
import type { RankingModel } from '../../src/extraction/fields/scoring/model.ts';

export interface Group {
  rows: number[][];
  /** Indexes of the candidates holding the right value; empty when the right answer is "none". */
  right: number[];
}

export interface FitOptions {
  iterations: number;
  learningRate: number;
  l2: number;
}

export const DEFAULT_FIT: FitOptions = { iterations: 1500, learningRate: 0.3, l2: 0.002 };

export function fit(field: string, features: string[], groups: Group[], o: FitOptions = DEFAULT_FIT): RankingModel {
  const d = features.length;
  const { mean, scale } = standardisation(groups, d);
  const xs = groups.map((g) => g.rows.map((r) => r.map((v, i) => (v - mean[i]!) / scale[i]!)));
  const w = new Array<number>(d).fill(0);
  let none = 0;
  const vw = new Array<number>(d).fill(0);
  let vNone = 0;
  for (let it = 0; it < o.iterations; it++) {
    const gw = w.map((wi) => o.l2 * wi);
    let gNone = 0;
    for (let k = 0; k < groups.length; k++) {
      const x = xs[k]!;
      const s = x.map((r) => dot(w, r));
      const max = Math.max(none, ...s);
      const e = s.map((v) => Math.exp(v - max));
      const eNone = Math.exp(none - max);
      const z = e.reduce((a, b) => a + b, eNone);
      const right = groups[k]!.right;
      const zRight = right.length ? right.reduce((a, i) => a + e[i]!, 0) : eNone;
      // d(-log P(right))/d score_c = p_c - [c right] * p_c / P(right)
      const n = groups.length;
      for (let c = 0; c < x.length; c++) {
        const coef = (e[c]! / z - (right.includes(c) ? e[c]! / zRight : 0)) / n;
        if (coef !== 0) for (let i = 0; i < d; i++) gw[i]! += coef * x[c]![i]!;
      }
      gNone += (eNone / z - (right.length ? 0 : 1)) / n;
    }
    for (let i = 0; i < d; i++) {
      vw[i] = 0.9 * vw[i]! + gw[i]!;
      w[i]! -= o.learningRate * vw[i]!;
    }
    vNone = 0.9 * vNone + gNone;
    none -= o.learningRate * vNone;
  }
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return { field, features, mean: mean.map(round), scale: scale.map(round), weights: w.map(round), none: round(none) };
}

function dot(w: number[], x: number[]): number {
  let s = 0;
  for (let i = 0; i < w.length; i++) s += w[i]! * x[i]!;
  return s;
}

/** Mean and standard deviation of every feature over all candidates (1 where a feature never varies). */
function standardisation(groups: Group[], d: number): { mean: number[]; scale: number[] } {
  const mean = new Array<number>(d).fill(0);
  const sq = new Array<number>(d).fill(0);
  let n = 0;
  for (const g of groups)
    for (const r of g.rows) {
      n++;
      for (let i = 0; i < d; i++) {
        mean[i]! += r[i]!;
        sq[i]! += r[i]! * r[i]!;
      }
    }
  const m = mean.map((v) => v / Math.max(1, n));
  const scale = sq.map((v, i) => {
    const variance = v / Math.max(1, n) - m[i]! ** 2;
    return variance > 1e-9 ? Math.sqrt(variance) : 1;
  });
  // Rounded as the file stores them, so training and the engine standardise alike.
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return { mean: m.map(round), scale: scale.map(round) };
}
