// Line items from a table: header row (./table-header.ts) → each word to its column by x → rows anchored on an
// amount in the amount column; descriptions may span lines; the table continues on later pages (under a repeated
// header, or in the same columns) until the totals block; carried-forward lines and sub-totals are skipped.
import type { LabelField } from '../lang/vocab.ts';
import type { ExtractedLineItem } from '../types.ts';
import { findAmounts } from './amounts.ts';
import type { InvoiceDoc } from './doc.ts';
import { findHeader, type Column, type Kind } from './table-header.ts';
import { blockLines } from './block-lines.ts';
import { tillLines } from './till-lines.ts';

/** Labels that end the table (the totals block), and labels of lines inside it that are not items. */
const ENDS: LabelField[] = ['total', 'tax', 'amountDue'];
const SKIPS: LabelField[] = ['subtotal', 'carriedForward', 'prepaid', 'discount', 'shipping'];
const ALLOWANCE = /^\s*(remise|charge|rabatt|zuschlag|discount|allowance|surcharge|sconto|descuento|korting|desconto)\s*:/i;
/** Reference lines under an item (dates, codes, "Label: value"): not its description. */
const DETAIL = /^(\d{1,3}\s+)?(#|\(|-|\d{2}[./]\d{2}[./]\d{2,4})|^[\p{L}_ ()]{1,30}\s?:\s?\S|^(gtin|sku|ean)\b/iu;
/** A line of headings (another table, the totals block's labels): most of its text is column or field words. */
function isHeading(doc: InvoiceDoc, i: number): boolean {
  const hits = [...doc.columnHits[i]!, ...doc.hits[i]!.filter((h) => !h.weak)];
  if (new Set(hits.map((h) => h.field)).size < 2) return false;
  const text = doc.lines[i]!.text;
  const covered = new Set(hits.flatMap((h) => Array.from({ length: h.end - h.start }, (_, k) => h.start + k)));
  const letters = [...text].filter((c) => /\S/.test(c)).length;
  return [...covered].filter((k) => /\S/.test(text[k] ?? '')).length >= letters * 0.6;
}

/** Has a word of three letters or more: text, not a code. */
const isWordy = (s: string) => s.split(/\s+/).some((w) => /^\p{L}[\p{L}'’.,&()-]{2,}$/u.test(w));
const DETAIL_LABELS: LabelField[] = ['deliveryDate', 'orderNumber', 'customerNumber', 'invoiceDate', 'dueDate'];

/** The description in a row's description column: its runs of text less reference runs and codes. */
function description(text: string | undefined, details = false): string | null {
  // With details (lines that only continue a description), fragments such as "24 x 0.5 l" or "08/06/2025." count too.
  const runs = (text ?? '')
    .split(/\s{3,}/)
    .map((r) => r.trim())
    .filter((r) => r && (details ? /[\p{L}\d]/u.test(r) : !DETAIL.test(r) && isWordy(r)));
  return runs.join(' ') || null;
}
const DOC_LEVEL = /\d+(?:[.,]\d+)?\s?%\s*(sur|of|von|on|auf|su|sul|sobre|op|over)\b/i;

type Row = ExtractedLineItem & { y: number };
interface Loose {
  text: string;
  y: number;
  /** Opens with a date or reference label ("Période du …", "Lieferdatum: …"): continues an item, never names one. */
  detail: boolean;
}

/** The column under a word; of overlapping columns ("Nachlass Gesamtpreis" over "Gesamtpreis") the narrowest. */
function nearest(cols: Column[], x0: number, x1: number): Column | undefined {
  let best: Column | undefined;
  let bestD = Infinity;
  const c = (x0 + x1) / 2;
  for (const col of cols) {
    const d = c < col.x0 ? col.x0 - c : c > col.x1 ? c - col.x1 : 0;
    const dr = Math.min(Math.abs(x1 - col.x1), d); // numbers are right-aligned under their header
    const dist = Math.min(d, dr);
    const narrower = best !== undefined && dist === bestD && col.x1 - col.x0 < best.x1 - best.x0;
    if (dist < bestD || narrower) [best, bestD] = [col, dist];
  }
  return best;
}

export function extractLineItems(doc: InvoiceDoc): ExtractedLineItem[] {
  const table = tableLines(doc);
  // Item blocks add up to an amount printed in the document: more of them than table rows means the "table" was
  // a block's own rows read under a heading of column words ("Price details").
  const blocks = blockLines(doc);
  if (blocks.length > table.length) return blocks;
  return table.length ? table : tillLines(doc);
}

function tableLines(doc: InvoiceDoc): ExtractedLineItem[] {
  const first = findHeader(doc);
  if (!first) return [];
  const { lines } = doc;
  const rows: Row[] = [];
  const loose: Loose[] = [];
  let header = first;
  const headerPage = lines[first.end]!.page;
  const pages = [...new Set(lines.map((l) => l.page))].filter((p) => p >= headerPage);
  for (const [k, page] of pages.entries()) {
    let start = first.end + 1;
    if (k > 0) {
      const from = lines.findIndex((l) => l.page === page);
      const to = lines.findLastIndex((l) => l.page === page) + 1;
      const repeated = findHeader(doc, from, to);
      if (repeated) header = repeated;
      start = repeated ? repeated.end + 1 : from;
    }
    // Page offsets keep rows of later pages after those of earlier ones.
    if (readRows(doc, start, page, header.cols, page * 1e6, rows, loose)) break;
  }
  return attachDescriptions(rows, loose, doc.lineHeight);
}

/** Reads the rows of one page's table; true when the table ended (the totals block). */
function readRows(doc: InvoiceDoc, start: number, page: number, cols: Column[], yOffset: number, rows: Row[], loose: Loose[]): boolean {
  const { lines, dec } = doc;
  const descCol = cols.find((c) => c.kind === 'description');
  const numeric = cols.filter((c) => ['quantity', 'unitPrice', 'amount', 'unit'].includes(c.kind));
  const leftLimit = Math.min(...numeric.map((c) => c.x0));
  const anchor: Kind = cols.some((c) => c.kind === 'amount') ? 'amount' : 'unitPrice';
  let subtotalSeen = false;
  const rowsBefore = rows.length;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.page !== page) return false;
    const amounts = findAmounts(line.text, dec);
    // A line without money is text: a long detail line runs on under the number columns.
    const prose = !amounts.some((a) => a.hasDecimals);
    const row: Partial<Record<Kind, string>> = {};
    const kinds: Kind[] = [];
    line.words.forEach((w, n) => {
      const col = nearest(cols, w.x, w.x + w.width);
      const prev = line.words[n - 1];
      // A word close after a description word continues it ("vor Ort", "5L") unless it stands under a number column.
      const inOther = !prose && numeric.some((c) => w.x < c.x1 && w.x + w.width > c.x0);
      const glued = prev && kinds[n - 1] === 'description' && w.x - (prev.x + prev.width) < w.height * 1.2 && !inOther;
      // A percentage ("19 %", "5%") is a rate: never a quantity, price or amount.
      const rate = /%$/.test(w.text) || line.words[n + 1]?.text === '%';
      const kind: Kind = glued || (!descCol && w.x + w.width < leftLimit && col?.kind !== 'sku') ? 'description' : rate ? 'other' : (col?.kind ?? 'other');
      kinds.push(kind);
      // Words apart keep a wide gap so "19   573,00" stays two numbers.
      const sep = prev && w.x - (prev.x + prev.width) > w.height * 1.5 ? '   ' : ' ';
      row[kind] = row[kind] ? `${row[kind]}${sep}${w.text}` : w.text;
    });
    const num = (kind: Kind) => {
      const a = row[kind] ? findAmounts(row[kind]!, dec) : [];
      return a.length ? a[a.length - 1]! : undefined;
    };
    const total = num(anchor);
    // A totals label ends the table, a sub-total or carried-forward label is skipped — unless the row is an item
    // (a quantity or a unit price of its own: "Vinho do Porto" is no postage line).
    const labels = doc.hits[i]!.filter((h) => !h.weak).map((h) => h.field);
    const itemLike = num('quantity') !== undefined || (anchor === 'amount' && num('unitPrice') !== undefined);
    // A line of headings across the columns ends the table; inside the description column it is text ("Stück, Preis je Einheit").
    const across = line.x + line.width > leftLimit;
    // A line naming several totals ("Base HT   TVA 20 %   Total à payer") starts the totals block.
    const totalsRow = new Set(labels.filter((f) => ENDS.includes(f) || f === 'subtotal')).size >= 2;
    if (labels.includes('taxSummary') || (totalsRow && rows.length) || (!amounts.length && rows.length && across && isHeading(doc, i))) return true;
    // A negative row whose words stand in the description column, before any sub-total, is a discount line
    // ("Trade discount   -147.48"); after a sub-total a labelled line is the document's.
    const credit = !itemLike && total && total.value < 0 && !subtotalSeen && line.x < leftLimit;
    // "To carry forward" under this page's rows: the table goes on over the page, below is the page's footer.
    if (!itemLike && labels.includes('carriedForward') && rows.length > rowsBefore) return false;
    // Only ids ("VAT id … GLN 5455351042981" in a footer): no totals line, whatever its label.
    const money = amounts.some((a) => a.hasDecimals || Math.abs(a.value) < 1e7);
    if (!itemLike && money && !DOC_LEVEL.test(line.text) && !credit) {
      if (labels.some((f) => ENDS.includes(f))) return true;
      subtotalSeen ||= labels.includes('subtotal');
      if (labels.some((f) => SKIPS.includes(f))) continue;
    }
    if (subtotalSeen && labels.some((f) => SKIPS.includes(f))) continue;
    // A row without quantity or price that repeats the sum of the rows so far carries it forward, in any words.
    const carried =
      !itemLike &&
      rows.length > 1 &&
      total &&
      near(
        total.value,
        rows.reduce((a, r) => a + (r.total ?? 0), 0),
      );
    if (ALLOWANCE.test(row.description ?? '') || carried) continue;
    if (!total || !total.hasDecimals || DOC_LEVEL.test(line.text)) {
      // A line without an amount: its words (not its numbers) may belong to an item's description.
      const detail = doc.hits[i]!.some((h) => h.start <= 2 && DETAIL_LABELS.includes(h.field));
      // Reference lines ("Service level: next day", "Lot 4411") continue an item's description, never name one.
      const desc = description(row.description, true);
      const ref = detail || desc !== description(row.description);
      if (desc && !DOC_LEVEL.test(line.text)) loose.push({ text: desc, y: yOffset + line.y, detail: ref });
      continue;
    }
    // Text without a word in the description column (a position number, an article code) is no description.
    const desc = description(row.description);
    const item: Row = {
      description: desc,
      sku: row.sku?.trim() || null,
      quantity: num('quantity')?.value ?? null,
      unit: row.unit ? row.unit.replace(/[\d.,\s]+/g, ' ').trim() || null : null,
      unitPrice: anchor === 'amount' ? (num('unitPrice')?.value ?? null) : null,
      total: total.value,
      y: yOffset + line.y,
    };
    rows.push(
      fixByArithmetic(
        item,
        amounts.map((a) => a.value),
      ),
    );
  }
  return false;
}

const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.011, Math.abs(b) * 0.005);

/** quantity × unit price ≈ total is evidence: when the columns gave a pair that does not multiply out, find one. */
function fixByArithmetic(item: Row, values: number[]): Row {
  const { quantity: q, unitPrice: p, total: t } = item;
  if (t === null || (q !== null && p !== null && near(q * p, t))) return item;
  const others = values.filter((v, i) => i !== values.lastIndexOf(t));
  for (let a = 0; a < others.length; a++)
    for (let b = a + 1; b < others.length; b++) if (near(others[a]! * others[b]!, t)) return { ...item, quantity: others[a]!, unitPrice: others[b]! };
  return item;
}

/**
 * Description lines without amounts: between two items, a line close under an item continues its description; a
 * line that stands off from the item above belongs to the item below when that one has no description of its own.
 */
function attachDescriptions(items: Row[], loose: Loose[], lineHeight: number): ExtractedLineItem[] {
  const used = new Set<Loose>();
  items.forEach((it, k) => {
    if (!it.description) return;
    // Continuation: close under the row, and the next row has its own description (or there is none).
    const next = items[k + 1];
    const nextY = next?.y ?? Infinity;
    const below = loose.filter((l) => l.y > it.y && l.y < nextY);
    // A chain of lines each close under the last: a gap ends it (a footer far below is no continuation).
    const gap = below.findIndex((l, n) => l.y - (n === 0 ? it.y : below[n - 1]!.y) > lineHeight * 1.8);
    const cont = gap < 0 ? below : below.slice(0, gap);
    const take = next && !next.description ? cont.filter((l) => nextY - l.y > lineHeight * 1.8) : cont;
    take.forEach((l) => used.add(l));
    if (take.length) it.description += ` ${take.map((l) => l.text).join(' ')}`;
  });
  items.forEach((it, k) => {
    if (it.description) return;
    // A heading over the numbers (the nearest free line above, after the previous row), else the line below.
    const prevY = items[k - 1]?.y ?? -Infinity;
    const nextY = items[k + 1]?.y ?? Infinity;
    const free = loose.filter((l) => !used.has(l) && !l.detail && !DETAIL.test(l.text));
    const pick = free.filter((l) => l.y < it.y && l.y > prevY).pop() ?? free.find((l) => l.y > it.y && l.y < nextY);
    if (pick) {
      used.add(pick);
      it.description = pick.text;
    }
  });
  return items.map(({ y: _y, ...it }) => ({ ...it, description: it.description?.replace(/^\d{1,3}\s+(?=\D)/, '') ?? null }));
}
