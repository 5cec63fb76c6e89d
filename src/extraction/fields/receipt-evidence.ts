// Evidence of a receipt: each value found again on the line its candidate came from (receipt candidates keep the line,
// not always the offsets: OCR fix-ups shift them), the merchant on its line (and the one above when the name was
// joined from two), the currency at its first printed mark, the items cell by cell (line-evidence.ts). A total
// worked out from the others, or from cash tendered less change, has no place on the page.
import type { DocumentEvidence, ExtractedReceiptFields, FieldEvidence, PageText } from '../types.ts';
import type { DecimalSeparator } from './amounts.ts';
import { evidence, type Place } from './evidence.ts';
import { currencyAt, nameAt } from './invoice-evidence.ts';
import type { Candidate } from './labels.ts';
import type { Line } from './layout.ts';
import { lineItemEvidence } from './line-evidence.ts';
import { amountIn, dateIn, windowIn } from './locate.ts';
import { receiptAmountFinder } from './receipt-totals.ts';

export interface ReceiptPicks {
  merchantLine: Line | null;
  date: Candidate<string> | null;
  subtotal: Candidate<number> | null;
  tax: Candidate<number> | null;
  tip: Candidate<number> | null;
  total: Candidate<number> | null;
}

/** How the receipt rules read values from a text (with their OCR fix-ups), to find one in a few words. */
export interface ReceiptFinders {
  dec?: DecimalSeparator;
  dayFirst: boolean;
  dates: (text: string) => Array<{ value: string }>;
}

const FIELDS = ['merchantName', 'receiptDate', 'subtotal', 'tax', 'tip', 'total', 'currency'] as const;
const same = (a: number, b: number) => Math.abs(Math.abs(a) - Math.abs(b)) < 0.005;
const list = (p: Place | null): Place[] => (p ? [p] : []);

/** A read amount on its line; one the rules made up (`free`) only where that line prints it. */
function amountAt(c: Candidate<number> | null, f: ReceiptFinders): Place[] {
  if (!c) return [];
  const exact = amountIn(c.line, c.value, f.dec, c.at);
  if (exact || c.via === 'free') return list(exact);
  const amounts = receiptAmountFinder(f.dec);
  return list(windowIn(c.line, (t) => amounts(t).some((a) => same(a.value, c.value))));
}

export function receiptEvidence(
  pages: readonly PageText[],
  lines: readonly Line[],
  picks: ReceiptPicks,
  fields: Omit<ExtractedReceiptFields, 'evidence'>,
  finders: ReceiptFinders,
): DocumentEvidence {
  const date = picks.date;
  const places: Record<(typeof FIELDS)[number], Place[]> = {
    merchantName: fields.merchantName && picks.merchantLine ? nameAt(lines, picks.merchantLine, fields.merchantName) : [],
    receiptDate: date
      ? list(dateIn(date.line, date.value, finders.dayFirst, date.at) ?? windowIn(date.line, (t) => finders.dates(t).some((d) => d.value === date.value)))
      : [],
    subtotal: amountAt(picks.subtotal, finders),
    tax: amountAt(picks.tax, finders),
    tip: amountAt(picks.tip, finders),
    total: amountAt(picks.total, finders),
    currency: fields.currency ? currencyAt(lines, fields.currency) : [],
  };
  const header: FieldEvidence[] = FIELDS.flatMap((f) =>
    fields[f] === null ? [] : [evidence(pages, { field: f, value: fields[f]!, confidence: fields.fieldConfidences[f] ?? 0 }, places[f])],
  );
  return {
    fields: header,
    lineItems: lineItemEvidence(pages, lines, fields.lineItems, { dec: finders.dec, confidence: fields.fieldConfidences.lineItems ?? 0 }),
  };
}
