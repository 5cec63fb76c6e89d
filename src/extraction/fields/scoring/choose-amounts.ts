// Net, tax and total chosen together from the learned scorers' rankings: the few likeliest printed values of each (or
// none) are combined, and a set whose net and tax add up to its total at a plausible rate is strongly preferred. A
// model's "none" means the field is not printed as one amount: the rules' worked-out value (the sum of a breakdown's
// tax lines) then stands in, or arithmetic completes the set (totals.ts `derive`). The result carries the checks the
// rules' set does, so the confidences and notes keep their meaning.
import type { ExtractedLineItem } from '../../types.ts';
import type { FieldCandidate } from '../candidates.ts';
import type { InvoiceDoc } from '../doc.ts';
import { derive, type AmountKey, type Totals } from '../totals.ts';
import { AMOUNT_FEATURES, amountFeatures, type AmountCandidate } from './amount-features.ts';
import { asCandidate } from './choose.ts';
import { loadModel } from './load.ts';
import { rank, type RankingModel } from './model.ts';

export type AmountModels = Record<AmountKey, RankingModel>;
type Amount = FieldCandidate<number>;

const near = (a: number, b: number, tol = 0.021) => Math.abs(a - b) <= Math.max(tol, Math.abs(b) * 0.0005);
/** What a set that adds up is worth over one that does not, in log-probability. */
const SUM_BONUS = 3;
/** What agreeing with the rules' closing set is worth, and with each value they read beside a strong label. */
const RULE_BONUS = 2;
const RULE_FIELD_BONUS = 0.7;
const same = (a: Amount | null, b: Amount | null) => (a === null ? b === null : b !== null && near(a.value, b.value));
const strong = (c: Amount | null) => c !== null && !c.weak && c.via !== 'free';

interface Option {
  amount: Amount | null;
  p: number;
}

/**
 * The five likeliest printed values of one field (a value printed twice counts once, at the place this field ranks
 * highest, its probabilities added), the rules' value however the model ranks it, and none — or, when the rules
 * worked the value out, that value with none's probability.
 */
function options(field: AmountKey, model: RankingModel, rows: number[][], cands: AmountCandidate[], ruled: Amount | null): Option[] {
  const { p, none } = rank(model, rows);
  const byValue = new Map<number, { c: AmountCandidate; p: number; top: number }>();
  cands.forEach((c, i) => {
    const o = byValue.get(c.value);
    if (!o) byValue.set(c.value, { c, p: p[i]!, top: p[i]! });
    else {
      o.p += p[i]!;
      if (p[i]! > o.top) [o.c, o.top] = [c, p[i]!];
    }
  });
  const ranked = [...byValue.values()]
    .sort((a, b) => b.p - a.p)
    .filter((o, i) => i < 5 || (ruled !== null && near(o.c.value, ruled.value)))
    .map((o) => ({ amount: asCandidate(o.c, o.p, field, 'right'), p: o.p }));
  const worked = ruled && ruled.via === 'free' && !ranked.some((o) => near(o.amount.value, ruled.value)) ? ruled : null;
  return [{ amount: null, p: none }, ...(worked ? [{ amount: worked, p: none }] : []), ...ranked];
}

export function chooseAmounts(
  doc: InvoiceDoc,
  ruled: Totals,
  items: readonly ExtractedLineItem[],
  lineSum: number | null,
  models: AmountModels = loadedModels(),
): Totals {
  const { cands, rows } = amountFeatures(doc, ruled, items);
  if (!cands.length) return ruled;
  const [subs, taxes, totals] = (['subtotal', 'tax', 'total'] as const).map((k) => options(k, models[k], rows, cands, ruled[k]));
  const rules = [ruled.subtotal, ruled.tax, ruled.total];
  const sets: { score: number; picks: [Option, Option, Option] }[] = [];
  for (const s of subs!)
    for (const x of taxes!)
      for (const t of totals!) {
        const [sa, xa, ta] = [s.amount, x.amount, t.amount];
        let score = Math.log(s.p) + Math.log(x.p) + Math.log(t.p);
        if (sa && xa && ta && near(sa.value + xa.value, ta.value)) score += SUM_BONUS;
        if (sa && xa && sa.value !== 0 && !(xa.value / sa.value >= 0 && xa.value / sa.value <= 0.275)) score -= 3;
        if (sa && ta && Math.sign(sa.value) === Math.sign(ta.value) && Math.abs(sa.value) > Math.abs(ta.value) + 0.01) score -= 3;
        if (sa && ta && sa.via !== 'free' && sa.line === ta.line && sa.at === ta.at) score -= 10; // one amount, two roles
        if (xa && ta && xa.via !== 'free' && xa.line === ta.line && xa.at === ta.at) score -= 10;
        // The rules' labelled reading: each field they read alike beside a strong label, more when their set closes.
        const agree = [same(sa, rules[0]!), same(xa, rules[1]!), same(ta, rules[2]!)];
        score += rules.filter((c, k) => agree[k] && strong(c)).length * RULE_FIELD_BONUS;
        if (ruled.checks.sumOk && agree.every(Boolean)) score += RULE_BONUS;
        sets.push({ score, picks: [s, x, t] });
      }
  const best = sets.reduce((a, b) => (b.score > a.score ? b : a));
  const [s, x, t] = best.picks.map((o) => o.amount) as [Amount | null, Amount | null, Amount | null];
  const sumOk = Boolean(s && x && t && near(s.value + x.value, t.value));
  const rateOk = Boolean(s && x && s.value !== 0 && x.value / s.value >= 0 && x.value / s.value <= 0.275);
  const linesOk = lineSum !== null && Boolean((s && near(s.value, lineSum)) || (!s && t && near(t.value, lineSum)));
  const margins = { subtotal: Infinity, tax: Infinity, total: Infinity };
  (['subtotal', 'tax', 'total'] as const).forEach((k, i) => {
    const mine = best.picks[i]!.amount?.value;
    const rivals = sets.filter((o) => o.picks[i]!.amount && o.picks[i]!.amount!.value !== mine).map((o) => o.score);
    if (rivals.length) margins[k] = best.score - Math.max(...rivals);
  });
  return derive({ subtotal: s, tax: x, total: t, checks: { sumOk, linesOk, rateOk, derived: [], margins } });
}

let models: AmountModels | undefined;
function loadedModels(): AmountModels {
  return (models ??= {
    subtotal: loadModel('subtotal', AMOUNT_FEATURES),
    tax: loadModel('tax', AMOUNT_FEATURES),
    total: loadModel('total', AMOUNT_FEATURES),
  });
}
