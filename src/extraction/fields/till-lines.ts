// Line items without a column header: till receipts and plain listings ("Coffee   7.00 A", "2 x Coffee   7.00",
// "Coffee 2 @ 3.50   7.00", or a name over "0.352 kg x 6.90   2.43"). The block of such lines just above the
// totals is read bottom-up; it counts only when its amounts add up to an amount printed below it.
import type { LabelField } from '../lang/vocab.ts';
import type { ExtractedLineItem } from '../types.ts';
import { findAmounts, type AmountMatch, type DecimalSeparator } from './amounts.ts';
import type { InvoiceDoc } from './doc.ts';

/** Labels that end the item block (read on the line's first words). */
const TOTALS: LabelField[] = ['total', 'subtotal', 'tax', 'amountDue', 'prepaid', 'taxSummary', 'carriedForward'];
/** Labels of the document's head: above them no item is read. */
const HEAD: LabelField[] = ['invoiceNumber', 'invoiceDate', 'dueDate', 'customerNumber', 'orderNumber', 'deliveryDate', 'taxId'];
/** What may follow a line's amount: a VAT code ("A", "B1"), a currency sign or a star. */
const TAIL = /^\s*(\p{Lu}\d?|[*€$£]|EUR|CHF|GBP|USD)?\s*$/u;
/** Multiplication between a quantity (with an optional unit) and a price: "2 x", "0,352 kg x", "3 Stk ×", "2 @". */
const TIMES = /^\s*(\p{L}{1,10}\.?)?\s*[x×*@]\s*$/iu;
const RULE = /^[-=_*.·\s]+$/;
const isWordy = (s: string) => /\p{L}{3,}/u.test(s);
const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.011, Math.abs(b) * 0.005);

interface Parsed {
  desc: string;
  quantity: number | null;
  unitPrice: number | null;
  total: number;
}

/** Reads "…   amount [code]"; null when the line does not end in money. */
function parseLine(text: string, amounts: AmountMatch[], dec: DecimalSeparator | undefined): Parsed | null {
  const last = amounts.at(-1);
  if (!last?.hasDecimals || !TAIL.test(text.slice(last.index + last.length))) return null;
  const before = amounts.slice(0, -1);
  // "qty [unit] x price" anywhere before the amount, with the words around it as the description.
  for (let k = before.length - 1; k >= 1; k--) {
    const q = { ...before[k - 1]!, value: exact(text.slice(before[k - 1]!.index, before[k - 1]!.index + before[k - 1]!.length), dec) };
    const p = before[k]!;
    if (!TIMES.test(text.slice(q.index + q.length, p.index)) || q.value <= 0) continue;
    const desc = clean(`${text.slice(0, q.index)} ${text.slice(p.index + p.length, last.index)}`);
    // Beside a name, quantity × price = amount, or it is part of the name ("Water 6 x 1.5 l"); alone on its line
    // it is the quantity even when a line discount makes the amount smaller.
    if (desc && !near(q.value * p.value, last.value)) continue;
    return { desc, quantity: q.value, unitPrice: p.value, total: last.value };
  }
  // "[pos] name   qty [unit]   price   amount" with no header over it: two numbers just before the amount whose
  // product it is. The integer of the two is the quantity ("price qty amount" is printed too); a leading
  // number before the name is then a position number.
  const k = before.length - 1;
  if (k >= 1) {
    const [a, b] = [before[k - 1]!, before[k]!];
    const between = text.slice(a.index + a.length, b.index);
    const gap = text.slice(b.index + b.length, last.index);
    if (/^\s*(\p{L}{1,6}\.?)?\s*$/u.test(between) && /^\s*[€$£]?\s*$/u.test(gap) && a.value > 0 && b.value > 0 && near(a.value * b.value, last.value)) {
      const [q, p] = a.hasDecimals && !b.hasDecimals ? [b, a] : [a, b];
      const desc = clean(text.slice(0, a.index).replace(/^\s*\d{1,3}\.?\s+(?=\p{L})/u, ''));
      if (isWordy(desc)) return { desc, quantity: exact(text.slice(q.index, q.index + q.length), dec), unitPrice: p.value, total: last.value };
    }
  }
  // "2 x Coffee   7.00": a leading count.
  const lead = /^\s*(\d{1,3})\s*[x×]\s+(?=\p{L})/u.exec(text);
  const desc = clean(text.slice(lead?.[0].length ?? 0, last.index));
  if (lead) {
    const q = Number(lead[1]);
    return { desc, quantity: q, unitPrice: Math.round((last.value / q) * 100) / 100, total: last.value };
  }
  return { desc, quantity: null, unitPrice: null, total: last.value };
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A quantity as printed, to the gram ("0,352"): amounts are read to the cent. */
export function exact(raw: string, dec: DecimalSeparator | undefined): number {
  const s = raw.replace(/[^\d.,]/g, '');
  const d = dec ?? (/,\d{1,3}$/.test(s) ? ',' : '.');
  return Number(
    s
      .split(d)
      .map((part) => part.replace(/[.,]/g, ''))
      .join('.'),
  );
}

/** Rows of a header-less item block, or [] when none adds up. */
export function tillLines(doc: InvoiceDoc): ExtractedLineItem[] {
  const { lines, dec } = doc;
  const labelAt = (i: number, fields: LabelField[], weak = true) => doc.hits[i]!.some((h) => h.start <= 2 && (weak || !h.weak) && fields.includes(h.field));
  const end = lines.findIndex((l, i) => labelAt(i, TOTALS) && findAmounts(l.text, dec).some((a) => a.hasDecimals));
  if (end < 1) return [];
  const items: ExtractedLineItem[] = [];
  let pending: ExtractedLineItem | null = null;
  // The pending item's name is (still) read from the lines above it.
  let open = false;
  for (let i = end - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.page !== lines[end]!.page || labelAt(i, HEAD, false) || labelAt(i, TOTALS)) break;
    // A rule under the items.
    if (!pending && RULE.test(line.text)) continue;
    const amounts = findAmounts(line.text, dec);
    const parsed = parseLine(line.text, amounts, dec);
    if (parsed) {
      if (pending) items.push(pending);
      if (!isWordy(parsed.desc) && parsed.quantity === null) break;
      // A till prints a count only when it is not one.
      const [quantity, unitPrice] = parsed.quantity === null ? [1, parsed.total] : [parsed.quantity, parsed.unitPrice];
      pending = { description: parsed.desc || null, sku: null, quantity, unit: null, unitPrice, total: parsed.total };
      open = !isWordy(parsed.desc);
      continue;
    }
    // A line of text over an item without a name: its name (or the first part of it).
    if (pending && open && /\p{L}/u.test(line.text)) {
      pending.description = clean(`${line.text} ${pending.description ?? ''}`);
      continue;
    }
    break;
  }
  if (pending) items.push(pending);
  const rows = items.filter((it) => it.description && isWordy(it.description)).reverse();
  return addsUp(doc, rows, end) ? rows : [];
}

/** The rows' sum is printed below them (a total, a net amount, a VAT base): the block is the items. */
function addsUp(doc: InvoiceDoc, rows: ExtractedLineItem[], end: number): boolean {
  if (!rows.length) return false;
  const sum = Math.round(rows.reduce((s, r) => s + r.total!, 0) * 100) / 100;
  return doc.lines.slice(end).some((l) => findAmounts(l.text, doc.dec).some((a) => a.hasDecimals && Math.abs(a.value - sum) < 0.005));
}
