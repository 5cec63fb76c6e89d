// A learned ranking of one field's candidates: a linear score per candidate (weights over standardised features) and
// a softmax over a document's candidates plus "none" (a conditional logit). Trained by tools/train-scorer.ts on the
// generated corpus; the weights are data (./weights/*.json), so a run is deterministic and reviewable.

export interface RankingModel {
  field: string;
  features: string[];
  /** Standardisation of each feature: (x - mean) / scale. */
  mean: number[];
  scale: number[];
  weights: number[];
  /** The score of "no candidate is the value". */
  none: number;
}

/** Each candidate's probability of being the value, and the probability that none is; rows are raw feature vectors. */
export function rank(model: RankingModel, rows: readonly (readonly number[])[]): { p: number[]; none: number } {
  const scores = rows.map((x) => score(model, x));
  const max = Math.max(model.none, ...scores);
  const exps = scores.map((s) => Math.exp(s - max));
  const noneExp = Math.exp(model.none - max);
  const sum = exps.reduce((a, b) => a + b, noneExp);
  return { p: exps.map((e) => e / sum), none: noneExp / sum };
}

export function score(model: RankingModel, x: readonly number[]): number {
  let s = 0;
  // A feature that is not a finite number (a page measured as nothing) counts as its mean: it says nothing.
  for (let i = 0; i < model.weights.length; i++) if (Number.isFinite(x[i])) s += model.weights[i]! * ((x[i]! - model.mean[i]!) / model.scale[i]!);
  return s;
}

/** Checks a model read from JSON against the feature names the code computes, so a stale file fails loudly. */
export function checkModel(model: RankingModel, features: readonly string[]): RankingModel {
  const same = model.features.length === features.length && model.features.every((f, i) => f === features[i]);
  if (!same) throw new Error(`the ${model.field} model was trained on other features: run npm run train`);
  return model;
}
