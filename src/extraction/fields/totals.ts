// Subtotal / tax / total candidates and the cross-check that picks a consistent triple.
import type { DecimalSeparator } from './amounts.ts';
import { amountFinder, labelled, rank, type Candidate, type Label } from './labels.ts';
import type { Line } from './layout.ts';

const L = (re: RegExp, weight: number): Label => ({ re, weight });

export const TOTAL_LABELS: Label[] = [
  L(/\b(total ttc|montant ttc|total incl\.?(?: vat| tax| gst)?|total inkl\.?|incl\.? vat|grand total|invoice total|total amount|total due|gesamtbetrag|bruttobetrag|rechnungsbetrag|rechnungssumme brutto|summe gesamt|endbetrag|brutto|gesamtsumme|total payable|total \(incl\.?)/i, 3),
  L(/\b(total|summa|kop[āa]|apmaksai|jumlah|amount)\b(?!\s*(ht|h\.t|net|excl|hors|tva|vat|mwst|tax|gst|pvn|sst|qty|quantity|items?|discount|savings|rounding|\())/i, 2),
  L(/\b(amount due|balance due|net [àa] payer|zahlbetrag|zu zahlen|to pay|payable|nett?o? to pay|apmaksai)\b/i, 1.5),
];
export const SUBTOTAL_LABELS: Label[] = [
  L(/\b(sub-?\s?total|total ht|montant ht|total h\.t\.?|total net|net total|net amount|total excl\.?(?: vat| tax)?|zwischensumme|nettobetrag|rechnungssumme netto|summe netto|netto(?:summe|betrag)?|warenwert|base ht|total hors taxes?|summa bez pvn|excluding (?:vat|gst|tax))\b/i, 3),
];
export const TAX_LABELS: Label[] = [
  L(/(?<!\b(?:bez|ar)[\s-]?)\b(total tva|montant tva|tva|vat|mwst|ust|umsatzsteuer|mehrwertsteuer|sales tax|tax|gst|sst|pvn|service tax)\b(?!\s*(reg|no|nr|id|number|n°|ident|-?idnr|registration|code|clause|exempt|%\s*\d))/i, 2.5),
];

export interface Totals {
  subtotal: Candidate<number> | null;
  tax: Candidate<number> | null;
  total: Candidate<number> | null;
  /** subtotal + tax ≈ total held (or Σ lines ≈ subtotal). */
  checks: { sumOk: boolean; linesOk: boolean };
}

const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.011, Math.abs(b) * 0.0005);

/** Picks subtotal, tax and total so that subtotal + tax ≈ total where possible (and Σ lines ≈ subtotal). */
export function chooseTotals(lines: Line[], dec: DecimalSeparator | undefined, lineSum: number | null): Totals {
  const find = amountFinder(dec);
  const top = (c: Candidate<number>[]) => rank(c).slice(0, 6);
  const totals = top(labelled(lines, TOTAL_LABELS, find, { exclude: /%\s*(sur|of|von)\b/i }));
  const subs = top(labelled(lines, SUBTOTAL_LABELS, find));
  const taxes = top(labelled(lines, TAX_LABELS, find).filter((c) => c.value >= 0 || totals.some((t) => t.value < 0)));
  let best: Totals = { subtotal: null, tax: null, total: null, checks: { sumOk: false, linesOk: false } };
  let bestScore = -Infinity;
  const subOpts = [null, ...subs];
  const taxOpts = [null, ...taxes];
  for (const t of [null, ...totals])
    for (const s of subOpts)
      for (const x of taxOpts) {
        let score = (t?.score ?? 0) + (s?.score ?? 0) * 0.8 + (x?.score ?? 0) * 0.6;
        const sumOk = Boolean(t && s && x && near(s.value + x.value, t.value));
        const linesOk = Boolean(s && lineSum !== null && near(lineSum, s.value)) || Boolean(!s && t && lineSum !== null && near(lineSum, t.value));
        if (sumOk) score += 6;
        if (t && s && !x && near(s.value, t.value)) score += 1;
        if (linesOk) score += 2;
        if (t && s && Math.abs(s.value) > Math.abs(t.value) + 0.01) score -= 4;
        if (t && x && Math.abs(x.value) >= Math.abs(t.value) && t.value !== 0) score -= 4;
        if (s && x && t && !sumOk) score -= 2;
        if (score > bestScore) [best, bestScore] = [{ subtotal: s, tax: x, total: t, checks: { sumOk, linesOk } }, score];
      }
  if (!best.total && best.subtotal && best.tax) {
    const v = Math.round((best.subtotal.value + best.tax.value) * 100) / 100;
    best.total = { ...best.subtotal, value: v, score: 1 };
  }
  return best;
}
