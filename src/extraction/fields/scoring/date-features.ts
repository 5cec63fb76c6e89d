// Every date printed on an invoice as a candidate for its invoice date and its due date, with what tells them from
// the delivery, order, service-period and print dates beside them: the words around each (by concept), the labels the
// vocabulary knows, where it sits, how it ranks among the document's dates and whether payment terms link two dates.
import { candidates } from '../candidates.ts';
import { findDates } from '../dates.ts';
import type { InvoiceDoc } from '../doc.ts';
import { invoiceDates } from '../invoice-dates.ts';
import type { Line } from '../layout.ts';
import { addDays, paymentLines, paymentTermDays } from '../payment-terms.ts';
import { type Concept, conceptsOf } from './concepts.ts';
import { keyTextOf, placement, type PlacedValue } from './key-text.ts';

export type DateCandidate = PlacedValue;

const KEY_CONCEPTS: Concept[] = [
  'invoice',
  'number',
  'date',
  'issue',
  'due',
  'delivery',
  'order',
  'period',
  'print',
  'paid',
  'contract',
  'customer',
  'page',
  'total',
  'preceding',
];

export const DATE_FEATURES: string[] = [
  'rule_invoice',
  'rule_invoice_score',
  'rule_due',
  'rule_due_score',
  'claimed',
  ...KEY_CONCEPTS.map((c) => `left_${c}`),
  ...KEY_CONCEPTS.map((c) => `above_${c}`),
  'left_empty',
  'above_empty',
  'same_line_dates',
  'title_line',
  'title_near',
  'payment_line',
  'page_first',
  'y_rel',
  'x_rel',
  'height_rel',
  'rank_rel',
  'earliest',
  'latest',
  'repeats',
  'plus_terms_is_date',
  'minus_terms_is_date',
  'after_number',
];

/** Every date of the document (at most 120). */
export function dateTokens(doc: InvoiceDoc): DateCandidate[] {
  const out: DateCandidate[] = [];
  for (const line of doc.lines)
    for (const d of findDates(line.text, { dayFirst: doc.dayFirst })) {
      out.push({ value: d.iso, line, at: d.index, length: d.length });
      if (out.length >= 120) return out;
    }
  return out;
}

const DISTRACTORS = ['deliveryDate', 'orderNumber', 'customerNumber', 'relatedInvoice'] as const;

/** The candidates and one row each (DATE_FEATURES order); the same rows serve both date models. */
export function dateFeatures(doc: InvoiceDoc): { cands: DateCandidate[]; rows: number[][]; rules: ReturnType<typeof invoiceDates> } {
  const rules = invoiceDates(doc);
  const cands = dateTokens(doc);
  const find = (text: string) => findDates(text, { dayFirst: doc.dayFirst }).map((d) => ({ value: d.iso, index: d.index, length: d.length }));
  const claimed = new Set(
    candidates(doc, [...DISTRACTORS], find)
      .filter((c) => !c.weak)
      .map((c) => `${c.line.index}:${c.at}`),
  );
  const distinct = [...new Set(cands.map((c) => c.value))].sort();
  const counts = new Map<string, number>();
  for (const c of cands) counts.set(c.value, (counts.get(c.value) ?? 0) + 1);
  const values = new Set(distinct);
  const terms = paymentTermDays(doc)?.days;
  const paying = new Set(paymentLines(doc));
  const titleLines = new Set(doc.lines.filter((l) => doc.hits[l.index]!.some((h) => h.field === 'invoiceTitle')).map((l) => l.index));
  const numberLines = new Set(doc.lines.filter((l) => doc.hits[l.index]!.some((h) => h.field === 'invoiceNumber' && !h.weak)).map((l) => l.index));
  const rows = cands.map((c) => {
    const key = keyTextOf(doc, c.line, c.at, c.length);
    const left = conceptsOf(`${key.leftCell} ${key.inCell}`);
    const above = conceptsOf(key.above);
    const rank = distinct.indexOf(c.value);
    const here = (x: { line: Line; at: number } | null) => (x && x.line === c.line && x.at === c.at ? 1 : 0);
    const f: Record<string, number> = {
      ...placement(doc, c),
      rule_invoice: rules.invoice?.value === c.value ? 0.5 + here(rules.invoice) * 0.5 : 0,
      rule_invoice_score: here(rules.invoice) ? Math.max(-3, Math.min(6, rules.invoice!.score)) : 0,
      rule_due: rules.due?.value === c.value ? 0.5 + here(rules.due) * 0.5 : 0,
      rule_due_score: here(rules.due) ? Math.max(-3, Math.min(6, rules.due!.score)) : 0,
      claimed: claimed.has(`${c.line.index}:${c.at}`) ? 1 : 0,
      left_empty: `${key.leftCell}${key.inCell}`.trim() ? 0 : 1,
      above_empty: key.above ? 0 : 1,
      same_line_dates: Math.min(2, cands.filter((o) => o.line === c.line && o !== c).length),
      title_line: titleLines.has(c.line.index) ? 1 : 0,
      title_near: [1, 2, 3].some((d) => titleLines.has(c.line.index - d)) ? 1 : 0,
      payment_line: paying.has(c.line.index) ? 1 : 0,
      rank_rel: distinct.length > 1 ? rank / (distinct.length - 1) : 0.5,
      earliest: rank === 0 ? 1 : 0,
      latest: rank === distinct.length - 1 ? 1 : 0,
      repeats: Math.min(3, (counts.get(c.value) ?? 1) - 1),
      plus_terms_is_date: terms && values.has(addDays(c.value, terms)) ? 1 : 0,
      minus_terms_is_date: terms && values.has(addDays(c.value, -terms)) ? 1 : 0,
      after_number: numberLines.has(c.line.index) ? 1 : 0,
    };
    for (const k of KEY_CONCEPTS) {
      f[`left_${k}`] = left.get(k) ?? 0;
      f[`above_${k}`] = above.get(k) ?? 0;
    }
    return DATE_FEATURES.map((n) => f[n] ?? 0);
  });
  return { cands, rows, rules };
}
