// Invoice date and due date, decided together: labels of either (in any language), the date that follows an
// invoice number in a title ("Rechnung Nr. 7 vom 05.06.2018"), distractor labels (delivery, order, service period)
// that claim a date, and due ≥ invoice date.
import type { LabelField } from '../lang/vocab.ts';
import { candidates, merge, type FieldCandidate, type Finder } from './candidates.ts';
import { findDates } from './dates.ts';
import type { InvoiceDoc } from './doc.ts';
import { paymentLines } from './payment-terms.ts';

const DISTRACTOR: LabelField[] = ['deliveryDate', 'orderNumber', 'customerNumber', 'relatedInvoice'];
const FIELDS: LabelField[] = ['invoiceDate', 'dueDate', 'invoiceNumber', 'invoiceTitle', ...DISTRACTOR];

export interface InvoiceDates {
  invoice: FieldCandidate<string> | null;
  due: FieldCandidate<string> | null;
  /** How far the chosen pair scored above the best pair with another invoice date (evidence margin). */
  margin: number;
  /** The same for the due date. */
  dueMargin: number;
}

/** A generic label ("vom", "du", "date") after another label on the line belongs to that label. */
function owner(doc: InvoiceDoc, c: FieldCandidate<string>): LabelField {
  if (!c.weak || c.via !== 'right') return c.field;
  const hits = doc.hits[c.line.index]!;
  const before = hits.filter((h) => h.end <= c.labelStart && !h.weak).pop();
  return before && before.field !== 'invoiceTitle' && before.field !== 'invoiceNumber' ? before.field : c.field;
}

export function invoiceDates(doc: InvoiceDoc): InvoiceDates {
  const find: Finder<string> = (text) => findDates(text, { dayFirst: doc.dayFirst }).map((d) => ({ value: d.iso, index: d.index, length: d.length }));
  const all = candidates(doc, FIELDS, find, { stopAt: [...FIELDS, 'taxId'] }).map((c) => ({ ...c, field: owner(doc, c) }));
  const of = (fields: LabelField[], factor = 1) => all.filter((c) => fields.includes(c.field)).map((c) => ({ ...c, score: c.score * factor }));
  // A printed date that a distractor label claims ("Période du 01/01 au 31/01") is not the invoice date there,
  // though the same date may be the invoice date where a label of its own says so.
  const where = (c: FieldCandidate<string>) => `${c.line.index}:${c.at}`;
  const claimed = new Map<string, number>();
  for (const c of of(DISTRACTOR)) claimed.set(where(c), Math.max(claimed.get(where(c)) ?? 0, c.score));
  const raw = [...of(['invoiceDate']), ...of(['invoiceNumber', 'invoiceTitle'], 0.6)];
  const firstPage = doc.lines[0]?.page;
  for (const c of raw) {
    c.score -= (claimed.get(where(c)) ?? 0) * (c.weak ? 1 : 0.5);
    if (c.line.page === firstPage && c.line.index < doc.lines.length * 0.4) c.score += 0.4;
  }
  const inv = merge(raw.filter((c) => c.score > 0));
  const free = firstFreeDate(doc, find, new Set(of([...DISTRACTOR, 'dueDate']).map((c) => c.value)));
  if (free && !inv.some((c) => c.value === free.value)) inv.push(free);
  const due = merge([...of(['dueDate']), ...paymentDates(doc, find, new Set(raw.map(where)))]);
  let best: InvoiceDates = { invoice: null, due: null, margin: 0, dueMargin: 0 };
  let bestScore = -Infinity;
  const byInvoice = new Map<string | null, number>();
  const byDue = new Map<string | null, number>();
  for (const i of [null, ...inv.slice(0, 5)])
    for (const d of [null, ...due.slice(0, 5)]) {
      if (i && d && i.value === d.value && i.line === d.line) continue;
      let s = (i?.score ?? 0) + (d?.score ?? 0);
      if (i && d) s += d.value > i.value ? 0.5 : d.value === i.value ? -0.3 : -3;
      const k = i?.value ?? null;
      byInvoice.set(k, Math.max(byInvoice.get(k) ?? -Infinity, s));
      byDue.set(d?.value ?? null, Math.max(byDue.get(d?.value ?? null) ?? -Infinity, s));
      if (s > bestScore) [best, bestScore] = [{ invoice: i && i.score > 0 ? i : null, due: d, margin: 0, dueMargin: 0 }, s];
    }
  const rival = (by: Map<string | null, number>, mine: string | null) => Math.max(0, ...[...by.entries()].filter(([k]) => k !== mine).map(([, v]) => v));
  return { ...best, margin: bestScore - rival(byInvoice, best.invoice?.value ?? null), dueMargin: bestScore - rival(byDue, best.due?.value ?? null) };
}

/** A date in a sentence about paying, with no label of its own: weak due-date evidence. */
function paymentDates(doc: InvoiceDoc, find: Finder<string>, taken: Set<string>): FieldCandidate<string>[] {
  return paymentLines(doc).flatMap((i) => {
    const line = doc.lines[i]!;
    if (doc.hits[i]!.some((h) => !h.weak && DISTRACTOR.concat('invoiceDate', 'dueDate').includes(h.field))) return [];
    return find(line.text)
      .filter((d) => !taken.has(`${i}:${d.index}`))
      .map((d) => ({
        value: d.value,
        field: 'dueDate' as const,
        score: 1,
        line,
        at: d.index,
        length: d.length,
        ocr: line.confidence,
        via: 'free' as const,
        weak: true,
        labelText: line.text,
        labelStart: 0,
      }));
  });
}

/** Fallback: the first date in the upper half of the first page that no other label claims. */
function firstFreeDate(doc: InvoiceDoc, find: Finder<string>, taken: Set<string>): FieldCandidate<string> | null {
  const first = doc.lines.filter((l) => l.page === doc.lines[0]?.page);
  for (const line of first.slice(0, Math.ceil(first.length * 0.5))) {
    if (doc.hits[line.index]!.some((h) => !h.weak && DISTRACTOR.concat('dueDate').includes(h.field))) continue;
    const d = find(line.text).find((f) => !taken.has(f.value));
    if (d)
      return {
        value: d.value,
        field: 'invoiceDate',
        score: 0.8,
        line,
        at: d.index,
        length: d.length,
        ocr: line.confidence,
        via: 'free',
        weak: true,
        labelText: '',
        labelStart: 0,
      };
  }
  return null;
}
