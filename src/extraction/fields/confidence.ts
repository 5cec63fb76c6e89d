// Field confidences (0–100) from evidence, meant to be calibrated: ≥ 90 only where being wrong is rare (a strong
// label and a clear margin, or amounts that close arithmetically), lower with generic labels, thin margins, values
// found without a label, derived values, and OCR doubt. Checked against the corpus's calibration table.
import type { FieldCandidate } from './candidates.ts';
import type { Totals } from './totals.ts';

/** OCR doubt scales a confidence down (text layers are 100). */
const ocr = (c: { ocr: number }) => Math.min(1, Math.max(0.3, c.ocr / 100)) ** 1.5;
const clamp = (n: number) => Math.max(0, Math.min(99, Math.round(n)));

/** A labelled value: the label's strength and placement, then the margin over the next other value. */
export function labelledConfidence(best: FieldCandidate<unknown> | null, margin: number): number {
  if (!best) return 0;
  let c = best.via === 'free' ? 40 : best.weak ? 62 : 82;
  if (best.via === 'below') c -= 4;
  if (best.field === 'invoiceTitle' || best.field === 'invoiceNumber' && best.weak) c -= 4;
  c += Math.max(-20, Math.min(12, (margin - 1) * 6));
  return clamp(c * ocr(best));
}

export function rankedConfidence<T>(ranked: FieldCandidate<T>[]): number {
  const [best, second] = ranked;
  return labelledConfidence(best ?? null, (best?.score ?? 0) - (second?.score ?? 0));
}

/** Amounts: a set that closes (net + tax = total, plausible rate) is near certain; one that does not is a guess. */
export function amountConfidences(t: Totals): { subtotal: number; tax: number; total: number; lineItems: (n: number) => number } {
  const { sumOk, linesOk, rateOk, derived } = t.checks;
  const one = (c: FieldCandidate<number> | null, key: 'subtotal' | 'tax' | 'total') => {
    if (!c) return 0;
    const isDerived = derived.includes(key);
    let v: number;
    if (sumOk && rateOk) v = 96;
    else if (sumOk) v = 88;
    else if (isDerived) v = linesOk ? 80 : 62;
    else if (derived.length && rateOk) v = 84;
    else v = c.weak ? 45 : key === 'total' ? 68 : 58;
    if (key === 'subtotal' && linesOk) v = Math.max(v, 88);
    if (isDerived && sumOk) v -= 12;
    return clamp(v * ocr(c));
  };
  return {
    subtotal: one(t.subtotal, 'subtotal'),
    tax: one(t.tax, 'tax'),
    total: one(t.total, 'total'),
    lineItems: (n) => (n === 0 ? 0 : linesOk ? 92 : 45),
  };
}
