// Line items printed as blocks of labelled rows rather than a table, as e-invoice viewers render them:
//
//   Kochmesser 21 cm                       ← the item's heading (or "Position 2")
//   Price details                          ← a sub-heading every item repeats
//   Quantity                      16
//   Price per unit (net)       59.50
//   Total price (net)         952.00
//   Item information
//   Name:   Kochmesser 21 cm   Item number:   4092538
//
// A run of consecutive rows "column word … number" holding a quantity or a unit-price row is one item; its
// amount is the number the others multiply to (qty × price), else the row labelled with an amount word. The
// name comes from a row labelled with a description word ("Name:", "Bezeichnung:") on the side of the runs
// where the document puts them, else from the nearest heading above that is not repeated by every item. The
// block counts only when the amounts add up to an amount printed in the document.
import type { ColumnKind, Hit } from '../lang/vocab.ts';
import type { ExtractedLineItem } from '../types.ts';
import { findAmounts } from './amounts.ts';
import type { InvoiceDoc } from './doc.ts';
import { exact } from './till-lines.ts';

interface NumberRow {
  line: number;
  kinds: Set<ColumnKind>;
  value: number;
  /** The number as printed, to the gram ("8.027" kg): a quantity. */
  exact: number;
  /** Printed with decimals (money) or not (a count). */
  money: boolean;
}

const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.011, Math.abs(b) * 0.005);
const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
/** The label part of a row: the text before the value, without a trailing colon. */
const labelOf = (text: string, end: number) => text.slice(0, end).replace(/[:\s]+$/, '');

/** Column words of a label that starts the row (only labels: at most a few words, no digits). */
function labelKinds(hits: Hit<ColumnKind>[], label: string): Set<ColumnKind> | null {
  if (!label || /\d/.test(label) || label.split(/\s+/).length > 6) return null;
  const own = hits.filter((h) => h.end <= label.length + 1);
  if (!own.length) return null;
  return new Set(own.map((h) => h.field));
}

/** "Quantity   16" / "Total price (net):   952.00": a labelled number, or null. */
function numberRow(doc: InvoiceDoc, i: number): NumberRow | null {
  const text = doc.lines[i]!.text;
  const amounts = findAmounts(text, doc.dec);
  const first = amounts[0];
  if (!first || amounts.length > 1) return null;
  if (!/^\s*(\p{Lu}{3}|\p{Sc})?\s*$/u.test(text.slice(first.index + first.length))) return null;
  const kinds = labelKinds(doc.columnHits[i]!, labelOf(text, first.index));
  // An item number, a position or a VAT rate: not a quantity, price or amount.
  if (!kinds || !['quantity', 'unitPrice', 'amount'].some((k) => kinds.has(k as ColumnKind))) return null;
  return { line: i, kinds, value: first.value, exact: exact(text.slice(first.index, first.index + first.length), doc.dec), money: first.hasDecimals };
}

/** "Name:   Kochmesser 21 cm" (a second "Label: value" pair after a wide gap is not part of it). */
function descriptionRow(doc: InvoiceDoc, i: number): string | null {
  const text = doc.lines[i]!.text;
  const m = /^([^:]{1,40}?)(?::\s*|\s{3,})(\S.*)$/.exec(text);
  if (!m) return null;
  const kinds = labelKinds(doc.columnHits[i]!, m[1]!.trim());
  if (!kinds?.has('description')) return null;
  const value = m[2]!.split(/\s{3,}/)[0]!;
  return /\p{L}{2,}/u.test(value) ? clean(value) : null;
}

/** A name wrapped under itself: the lines below starting at the value's x that are not rows of their own. */
function withContinuation(doc: InvoiceDoc, i: number, value: string): string {
  const line = doc.lines[i]!;
  const k = line.starts.findIndex((s) => line.text.startsWith(value.split(' ')[0]!, s) && s > 0);
  const x = line.words[k]?.x;
  const parts = [value];
  for (let j = i + 1; x !== undefined && j < Math.min(doc.lines.length, i + 6); j++) {
    const next = doc.lines[j]!;
    if (next.page !== line.page || Math.abs(next.x - x) > 3 || next.y - doc.lines[j - 1]!.y > doc.lineHeight * 2) break;
    parts.push(next.text.split(/\s{3,}/)[0]!);
  }
  return clean(parts.join(' '));
}

interface Item {
  rows: NumberRow[];
  first: number;
  last: number;
}

/** The item's quantity, unit price and amount from its rows. */
function readItem(rows: NumberRow[]): Pick<ExtractedLineItem, 'quantity' | 'unitPrice' | 'total'> | null {
  for (let a = rows.length - 1; a >= 0; a--) {
    for (let q = 0; q < rows.length; q++) {
      for (let p = 0; p < rows.length; p++) {
        if (q === p || q === a || p === a) continue;
        const [rq, rp, ra] = [rows[q]!, rows[p]!, rows[a]!];
        if (rq.kinds.has('amount') && !rq.kinds.has('quantity')) continue;
        if (rq.exact > 0 && near(rq.exact * rp.value, ra.value) && (rq.kinds.has('quantity') || !rq.money || !rp.kinds.has('quantity'))) {
          return { quantity: rq.exact, unitPrice: rp.value, total: ra.value };
        }
      }
    }
  }
  // No product (a line discount): the rows labelled so.
  const amount = rows.findLast((r) => r.kinds.has('amount') && r.money);
  if (!amount) return null;
  const qty = rows.find((r) => r !== amount && r.kinds.has('quantity') && !r.kinds.has('unitPrice'));
  const price = rows.find((r) => r !== amount && r !== qty && r.kinds.has('unitPrice'));
  return qty && price ? { quantity: qty.exact, unitPrice: price.value, total: amount.value } : { quantity: null, unitPrice: null, total: amount.value };
}

/** Lines repeated by every item ("Price details", "Line 2" as "Line #"): structure, not names. */
function repeatedTexts(doc: InvoiceDoc): Set<string> {
  const counts = new Map<string, number>();
  for (const l of doc.lines) {
    const k = l.text.replace(/\d+/g, '#').trim().toLowerCase();
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, n]) => n > 1).map(([k]) => k));
}

export function blockLines(doc: InvoiceDoc): ExtractedLineItem[] {
  const items: Item[] = [];
  let run: NumberRow[] = [];
  const close = () => {
    if (run.some((r) => r.kinds.has('quantity') || r.kinds.has('unitPrice'))) items.push({ rows: run, first: run[0]!.line, last: run.at(-1)!.line });
    run = [];
  };
  doc.lines.forEach((_, i) => {
    const row = numberRow(doc, i);
    // A unit row ("Unit   kg") inside a run does not end it.
    const unitRow = !row && labelKinds(doc.columnHits[i]!, doc.lines[i]!.text.split(/:|\s{3,}/)[0]!.trim())?.has('unit');
    if (row) run.push(row);
    else if (!(unitRow && run.length)) close();
  });
  close();
  if (!items.length) return [];

  const descs = doc.lines.map((_, i) => descriptionRow(doc, i));
  // Names before their numbers or after them: the side where more items have one.
  const gaps = items.map((item, k) => [k ? items[k - 1]!.last + 1 : Math.max(0, item.first - 8), item.first] as const);
  const after = items.map((item, k) => [item.last + 1, items[k + 1]?.first ?? Math.min(doc.lines.length, item.last + 9)] as const);
  const named = (zones: (readonly [number, number])[]) => zones.filter(([a, b]) => descs.slice(a, b).some(Boolean)).length;
  const before = named(gaps) > named(after);
  const repeated = repeatedTexts(doc);
  const rows: ExtractedLineItem[] = items.map((item, k) => {
    const values = readItem(item.rows);
    const [from, to] = before ? gaps[k]! : after[k]!;
    const at = descs.slice(from, to).findIndex(Boolean);
    let description = at < 0 ? null : withContinuation(doc, from + at, descs[from + at]!);
    if (!description) {
      for (let i = item.first - 1; i >= Math.max(0, item.first - 6); i--) {
        const text = doc.lines[i]!.text;
        if (repeated.has(text.replace(/\d+/g, '#').trim().toLowerCase()) || findAmounts(text, doc.dec).some((a) => a.hasDecimals) || !/\p{L}{3,}/u.test(text))
          continue;
        description = clean(text);
        break;
      }
    }
    return { description, sku: null, quantity: values?.quantity ?? null, unit: null, unitPrice: values?.unitPrice ?? null, total: values?.total ?? null };
  });
  if (rows.some((r) => r.total === null || !r.description)) return [];
  const sum = Math.round(rows.reduce((s, r) => s + r.total!, 0) * 100) / 100;
  const printed = doc.lines.some(
    (l, i) => !items.some((it) => i >= it.first && i <= it.last) && findAmounts(l.text, doc.dec).some((a) => a.hasDecimals && Math.abs(a.value - sum) < 0.005),
  );
  return printed ? rows : [];
}
