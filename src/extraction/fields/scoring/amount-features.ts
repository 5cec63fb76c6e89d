// Every amount of an invoice as a candidate for its net, tax and total, with what tells them apart when the labels
// are unknown: the words beside and above it (by concept), the rules' labelled reading, the arithmetic it takes part
// in (the sum of two others, a part of a sum, the items' sum, a plausible rate of another), where it sits (below the
// items, right-aligned, last) and whether an item row holds it.
import type { ExtractedLineItem } from '../../types.ts';
import { findAmounts } from '../amounts.ts';
import type { InvoiceDoc } from '../doc.ts';
import type { Totals } from '../totals.ts';
import { type Concept, conceptsOf } from './concepts.ts';
import { keyTextOf, placement, type PlacedValue } from './key-text.ts';

export interface AmountCandidate extends Omit<PlacedValue, 'value'> {
  value: number;
}

const KEY_CONCEPTS: Concept[] = ['total', 'net', 'tax', 'amount', 'paid', 'due', 'discount', 'charge', 'invoice', 'article', 'page'];

export const AMOUNT_FEATURES: string[] = [
  'rule_subtotal',
  'rule_tax',
  'rule_total',
  ...KEY_CONCEPTS.map((c) => `left_${c}`),
  ...KEY_CONCEPTS.map((c) => `above_${c}`),
  'left_empty',
  'above_empty',
  'percent_on_line',
  'rate_lines',
  'only_rate_line',
  'sum_of_two',
  'part_of_sum',
  'is_items_sum',
  'tax_of_another',
  'net_of_another',
  'in_item_row',
  'largest',
  'value_rank',
  'last_on_page',
  'lines_after',
  'right_most',
  'negative',
  'whole',
  'repeats',
  'page_first',
  'y_rel',
  'x_rel',
  'height_rel',
];

const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.011, Math.abs(b) * 0.0005);

/** A word glued to the amount after it ("brutto82,44": cells set too close) ends a letter early, so both are read. */
const GLUED = /(\p{L}{3,})(?=\d[\d.,']*[.,]\d{2}(?!\d))/gu;

/** Every amount of the document (at most 150, the last ones kept: totals close an invoice). */
export function amountTokens(doc: InvoiceDoc): AmountCandidate[] {
  const out: AmountCandidate[] = [];
  for (const line of doc.lines) {
    const found = findAmounts(line.text, doc.dec);
    const opened = line.text.replace(GLUED, (w) => `${w.slice(0, -1)} `);
    if (opened !== line.text)
      for (const a of findAmounts(opened, doc.dec)) if (a.hasDecimals && !found.some((f) => f.index <= a.index && a.index < f.index + f.length)) found.push(a);
    for (const a of found.sort((a, b) => a.index - b.index)) out.push({ value: a.value, line, at: a.index, length: a.length });
  }
  return out.slice(-150);
}

/** The candidates and one row each (AMOUNT_FEATURES order); the same rows serve the net, tax and total models. */
export function amountFeatures(doc: InvoiceDoc, ruled: Totals, items: readonly ExtractedLineItem[]): { cands: AmountCandidate[]; rows: number[][] } {
  const cands = amountTokens(doc);
  // The amounts the rules read are candidates too (one read below a label in a glued cell); not those they worked out.
  for (const r of [ruled.subtotal, ruled.tax, ruled.total])
    if (r && r.via !== 'free' && !cands.some((c) => c.value === r.value && c.line === r.line))
      cands.push({ value: r.value, line: r.line, at: r.at, length: r.length });
  const values = [...new Set(cands.map((c) => c.value).filter((v) => v > 0))].sort((a, b) => a - b);
  const top = values.slice(-40);
  const itemTotals = items.map((i) => i.total).filter((t): t is number => t !== null);
  const itemsSum = itemTotals.length ? Math.round(itemTotals.reduce((a, b) => a + b, 0) * 100) / 100 : null;
  const counts = new Map<number, number>();
  for (const c of cands) counts.set(c.value, (counts.get(c.value) ?? 0) + 1);
  const lastLine = new Map<number, number>();
  for (const l of doc.lines) lastLine.set(l.page, l.index);
  const itemLines = new Set(
    doc.lines
      .filter((l) =>
        items.some(
          (i) =>
            i.total !== null &&
            findAmounts(l.text, doc.dec).some((a) => near(a.value, i.total!)) &&
            i.description &&
            l.text.includes(i.description.split(' ')[0]!),
        ),
      )
      .map((l) => l.index),
  );
  // Lines with a rate and an amount: one such line is the tax; several are the rates of a breakdown.
  const rateLines = doc.lines.filter((l) => /\d\s?%/.test(l.text) && findAmounts(l.text, doc.dec).length > 0).length;
  const rows = cands.map((c) => {
    const key = keyTextOf(doc, c.line, c.at, c.length);
    const left = conceptsOf(`${key.leftCell} ${key.inCell}`);
    const above = conceptsOf(key.above);
    const v = c.value;
    const others = top.filter((o) => o !== v);
    const onLine = findAmounts(c.line.text, doc.dec);
    const f: Record<string, number> = {
      ...placement(doc, c),
      rule_subtotal: ruled.subtotal && near(ruled.subtotal.value, v) ? 1 : 0,
      rule_tax: ruled.tax && near(ruled.tax.value, v) ? 1 : 0,
      rule_total: ruled.total && near(ruled.total.value, v) ? 1 : 0,
      left_empty: `${key.leftCell}${key.inCell}`.trim() ? 0 : 1,
      above_empty: key.above ? 0 : 1,
      percent_on_line: /\d\s?%/.test(c.line.text) ? 1 : 0,
      rate_lines: Math.min(3, rateLines),
      only_rate_line: rateLines === 1 && /\d\s?%/.test(c.line.text) ? 1 : 0,
      sum_of_two: others.some((a) => others.some((b) => b <= a && a !== b && near(a + b, v))) ? 1 : 0,
      part_of_sum: others.some((b) => others.some((t) => t > v && t > b && near(v + b, t))) ? 1 : 0,
      is_items_sum: itemsSum !== null && near(itemsSum, v) && itemTotals.length > 1 ? 1 : 0,
      tax_of_another: others.some((n) => n > v && v / n >= 0.02 && v / n <= 0.275) ? 1 : 0,
      net_of_another: others.some((x) => x < v && x / v >= 0.02 && x / v <= 0.275 && others.some((t) => near(v + x, t))) ? 1 : 0,
      in_item_row: itemLines.has(c.line.index) ? 1 : 0,
      largest: values.length && v === values.at(-1) ? 1 : 0,
      value_rank: values.length > 1 ? Math.max(0, values.indexOf(v)) / (values.length - 1) : 0.5,
      last_on_page: lastLine.get(c.line.page) === c.line.index ? 1 : 0,
      lines_after: Math.min(20, (lastLine.get(c.line.page) ?? c.line.index) - c.line.index) / 20,
      right_most: onLine.at(-1)?.index === c.at ? 1 : 0,
      negative: v < 0 ? 1 : 0,
      whole: Number.isInteger(v) ? 1 : 0,
      repeats: Math.min(3, (counts.get(v) ?? 1) - 1),
    };
    for (const k of KEY_CONCEPTS) {
      f[`left_${k}`] = left.get(k) ?? 0;
      f[`above_${k}`] = above.get(k) ?? 0;
    }
    return AMOUNT_FEATURES.map((n) => f[n] ?? 0);
  });
  return { cands, rows };
}
