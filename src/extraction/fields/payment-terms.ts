// Payment terms in words: "Zahlungsbedingungen: 30 Tage netto", "Payable à 30 jours", "within 14 days of the invoice
// date". The due date is then the invoice date + N days (when no due date is printed).
import { LANGUAGES } from '../lang/index.ts';
import { fold } from '../lang/vocab.ts';
import type { InvoiceDoc } from './doc.ts';

let words: { days: Set<string>; context: Set<string>; discount: Set<string> } | null = null;
function vocabulary() {
  if (words) return words;
  const all = (pick: (t: (typeof LANGUAGES)[number]['paymentTerms']) => string[]) => new Set(LANGUAGES.flatMap((l) => pick(l.paymentTerms)).map(fold));
  words = { days: all((t) => t.days), context: all((t) => t.context), discount: all((t) => t.discount) };
  return words;
}

/** Days to pay, from a line about paying that gives a number of days (the largest such: "10 Tage 2 % Skonto, 30 Tage netto"). */
export function paymentTermDays(doc: InvoiceDoc): { days: number; line: number } | null {
  const v = vocabulary();
  let best: { days: number; line: number } | null = null;
  doc.lines.forEach((line, i) => {
    // Amounts stay whole ("Total Net 16,058.85", "netto 3'063.66" are not "Net 16" or "netto 3").
    const tokens = fold(line.text)
      .split(/[^\p{L}\p{N}.,'’]+/u)
      .map((t) => t.replace(/[.,'’]+$/, ''))
      .filter(Boolean);
    if (!tokens.some((t) => v.context.has(t))) return;
    tokens.forEach((t, k) => {
      const n = /^\d{1,3}$/.test(t) ? Number(t) : NaN;
      const unit = tokens[k + 1];
      // "30 days", or the trade shorthand "Net 30" / "netto 30".
      const net = /^(net|netto|neto)$/.test(tokens[k - 1] ?? '') && !v.days.has(unit ?? '');
      if (!(n > 0 && n <= 180) || (!net && (!unit || !(v.days.has(unit) || v.days.has(`${unit}.`))))) return;
      // "10 Tage 2 % Skonto": days right before a discount word are the discount's.
      if (tokens.slice(k + 2, k + 5).some((w) => v.discount.has(w))) return;
      if (!best || n > best.days) best = { days: n, line: i };
    });
  });
  return best;
}

/** Lines about paying ("Rogamos efectúen el pago antes del 18/01/2023", "Bitte zahlen Sie bis 18.01.2023"). */
export function paymentLines(doc: InvoiceDoc): number[] {
  const v = vocabulary();
  return doc.lines.flatMap((line, i) =>
    fold(line.text)
      .split(/[^\p{L}]+/u)
      .some((t) => v.context.has(t))
      ? [i]
      : [],
  );
}

export const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
