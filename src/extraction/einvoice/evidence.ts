// Evidence of an invoice taken from its e-invoice (source EINVOICE): where each of its values is printed on the pages.
// Where the text engine read the same value, at the place it read it; otherwise the value is looked for on the
// pages the way the trust step (printed.ts) looks for it — amounts in any notation, dates in either day/month order,
// numbers by their letters and digits, names by their words. A value printed nowhere (or an XML file, which has no
// page) has no place. Values the e-invoice lacks came from the text, with the text's evidence.
import { detectDecimalSeparator } from '../fields/amounts.ts';
import { evidence, type Place } from '../fields/evidence.ts';
import { currencyAt, HEADER_FIELDS, type HeaderField } from '../fields/invoice-evidence.ts';
import { documentLines, type Line } from '../fields/layout.ts';
import { lineItemEvidence } from '../fields/line-evidence.ts';
import { windowIn } from '../fields/locate.ts';
import type { DocumentEvidence, ExtractedInvoiceFields, FieldEvidence, PageText } from '../types.ts';
import { amountsIn, compactOf, datesIn, same, spacedOf } from './printed.ts';
import type { EInvoice } from './types.ts';

/** Where a value is printed: amounts at their last mention (totals close a document), other values at their first. */
function printedAt(lines: readonly Line[], f: HeaderField, v: string | number): Place[] {
  if (f === 'currency') return currencyAt(lines, String(v));
  const test = shows(f, v);
  const order = typeof v === 'number' ? [...lines].reverse() : lines;
  for (const line of order) {
    const at = windowIn(line, test);
    if (at) return [at];
  }
  return [];
}

/** Whether a few words show the value, by printed.ts's reading of visible text. */
function shows(f: HeaderField, v: string | number): (text: string) => boolean {
  if (typeof v === 'number') {
    const cents = Math.round(Math.abs(v) * 100);
    // "1 005,55": thousands grouped with a space are two words.
    return (t) => amountsIn(t.replace(/(\d) (?=\d{3}\b)/g, '$1')).includes(cents);
  }
  if (f === 'invoiceDate' || f === 'dueDate') return (t) => datesIn(t).has(v);
  if (f === 'invoiceNumber') return (t) => compactOf(t).includes(compactOf(v));
  return (t) => spacedOf(t) === spacedOf(v) || ` ${spacedOf(t)} `.includes(` ${spacedOf(v)} `);
}

export function einvoiceEvidence(
  e: EInvoice,
  values: Omit<ExtractedInvoiceFields, 'evidence'>,
  text: ExtractedInvoiceFields | null,
  pages: readonly PageText[],
): DocumentEvidence {
  const lines = documentLines([...pages]);
  const dec = detectDecimalSeparator(lines.map((l) => l.text).join('\n'));
  const fromText = (f: string) => text?.evidence?.fields.find((x) => x.field === f) ?? null;
  const fields = HEADER_FIELDS.flatMap((f): FieldEvidence[] => {
    const value = values[f];
    if (value === null) return [];
    const confidence = values.fieldConfidences[f] ?? 0;
    // Not in the e-invoice: the text's value, as the text read it.
    if (e[f] === null) return fromText(f) ? [fromText(f)!] : [];
    const read = fromText(f);
    if (read?.box && same(f, value, text![f])) return [{ ...read, value: String(value), confidence, source: 'EINVOICE' }];
    return [evidence(pages, { field: f, value, confidence }, printedAt(lines, f, value), 'EINVOICE')];
  });
  const lineItems =
    e.lineItems.length > 0
      ? lineItemEvidence(pages, lines, values.lineItems, { dec, confidence: values.fieldConfidences.lineItems ?? 0, source: 'EINVOICE' })
      : (text?.evidence?.lineItems ?? values.lineItems.map(() => []));
  return { fields, lineItems };
}
