// How one document looks: page, fonts and sizes, header, table, totals and footer styles. A layout family fixes
// its own dimension; the others are drawn at random, so every family still varies in everything else.

import { formatDate, formatMoney, formatNumber, formatPercent, formatQuantity, type Day } from './format.ts';
import { NARROW, type LayoutFamily } from './layouts.ts';
import type { Labels } from './locales/types.ts';
import { FONT_SLOTS, MONO_SLOTS, fontFace, type FontFace } from './pdf/fonts.ts';
import type { PageSize } from './pdf/canvas.ts';
import type { Rng } from './random.ts';
import type { InvoiceTruth } from './truth.ts';

export type HeaderStyle = 'label-left' | 'label-above' | 'two-column' | 'title-line';
export type Ruling = 'boxed' | 'none' | 'header-rule' | 'zebra';
export type TotalsStyle = 'column' | 'side-box' | 'row';
export type ColumnKey = 'pos' | 'sku' | 'description' | 'quantity' | 'unit' | 'unitPrice' | 'discount' | 'vat' | 'amount';

export interface Design {
  page: PageSize;
  margin: number;
  face: FontFace;
  size: number;
  header: HeaderStyle;
  letterhead: 'left' | 'right' | 'center';
  /** The seller's name as the letterhead shows it: legal name, upper case, or a brand with the legal name below. */
  brand: 'legal' | 'upper' | 'brand';
  /** A one-line sender address above the buyer's (window envelopes). */
  senderLine: boolean;
  ruling: Ruling;
  columns: ColumnKey[];
  /** Quantity and unit in one cell ("2 Stk."). */
  qtyWithUnit: boolean;
  totals: TotalsStyle;
  breakdown: boolean;
  /** With a breakdown: a "Total VAT" line in the totals, or only the per-rate lines. */
  taxTotalLine: boolean;
  intro: boolean;
  footer: 'columns' | 'lines' | 'none';
  /** Carried-forward subtotals at page breaks. */
  carry: boolean;
  accent: string;
  colon: boolean;
}

/** One synonym per label for the whole document. */
export type Words = { [K in keyof Labels]: string };

export function pickWords(rng: Rng, t: InvoiceTruth): Words {
  const labels = t.locale.labels;
  const w = Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, rng.pick(v as string[])])) as Words;
  // With a prepayment, "total" and "amount due" are different lines and must read differently.
  if (t.prepaid > 0) w.total = rng.pick(labels.total.filter((l) => !labels.amountDue.includes(l)));
  if (w.itemsTotal === w.subtotal) w.itemsTotal = labels.itemsTotal.find((l) => l !== w.subtotal)!;
  return w;
}

export function pickDesign(rng: Rng, t: InvoiceTruth): Design {
  const family: LayoutFamily = t.layout;
  const narrow = NARROW.has(family);
  const us = t.country.code === 'US';
  const page = narrow
    ? { width: rng.pick([226.77, 226.77, 164.41]), height: 2000 }
    : us || (t.language === 'en' && rng.chance(0.2))
      ? { width: 612, height: 792 }
      : { width: 595.28, height: 841.89 };
  // Till receipts mostly print in a fixed-pitch face; invoices seldom do.
  const proportional = Array.from({ length: FONT_SLOTS }, (_, i) => i).filter((i) => !MONO_SLOTS.includes(i));
  const face = fontFace(rng.chance(narrow ? 0.7 : 0.08) ? rng.pick(MONO_SLOTS) : rng.pick(proportional));
  const header: HeaderStyle =
    family === 'label-left'
      ? 'label-left'
      : family === 'label-above'
        ? 'label-above'
        : family === 'two-column-header'
          ? 'two-column'
          : family === 'title-line'
            ? 'title-line'
            : rng.pick(['label-left', 'label-left', 'label-above', 'two-column', 'title-line'] as const);
  const ruling: Ruling =
    family === 'boxed-table' ? 'boxed' : family === 'no-ruling-table' ? 'none' : rng.pick(['boxed', 'none', 'header-rule', 'header-rule', 'zebra'] as const);
  const multiRate = t.taxes.length > 1;
  const anyDiscount = t.lines.some((l) => l.discount > 0);
  const columns: ColumnKey[] = [];
  if (rng.chance(0.45)) columns.push('pos');
  if (rng.chance(family === 'multi-page' ? 0.8 : 0.45)) columns.push('sku');
  columns.push('description', 'quantity');
  const qtyWithUnit = rng.chance(0.3);
  if (!qtyWithUnit && rng.chance(0.6)) columns.push('unit');
  columns.push('unitPrice');
  if (anyDiscount) columns.push('discount');
  if (multiRate || rng.chance(0.2)) columns.push('vat');
  columns.push('amount');
  const totals: TotalsStyle = family === 'totals-side-box' ? 'side-box' : rng.pick(['column', 'column', 'column', 'row', 'side-box'] as const);
  return {
    page,
    margin: narrow ? rng.pick([8, 10, 12]) : rng.int(36, 60),
    face,
    size: narrow ? rng.pick([6.5, 7, 7.5, 8]) : rng.pick([8, 8.5, 9, 9, 9.5, 10]),
    header,
    letterhead: rng.pick(['left', 'left', 'right', 'center'] as const),
    brand: rng.weighted([
      ['legal', 0.6],
      ['upper', 0.15],
      ['brand', 0.25],
    ] as const),
    senderLine: t.language !== 'en' && rng.chance(0.35),
    ruling,
    columns,
    qtyWithUnit,
    totals,
    breakdown: family === 'multi-vat' || (multiRate && rng.chance(0.6)) || rng.chance(0.1),
    taxTotalLine: rng.chance(0.6),
    intro: rng.chance(0.25),
    footer: rng.pick(['columns', 'columns', 'lines', 'none'] as const),
    carry: family === 'multi-page' || rng.chance(0.4),
    accent: rng.pick(['#111111', '#1f3a68', '#7a1c1c', '#245c3a', '#333333']),
    colon: rng.chance(0.7),
  };
}

/** Formatting with the document's conventions. */
export function formatters(t: InvoiceTruth) {
  const m = t.money;
  return {
    money: (n: number, withCurrency = false) => formatMoney(n, m, withCurrency),
    unitPrice: (n: number) => formatMoney(n, m, m.currencyInTable, m.unitDecimals),
    cell: (n: number) => formatMoney(n, m, m.currencyInTable),
    date: (d: Day) => formatDate(d, t.dateStyle, t.locale.dates, t.country.monthFirst),
    qty: (q: number) => formatQuantity(q, m.number),
    pct: (rate: number) => formatPercent(rate, m.number, t.language !== 'en' && t.language !== 'nl'),
    num: (n: number) => formatNumber(n, m.number),
  };
}
export type Formatters = ReturnType<typeof formatters>;
