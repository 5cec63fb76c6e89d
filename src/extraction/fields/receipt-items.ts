// Receipt line items: between the header and the total, a line with a money amount is an item; its quantity and unit
// price are the numbers before the amount that multiply to it ("2 x 3.50 7.00", "1 14.90 14.90"); a leading product
// code is its SKU. Till slips often print the name on a line of its own, above or below the line of numbers
// ("030249 1 14.90 14.90" / "NITRILE GLOVES BOX"), or the quantity line above the name and amount ("5 X 0.06" /
// "WOOD SCREW 0.30"): such lines are paired, the same way for the whole receipt.
import { stripAccents } from './dates.ts';
import { findAmounts, type DecimalSeparator } from './amounts.ts';
import type { ExtractedLineItem } from '../types.ts';
import type { Line } from './layout.ts';
import { NOT_ITEM, RECEIPT_TOTALS, SUBTOTAL_LABELS, TABLE_HEADER } from './receipt-totals.ts';

/** Lines that adjust the bill rather than sell something. */
const ADJUSTMENT = /\b(disc(?:ount)?|atlaide|rabatt?|remise|diskaun|rounding|round\s?adj|adj(?:ustment)?|service charge|promotion|promo|voucher|coupon)\b/i;
/** "2 x 3.50", "2X3.50", "2 @ 3.50": quantity times unit price. */
const TIMES = /(?<![\d.,])(\d{1,4}(?:[.,]\d{1,3})?)\s*[xX×*@]\s*(\d+[.,]\d{2})(?!\d)/;
/** A product code: a run of 4+ digits (or capitals and digits with digits) before the name or the numbers. */
const CODE = /^\s*(\d{4,}|(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{4,})\s+/;
/** A count, then a product code, then a price. */
const COUNTED_CODE = /^(\s*\d{1,3}\s+)(\d{4,})\s+(?=\d+[.,]\d{2}(?!\d))/;
/** "SubT otal", "S u b total": a subtotal label OCR split apart. */
const SPLIT_SUBTOTAL = /\bs\s?u\s?b\s?-?\s?t\s?o\s?t\s?a\s?l\b/i;
const near = (a: number, b: number) => Math.abs(a - b) < 0.015;

interface Row {
  line: Line;
  /** Text with letters, before the numbers (cleaned), or null. */
  name: string | null;
  sku: string | null;
  quantity: number | null;
  unitPrice: number | null;
  amount: number | null;
}

const letters = (s: string) => s.replace(/[^\p{L}]/gu, '').length;
const clean = (s: string) =>
  s
    .replace(/[^\p{L}\p{N}\s.,&'"/%()-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function readRow(line: Line, dec?: DecimalSeparator): Row {
  let text = line.text;
  const code = text.match(CODE);
  // "1 556677 24.90 24.90": a count, then the code, then the price.
  const counted = code ? null : text.match(COUNTED_CODE);
  const sku = code ? code[1]! : (counted?.[2] ?? null);
  if (code) text = text.slice(code[0].length);
  else if (counted) text = counted[1]! + text.slice(counted[0].length);
  const times = text.match(TIMES);
  const money = findAmounts(text, dec).filter((a) => a.hasDecimals && a.value >= 0);
  const first = Math.min(times?.index ?? Infinity, money[0]?.index ?? Infinity, text.search(/\s\d{1,3}\s+\d+[.,]\d{2}(?!\d)/) + 1 || Infinity);
  const head = clean(Number.isFinite(first) ? text.slice(0, first) : text);
  const name = letters(head) >= 3 ? head : null;
  let quantity: number | null = null;
  let unitPrice: number | null = null;
  let amount: number | null = money.length ? money[money.length - 1]!.value : null;
  // "3 RICE 1.50 4.50": a count before the name.
  const lead = name?.match(/^(\d{1,3})\s+(?=\p{L})/u);
  if (times) {
    quantity = Number(times[1]!.replace(',', '.'));
    unitPrice = Number(times[2]!.replace(',', '.'));
    const after = money.filter((a) => a.index > times.index! + times[0].length - 1);
    amount = after.length ? after[after.length - 1]!.value : null;
  } else if (amount !== null) {
    // "1 14.90 14.90", "3 1.50 4.50": a count and a price before the amount that multiply to it.
    const before = text.slice(0, money[money.length - 1]!.index);
    const nums = [...before.matchAll(/(?<![\d.,])(\d{1,3}(?:[.,]\d{1,3})?)(?![\d.,])\s+(\d+[.,]\d{2})(?!\d)/g)];
    const fit = nums.find((m) => near(Number(m[1]!.replace(',', '.')) * Number(m[2]!.replace(',', '.')), amount!));
    if (fit) {
      quantity = Number(fit[1]!.replace(',', '.'));
      unitPrice = Number(fit[2]!.replace(',', '.'));
    } else if (lead && Number(lead[1]) > 0) {
      const n = Number(lead[1]);
      const price = money.slice(0, -1).find((a) => near(n * a.value, amount!));
      if (price || money.length === 1) [quantity, unitPrice] = [n, price ? price.value : Math.round((amount / n) * 100) / 100];
    }
  }
  return { line, name: lead && quantity !== null ? name!.slice(lead[0].length) : name, sku, quantity, unitPrice, amount };
}

/** The items of a receipt between its header (a table header, else the first three lines) and the total's line. */
export function receiptItems(lines: Line[], totalLine: Line | null, dec?: DecimalSeparator): ExtractedLineItem[] {
  const last = totalLine ? totalLine.index : lines.length;
  // A column header has no figures ("Item(s): 1 Qty(s): 2" below the items is a count).
  const header = lines.findIndex((l, i) => i < last && TABLE_HEADER.test(l.text) && !/\d/.test(l.text));
  const start = header >= 0 ? header + 1 : 3;
  // Items end at the total's line, or at the first subtotal or total label above it.
  const labelled = lines.findIndex(
    (l, i) => i >= start && (SPLIT_SUBTOTAL.test(l.text) || [...SUBTOTAL_LABELS, ...RECEIPT_TOTALS].some((label) => label.re.test(l.text))),
  );
  const end = Math.min(last, labelled >= 0 ? labelled : lines.length);
  const rows = lines.slice(start, end).flatMap((line) => {
    const t = stripAccents(line.text);
    if (NOT_ITEM.test(t) || ADJUSTMENT.test(t)) return [];
    return [readRow(line, dec)];
  });
  // Which side a name printed on its own line belongs to: the first line of numbers without a name decides.
  const nameless = rows.findIndex((r) => r.amount !== null && !r.name);
  const above = nameless > 0 && namePartner(rows, nameless, -1, new Set()) !== null;
  const used = new Set<Row>();
  const items: ExtractedLineItem[] = [];
  rows.forEach((row, i) => {
    if (used.has(row)) return;
    const next = rows[i + 1];
    let { name, quantity, unitPrice, amount } = row;
    // "5 X 0.06" with no name: the next line holds the name and the amount (or the amount alone).
    if (quantity !== null && amount === null && next && !used.has(next) && next.amount !== null && near(quantity * unitPrice!, next.amount)) {
      amount = next.amount;
      name ??= next.name;
      used.add(next);
    }
    if (amount === null) return;
    if (!name) {
      const partner = namePartner(rows, i, above ? -1 : 1, used) ?? namePartner(rows, i, above ? 1 : -1, used);
      if (partner) {
        name = partner.name;
        used.add(partner);
      }
    }
    if (!name) return;
    used.add(row);
    items.push({ description: name, sku: row.sku, quantity, unit: null, unitPrice, total: amount });
  });
  return items;
}

/** The nearest unused line holding only a name, `reach` rows away at most in direction `dir`, past lines with neither name nor amount. */
function namePartner(rows: Row[], i: number, dir: 1 | -1, used: Set<Row>, reach = 2): Row | null {
  for (let k = 1; k <= reach; k++) {
    const r = rows[i + dir * k];
    if (!r || used.has(r) || r.amount !== null || r.quantity !== null) return null;
    if (r.name) return r;
  }
  return null;
}
