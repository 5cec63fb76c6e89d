// Every document-number-like token of an invoice's first page as a candidate for the invoice number, with what a
// reader would weigh: the words beside and above it (by concept, not by exact label), the labels the vocabulary
// knows, its shape (a VAT id, an IBAN, an EAN, a phone or postcode, a short count), where it sits and how large.
import { candidates, type FieldCandidate } from '../candidates.ts';
import type { InvoiceDoc } from '../doc.ts';
import { numberCandidates, numberToken } from '../numbers.ts';
import { CONCEPTS, type Concept, conceptsOf } from './concepts.ts';
import { keyTextOf, placement, type PlacedValue } from './key-text.ts';

export type NumberCandidate = PlacedValue;

// The concepts of the words beside a number; dates' (issue, due), amounts' and parties' are left to their fields.
const KEY_CONCEPTS: Concept[] = CONCEPTS.filter(
  (c) => !['issue', 'due', 'net', 'tax', 'paid', 'seller', 'buyer', 'discount', 'charge', 'director', 'rights'].includes(c),
);
const SHAPES = ['len1_3', 'len4_5', 'len6_8', 'len9_12', 'len13_plus', 'letters', 'separators', 'digits_only', 'letter_prefix'] as const;
const KINDS = ['vat_like', 'iban_like', 'ean_like', 'phone_like', 'postcode_like', 'year_like'] as const;

export const NUMBER_FEATURES: string[] = [
  'rule_present',
  'rule_top',
  'rule_score',
  'claimed',
  ...KEY_CONCEPTS.map((c) => `left_${c}`),
  ...KEY_CONCEPTS.map((c) => `above_${c}`),
  'left_empty',
  'above_empty',
  'left_invoice_number',
  'above_invoice_number',
  'title_line',
  'title_near',
  ...SHAPES,
  ...KINDS,
  'page_first',
  'y_rel',
  'x_rel',
  'height_rel',
  'repeats',
  'table_row',
];

const TOKEN = /(?<![\p{L}\d])(?:[A-Z]{1,4} (?=\d))?[\p{L}\d][\p{L}\d_\-/.]*[\p{L}\d]|(?<![\p{L}\d.,])\d(?![\p{L}\d.,])/gu;
const DATE_LIKE = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/;
const MONEY_LIKE = /^\d{1,3}(?:[.,' ]\d{3})*[.,]\d{2}$/;

/** Document-number-like tokens of the first page (and of a second when the first is short), at most 200. */
export function numberTokens(doc: InvoiceDoc): NumberCandidate[] {
  const first = doc.lines[0]?.page;
  const out: NumberCandidate[] = [];
  for (const line of doc.lines) {
    if (line.page !== first) break;
    for (const m of line.text.matchAll(TOKEN)) {
      const raw = m[0].replace(/[.\-/]+$/, '');
      if (!/\d/.test(raw) || DATE_LIKE.test(raw) || MONEY_LIKE.test(raw) || /^\d+[.,]\d+$/.test(raw)) continue;
      if (/^\s*%/.test(line.text.slice(m.index + m[0].length))) continue;
      out.push({ value: raw, line, at: m.index, length: raw.length });
      if (out.length >= 200) return out;
    }
  }
  return out;
}

const DISTRACTORS = ['orderNumber', 'customerNumber', 'taxId', 'relatedInvoice'] as const;

/** The candidates and one feature row each (NUMBER_FEATURES order). */
export function numberFeatures(doc: InvoiceDoc): { cands: NumberCandidate[]; rows: number[][]; ruled: FieldCandidate<string>[] } {
  const ruled = numberCandidates(doc);
  const byValue = new Map<string, FieldCandidate<string>>();
  for (const c of ruled) if (!byValue.has(c.value)) byValue.set(c.value, c);
  const claimed = new Set(
    candidates(doc, [...DISTRACTORS], numberToken)
      .filter((c) => !c.weak)
      .map((c) => c.value),
  );
  const cands = numberTokens(doc);
  // The rule's candidates are candidates too (a value it reads below a label, a series prefix).
  for (const r of ruled)
    if (!cands.some((c) => c.value === r.value && c.line === r.line)) cands.push({ value: r.value, line: r.line, at: r.at, length: r.length });
  const counts = new Map<string, number>();
  for (const c of cands) counts.set(c.value, (counts.get(c.value) ?? 0) + 1);
  const titleLines = new Set(doc.lines.filter((l) => doc.hits[l.index]!.some((h) => h.field === 'invoiceTitle')).map((l) => l.index));
  const tableRows = tableRowIndexes(doc);
  const rows = cands.map((c) => {
    const key = keyTextOf(doc, c.line, c.at, c.length);
    const left = conceptsOf(`${key.leftCell} ${key.inCell}`);
    const above = conceptsOf(key.above);
    const rule = byValue.get(c.value);
    const f: Record<string, number> = {
      ...placement(doc, c),
      rule_present: rule ? 1 : 0,
      rule_top: ruled[0]?.value === c.value ? 1 : 0,
      rule_score: rule ? Math.max(-3, Math.min(6, rule.score)) : 0,
      claimed: claimed.has(c.value) ? 1 : 0,
      left_empty: `${key.leftCell}${key.inCell}`.trim() ? 0 : 1,
      above_empty: key.above ? 0 : 1,
      left_invoice_number: Math.min(left.get('invoice') ?? 0, left.get('number') ?? 0),
      above_invoice_number: Math.min(above.get('invoice') ?? 0, above.get('number') ?? 0),
      title_line: titleLines.has(c.line.index) ? 1 : 0,
      title_near: [1, 2, 3].some((d) => titleLines.has(c.line.index - d)) ? 1 : 0,
      repeats: Math.min(3, (counts.get(c.value) ?? 1) - 1),
      table_row: tableRows.has(c.line.index) ? 1 : 0,
      ...shape(c.value),
      ...kind(c),
    };
    for (const k of KEY_CONCEPTS) {
      f[`left_${k}`] = left.get(k) ?? 0;
      f[`above_${k}`] = above.get(k) ?? 0;
    }
    return NUMBER_FEATURES.map((n) => f[n] ?? 0);
  });
  return { cands, rows, ruled };
}

function shape(v: string): Record<(typeof SHAPES)[number], number> {
  const compact = v.replace(/\s/g, '');
  const n = compact.length;
  return {
    len1_3: n <= 3 ? 1 : 0,
    len4_5: n >= 4 && n <= 5 ? 1 : 0,
    len6_8: n >= 6 && n <= 8 ? 1 : 0,
    len9_12: n >= 9 && n <= 12 ? 1 : 0,
    len13_plus: n >= 13 ? 1 : 0,
    letters: /\p{L}/u.test(v) ? 1 : 0,
    separators: /[-/._]/.test(v) ? 1 : 0,
    digits_only: /^\d+$/.test(compact) ? 1 : 0,
    letter_prefix: /^\p{L}/u.test(v) ? 1 : 0,
  };
}

function kind(c: NumberCandidate): Record<(typeof KINDS)[number], number> {
  const v = c.value.replace(/\s/g, '');
  const before = c.line.text.slice(Math.max(0, c.at - 3), c.at);
  const after = c.line.text.slice(c.at + c.length, c.at + c.length + 3);
  return {
    vat_like: /^[A-Z]{2}[0-9A-Z]{8,13}$/.test(v) && /\d{6}/.test(v) ? 1 : 0,
    iban_like: /^[A-Z]{2}\d{2}[A-Z0-9]{4}/.test(v) || /^[A-Z]{2}\d{2}$/.test(v) ? 1 : 0,
    ean_like: /^\d{13}$/.test(v) || /^\d{8}$/.test(v) ? 0.5 + (/^\d{13}$/.test(v) ? 0.5 : 0) : 0,
    phone_like: /\+\s?$/.test(before) || /^\s?\d{2,}/.test(after) || /^\(?0\d/.test(v) ? 1 : 0,
    postcode_like: /^\d{4,5}$/.test(v) && /^\s+\p{Lu}\p{Ll}/u.test(c.line.text.slice(c.at + c.length)) ? 1 : 0,
    year_like: /^(19|20)\d{2}$/.test(v) ? 1 : 0,
  };
}

/** Lines under an item table's header row (three or more column words) on the same page, before a blank gap. */
function tableRowIndexes(doc: InvoiceDoc): Set<number> {
  const out = new Set<number>();
  doc.lines.forEach((line, i) => {
    if (new Set(doc.columnHits[i]!.map((h) => h.field)).size < 3) return;
    for (let j = i + 1; j < doc.lines.length && doc.lines[j]!.page === line.page; j++) out.add(j);
  });
  return out;
}
