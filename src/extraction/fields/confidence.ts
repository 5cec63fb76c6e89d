// Field confidences (0–100) from evidence, meant to be calibrated: ≥ 90 only where being wrong is rare (a strong
// label and a clear margin, or amounts that close arithmetically), lower with generic labels, thin margins, values
// found without a label, derived values, and OCR doubt. Checked against the corpus's calibration table.
import type { FieldCandidate } from './candidates.ts';
import type { AmountKey, Totals } from './totals.ts';

/** OCR doubt scales a confidence down (text layers are 100). */
const ocr = (c: { ocr: number }) => Math.min(1, Math.max(0.3, c.ocr / 100)) ** 1.5;
const clamp = (n: number) => Math.max(0, Math.min(99, Math.round(n)));

/** A labelled value: the label's strength and placement, then the margin over the next other value. */
export function labelledConfidence(best: FieldCandidate<unknown> | null, margin: number): number {
  if (!best) return 0;
  let c = best.via === 'free' ? 40 : best.weak ? 62 : 86;
  if (best.via === 'below') c -= 4;
  if (best.field === 'invoiceTitle' || (best.field === 'invoiceNumber' && best.weak)) c -= 4;
  c += Math.max(-20, Math.min(best.weak || best.via === 'free' ? 12 : 15, (margin - 1) * 6));
  return clamp(c * ocr(best));
}

export function rankedConfidence<T>(ranked: FieldCandidate<T>[]): number {
  const [best, second] = ranked;
  return labelledConfidence(best ?? null, (best?.score ?? 0) - (second?.score ?? 0));
}

/**
 * Amounts: a set that closes (net + tax = total at a plausible rate) is near certain, more so when the line items
 * add up to the net too and no other set comes close; a set that does not close is a guess, and a field another
 * set reads otherwise at nearly the same score is in doubt.
 */
export function amountConfidences(t: Totals): { subtotal: number; tax: number; total: number; lineItems: (n: number) => number } {
  const { sumOk, linesOk, rateOk, derived, margins } = t.checks;
  const one = (c: FieldCandidate<number> | null, key: AmountKey) => {
    if (!c) return 0;
    const isDerived = derived.includes(key);
    let v: number;
    if (sumOk && rateOk) v = linesOk ? 99 : 97;
    else if (sumOk) v = 88;
    else if (isDerived) v = linesOk ? 80 : 62;
    else if (derived.length && rateOk) v = 84;
    else v = c.weak ? 40 : key === 'total' ? 60 : 50;
    if (key === 'subtotal' && linesOk) v = Math.max(v, 88);
    if (isDerived && sumOk) v -= 12;
    if (c.weak && !isDerived) v -= 5;
    // A rival reading close behind: the arithmetic hardly decided.
    const m = margins[key];
    if (m < 1) v -= 20;
    else if (m < 3) v -= 8;
    return clamp(v * ocr(c));
  };
  return {
    subtotal: one(t.subtotal, 'subtotal'),
    tax: one(t.tax, 'tax'),
    total: one(t.total, 'total'),
    // Lines that add up to the net can still be split or described wrongly: never near certain.
    lineItems: (n) => (n === 0 ? 0 : linesOk ? 85 : 45),
  };
}

/** Whether the chosen amounts contradict each other, in words (for the extraction notes); null when they do not. */
export function amountsProblem(t: Totals, money: (n: number) => string): string | null {
  const { subtotal: s, tax: x, total: g, checks } = t;
  if (checks.sumOk || checks.derived.length) return null;
  if (s && x && g) return `the amounts do not add up: net ${money(s.value)} + tax ${money(x.value)} ≠ total ${money(g.value)}`;
  if (s && g && !x && Math.abs(s.value - g.value) > 0.01)
    return `the amounts do not add up: net ${money(s.value)} and total ${money(g.value)} leave no plausible tax`;
  return null;
}
