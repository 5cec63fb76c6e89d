// Evidence of an invoice read from its visible text: each header field from the candidate the rules chose (its line
// and offsets), the vendor from the run it was read from, the currency from its first printed code or sign, the line
// items cell by cell (line-evidence.ts). Values worked out rather than read — a tax or net from the other amounts,
// a sum of several tax lines, a due date from payment terms — have no place on the page.
import type { DocumentEvidence, ExtractedInvoiceFields, FieldEvidence, InvoiceHeader } from '../types.ts';
import type { FieldCandidate } from './candidates.ts';
import type { InvoiceDoc } from './doc.ts';
import { evidence, type Place } from './evidence.ts';
import type { Line } from './layout.ts';
import { lineItemEvidence } from './line-evidence.ts';
import { wordKey, wordRuns, wordsIn } from './locate.ts';
import type { Seller } from './seller.ts';
import type { Totals } from './totals.ts';

/** What the rules chose for each field. */
export interface InvoicePicks {
  vendor: Seller;
  number: FieldCandidate<string> | null;
  invoiceDate: FieldCandidate<string> | null;
  dueDate: FieldCandidate<string> | null;
  totals: Totals;
}

export const HEADER_FIELDS = ['vendorName', 'invoiceNumber', 'invoiceDate', 'dueDate', 'subtotal', 'tax', 'total', 'currency'] as const;
export type HeaderField = (typeof HEADER_FIELDS)[number];

const at = (c: FieldCandidate<unknown> | null): Place[] => (c ? [{ line: c.line, from: c.at, to: c.at + c.length }] : []);
/** Totals made up by the rules (derived, the line sum, a sum of tax lines) are `free`: printed nowhere as such. */
const read = (c: FieldCandidate<number> | null): Place[] => (c && c.via !== 'free' ? at(c) : []);

export function invoiceEvidence(doc: InvoiceDoc, picks: InvoicePicks, fields: Omit<ExtractedInvoiceFields, 'evidence'>): DocumentEvidence {
  const places: Record<HeaderField, Place[]> = {
    vendorName: fields.vendorName && picks.vendor.line ? nameAt(doc.lines, picks.vendor.line, fields.vendorName) : [],
    invoiceNumber: at(picks.number),
    invoiceDate: at(picks.invoiceDate),
    dueDate: at(picks.dueDate),
    subtotal: read(picks.totals.subtotal),
    tax: read(picks.totals.tax),
    total: read(picks.totals.total),
    currency: fields.currency ? currencyAt(doc.lines, fields.currency) : [],
  };
  return {
    fields: headerEvidence(fields, (f, value) => evidence(doc.pages, { field: f, value, confidence: fields.fieldConfidences[f] ?? 0 }, places[f])),
    lineItems: lineItemEvidence(doc.pages, doc.lines, fields.lineItems, { dec: doc.dec, confidence: fields.fieldConfidences.lineItems ?? 0 }),
  };
}

/** One evidence per header field that has a value, in the API's field order. */
export function headerEvidence(fields: InvoiceHeader, make: (f: HeaderField, value: string | number) => FieldEvidence): FieldEvidence[] {
  return HEADER_FIELDS.flatMap((f) => (fields[f] === null ? [] : [make(f, fields[f]!)]));
}

/**
 * A name on its line (the whole name, or its words when the rules joined it with the line above or cleaned it):
 * the words of the name on that line and, when some are missing there, on the line just above it.
 */
export function nameAt(lines: readonly Line[], line: Line, name: string): Place[] {
  const whole = wordsIn(line, name);
  if (whole) return [whole];
  const longest = (l: Line) => wordRuns(l, name).reduce<Place | null>((a, b) => (!a || b.to - b.from > a.to - a.from ? b : a), null);
  const above = lines.filter((l) => l.page === line.page && l.index < line.index).at(-1);
  return [longest(line), above ? longest(above) : null].filter((p): p is Place => p !== null);
}

const SIGNS: Record<string, string[]> = { EUR: ['€'], GBP: ['£'], USD: ['$', 'US$'], CAD: ['C$', 'CA$', '$'], AUD: ['A$', '$'], MYR: ['RM'], CHF: ['Fr.'] };

/** The first printed mark of a currency: its ISO code as a word, else its sign; none when only words implied it. */
export function currencyAt(lines: readonly Line[], code: string): Place[] {
  const key = wordKey(code);
  for (const l of lines) {
    const i = l.words.findIndex((w) => wordKey(w.text) === key || (w.text.includes(code) && !/\p{L}/u.test(w.text.replace(code, ''))));
    if (i >= 0) return [{ line: l, from: l.starts[i]!, to: l.starts[i]! + l.words[i]!.text.trim().length }];
  }
  for (const l of lines)
    for (const sign of SIGNS[code] ?? []) {
      const k = l.text.indexOf(sign);
      if (k >= 0) return [{ line: l, from: k, to: k + sign.length }];
    }
  return [];
}
