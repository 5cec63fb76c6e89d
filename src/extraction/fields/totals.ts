// Net, tax and total chosen together: every combination of the labelled candidates (plus the line-item sum, the sum
// of several tax lines, and values derived from the others) is scored by its label evidence and by the arithmetic
// it satisfies. A total of 0, a negative tax or a tax equal to the net never wins while a consistent set exists.
import type { LabelField } from '../lang/vocab.ts';
import { findAmounts } from './amounts.ts';
import { candidates, merge, type FieldCandidate, type Finder } from './candidates.ts';
import type { InvoiceDoc } from './doc.ts';

export type Amount = FieldCandidate<number>;
export type AmountKey = 'subtotal' | 'tax' | 'total';
const KEYS: AmountKey[] = ['subtotal', 'tax', 'total'];
const noMargins = (): Record<AmountKey, number> => ({ subtotal: Infinity, tax: Infinity, total: Infinity });

export interface Totals {
  subtotal: Amount | null;
  tax: Amount | null;
  total: Amount | null;
  checks: {
    /** net + tax (± charges, allowances) = total with all three read. */
    sumOk: boolean;
    /** Σ lines (± allowances, charges) = net, or = total when there is no net. */
    linesOk: boolean;
    /** tax ÷ net is a plausible rate (and the printed one, when a rate is printed). */
    rateOk: boolean;
    /** Which values were derived from the others rather than read. */
    derived: AmountKey[];
    /** Score margin of the chosen set over the best set giving the field another value (Infinity: none does). */
    margins: Record<AmountKey, number>;
  };
}

const ROLES: LabelField[] = ['total', 'subtotal', 'tax', 'discount', 'shipping', 'amountDue', 'prepaid'];
const round2 = (n: number) => Math.round(n * 100) / 100;
const near = (a: number, b: number, tol = 0.011) => Math.abs(a - b) <= Math.max(tol, Math.abs(b) * 0.0005);

const moneyFinder =
  (doc: InvoiceDoc): Finder<number> =>
  (text) =>
    findAmounts(text, doc.dec).map((a) => ({ value: a.value, index: a.index, length: a.length, plain: !a.hasDecimals }));

/** Rates printed on a tax line ("MwSt 19%", "TVA 5,5 %"). */
const ratesOf = (text: string) => [...text.matchAll(/(\d{1,2}(?:[.,]\d{1,2})?)\s?%/g)].map((m) => Number(m[1]!.replace(',', '.')) / 100);

const RATE_ROW = /^\s*(?:[A-Z]\s+)?\d{1,2}(?:[.,]\d{1,2})?\s?%/;
/** Words of a row besides amounts, rates and currency codes: an item row has a description, a totals row none. */
const wordsOf = (text: string) => text.replace(/\b(?:EUR|USD|GBP|CHF)\b/g, '').match(/\p{L}{3,}/gu)?.length ?? 0;

/** A row of a VAT breakdown with several rates ("A 19 %   10,50   2,00   12,50"): one rate's net, tax and gross. */
const rateRow = (doc: InvoiceDoc, li: number) => {
  const rate = (i: number) => RATE_ROW.test(doc.lines[i]?.text ?? '');
  return rate(li) && (rate(li - 1) || rate(li + 1));
};

/**
 * Labels whose values below are not the invoice's: a line-table header (several column words; its "Total" column
 * holds line amounts) unless its one row is all amounts (a totals row set out under its labels).
 */
function notTotalsBelow(doc: InvoiceDoc, li: number): boolean {
  const [next, after] = [doc.lines[li + 1], doc.lines[li + 2]];
  if (new Set(doc.columnHits[li]!.map((h) => h.field)).size < 3) return false;
  const amountsRow = next && findAmounts(next.text, doc.dec).length >= 3 && wordsOf(next.text) === 0;
  return !(amountsRow && !(after && after.page === next.page && findAmounts(after.text, doc.dec).length >= 3));
}

/** "VAT 20 % on 1,000.00   200.00": the amount a rate is taken on is the net, not the tax. */
const onBase = (c: Amount) => c.via === 'right' && /%\s*(?:on|of|auf|von|sur|de|su|sobre|op|over)\s*(?:EUR|€|\$|£)?\s*$/i.test(c.line.text.slice(0, c.at));

function pseudo(base: Amount, value: number, score: number): Amount {
  return { ...base, value: round2(value), score, via: 'free' };
}

export function chooseTotals(doc: InvoiceDoc, lineSum: number | null): Totals {
  const all = candidates(doc, ROLES, moneyFinder(doc), { noBelow: (li) => notTotalsBelow(doc, li), skipRow: (li) => rateRow(doc, li) });
  const role = (f: LabelField, n = 6) => merge(all.filter((c) => c.field === f)).slice(0, n);
  const totals = role('total');
  const subs = role('subtotal');
  const taxes = merge(all.filter((c) => c.field === 'tax' && !onBase(c))).slice(0, 6);
  const dues = role('amountDue', 3);
  const prepaid = role('prepaid', 3).filter((c) => c.value !== 0);
  const charges = role('shipping', 3)
    .filter((c) => c.value > 0)
    .map((c) => c.value);
  const allowances = role('discount', 3)
    .map((c) => Math.abs(c.value))
    .filter((v) => v > 0);
  const anchor = totals[0] ?? subs[0] ?? taxes[0] ?? dues[0];
  if (!anchor) return { subtotal: null, tax: null, total: null, checks: { sumOk: false, linesOk: false, rateOk: false, derived: [], margins: noMargins() } };

  // Several tax lines (one per rate): their right-most amounts add up; so do the values under several tax labels
  // side by side over one row ("TVA 20 %   TVA 10 %").
  const taxLines = new Map<number, Amount>();
  const taxColumns = new Map<number, Map<number, Amount>>();
  for (const c of all.filter((c) => c.field === 'tax' && !onBase(c))) {
    if (c.via === 'right' && (!taxLines.has(c.line.index) || c.at > taxLines.get(c.line.index)!.at)) taxLines.set(c.line.index, c);
    if (c.via === 'below') (taxColumns.get(c.line.index) ?? taxColumns.set(c.line.index, new Map()).get(c.line.index)!).set(c.labelStart, c);
  }
  const taxOpts: (Amount | null)[] = [null, ...taxes];
  for (const parts of [[...taxLines.values()], ...[...taxColumns.values()].map((m) => [...m.values()])])
    if (parts.length >= 2)
      taxOpts.push(
        pseudo(
          parts[0]!,
          parts.reduce((s, c) => s + c.value, 0),
          Math.min(...parts.map((c) => c.score)),
        ),
      );
  const subOpts: (Amount | null)[] = [null, ...subs];
  const lineNet = lineSum !== null && !subs.some((s) => near(s.value, lineSum)) ? pseudo(anchor, lineSum, 0.8) : null;
  if (lineNet) subOpts.push(lineNet);
  const totalOpts: (Amount | null)[] = [null, ...totals, ...dues.filter((d) => !totals.some((t) => near(t.value, d.value)))];
  const adjust = [0, ...charges, ...allowances.map((a) => -a), round2(charges.reduce((a, b) => a + b, 0) - allowances.reduce((a, b) => a + b, 0))];

  const sets: { score: number; totals: Totals }[] = [];
  for (const t of totalOpts) for (const s of subOpts) for (const x of taxOpts) sets.push(score(t, s, x));
  const best = sets.reduce((a, b) => (b.score > a.score ? b : a));
  const chosen = derive(best.totals);
  // How far the chosen value of each field is ahead of the best set that reads it otherwise.
  for (const k of KEYS) {
    const mine = chosen[k]?.value;
    const rival = Math.max(...sets.filter((o) => o.totals[k] && o.totals[k]!.value !== mine).map((o) => o.score));
    chosen.checks.margins[k] = best.score - rival;
  }
  return chosen;

  function score(t: Amount | null, s: Amount | null, x: Amount | null): { score: number; totals: Totals } {
    let sc = (t?.score ?? 0) + (s?.score ?? 0) * 0.8 + (x?.score ?? 0) * 0.6;
    const sumOk = Boolean(t && s && x && adjust.some((a) => near(s.value + x.value + a, t.value, 0.021)));
    if (sumOk) sc += 6 - (t && s && x && near(s.value + x.value, t.value, 0.021) ? 0 : 1);
    if (t && s && !x && near(s.value, t.value)) sc += 1;
    let rateOk = false;
    if (s && x && s.value !== 0) {
      const rate = x.value / s.value;
      rateOk = rate >= 0 && rate <= 0.275;
      sc += rateOk ? 0.5 : -3;
      if (ratesOf(x.labelText).some((r) => Math.abs(rate - r) < 0.006)) sc += 1.5;
    }
    if (s && x && s.value !== 0 && near(x.value, s.value)) sc -= 6;
    if (t && t.value === 0 && ((s && s.value !== 0) || (x && x.value !== 0) || totals.some((c) => c.value !== 0))) sc -= 6;
    if (x && t && x.value < 0 && t.value > 0) sc -= 6;
    if (t && s && Math.sign(t.value) === Math.sign(s.value) && Math.abs(s.value) > Math.abs(t.value) + 0.01) sc -= 4;
    if (t && x && t.value !== 0 && Math.abs(x.value) >= Math.abs(t.value)) sc -= 4;
    if (s && x && t && !sumOk) sc -= 2;
    let linesOk = false;
    if (lineSum !== null) {
      const hit = (v: number) => adjust.some((a) => near(lineSum + a, v, 0.021));
      // The line sum standing in for the net agrees with itself: no evidence.
      if (s && s !== lineNet && hit(s.value)) [linesOk, sc] = [true, sc + 2];
      else if (!s && t && (hit(t.value) || (x && hit(t.value - x.value)))) [linesOk, sc] = [true, sc + 1.5];
    }
    // A total printed under its label outweighs one made up from the others.
    if (!t && (totals.length || dues.length)) sc -= 2;
    if (t && dues.includes(t) && !totals.includes(t)) {
      // What is left to pay after a prepayment is not the invoice total.
      sc -= prepaid.length ? 3 : 0.3;
    } else if (t && prepaid.some((p) => dues.some((d) => near(t.value - Math.abs(p.value), d.value)))) sc += 1;
    return { score: sc, totals: { subtotal: s, tax: x, total: t, checks: { sumOk, linesOk, rateOk, derived: [], margins: noMargins() } } };
  }
}

/** Completes a set from its other two members when that is arithmetic, not a guess (tax then at a plausible rate). */
export function derive(t: Totals): Totals {
  const { subtotal: s, tax: x, total: g } = t;
  const derived = t.checks.derived;
  if (g && s && !x) {
    const v = round2(g.value - s.value);
    if (s.value !== 0 && v / s.value >= 0 && v / s.value <= 0.275) {
      derived.push('tax');
      return { ...t, tax: pseudo(s, v, 0.5), checks: { ...t.checks, rateOk: true, derived } };
    }
  }
  if (g && x && !s && Math.abs(x.value) < Math.abs(g.value)) {
    derived.push('subtotal');
    return { ...t, subtotal: pseudo(g, g.value - x.value, 0.5), checks: { ...t.checks, derived } };
  }
  if (!g && s && x) {
    derived.push('total');
    return { ...t, total: pseudo(s, s.value + x.value, 0.5), checks: { ...t.checks, derived } };
  }
  return t;
}
