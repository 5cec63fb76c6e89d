// The line-item table of an A4/Letter invoice, over as many pages as it takes: wrapped descriptions and detail
// lines, four rulings (grid, none, header rule, zebra), repeated headers and carried-forward subtotals.

import type { ColumnKey } from '../design.ts';
import type { LineTruth } from '../truth.ts';
import { box, lead, type Ctx } from './context.ts';
import { gtinRows } from './distractors.ts';
import { drawContinuationHeader } from './header.ts';

interface Col {
  key: ColumnKey;
  label: string;
  x: number;
  width: number;
  align: 'left' | 'right';
}

const WIDTH: Record<Exclude<ColumnKey, 'description'>, number> = { pos: 24, sku: 62, quantity: 40, unit: 34, unitPrice: 64, discount: 40, vat: 36, amount: 72 };

/** Column widths: at least the usual width, wide enough for the widest cell; the description takes the rest. */
function layoutColumns(ctx: Ctx, size: number, withCurrency: string): Col[] {
  const { c, d, w, t } = ctx;
  const b = box(ctx);
  const labels: Record<ColumnKey, string> = {
    pos: w.pos,
    sku: w.itemNo,
    description: w.description,
    quantity: w.quantity,
    unit: w.unit,
    unitPrice: w.unitPrice + withCurrency,
    discount: w.discount,
    vat: w.vatRate,
    amount: w.amount + withCurrency,
  };
  const rows = t.lines.map((l, i) => cells(ctx, l, i));
  const widthOf = (key: Exclude<ColumnKey, 'description'>) =>
    Math.max(WIDTH[key] * (size / d.size), c.measure(labels[key], size - 1.5, true) + 10, ...rows.map((r) => c.measure(r[key], size) + 10));
  const fixed = d.columns.filter((k) => k !== 'description').reduce((s, k) => s + widthOf(k as Exclude<ColumnKey, 'description'>), 0);
  let x = b.left;
  return d.columns.map((key) => {
    const width = key === 'description' ? Math.max(120, b.width - fixed) : widthOf(key);
    const col: Col = { key, label: labels[key], x, width, align: key === 'description' || key === 'sku' || key === 'unit' ? 'left' : 'right' };
    x += width;
    return col;
  });
}

function cells(ctx: Ctx, l: LineTruth, i: number): Record<ColumnKey, string> {
  const { f, d } = ctx;
  const bare = l.isDiscount;
  return {
    pos: bare ? '' : String(d.columns.includes('sku') ? i + 1 : (i + 1) * 10),
    sku: l.sku,
    description: l.description,
    quantity: bare ? '' : d.qtyWithUnit ? `${f.qty(l.quantity)} ${l.unit}` : f.qty(l.quantity),
    unit: bare ? '' : l.unit,
    unitPrice: bare ? '' : f.unitPrice(l.unitPrice),
    discount: l.discount ? f.pct(l.discount) : '',
    vat: f.pct(l.vatRate),
    amount: f.cell(l.amount),
  };
}

/** Space the totals, terms and footer need below the table on its last page. */
export interface TableResult {
  y: number;
}

/** Draws the table from `y`; `bottom(page)` is the lowest y a row may reach on a page. */
export function drawTable(ctx: Ctx, y: number, bottom: () => number): TableResult {
  const { c, d, t, w, rng } = ctx;
  const b = box(ctx);
  // Smaller type when the columns do not fit the page.
  const withCurrency = !t.money.currencyInTable && rng.chance(0.3) ? ` (${t.currency.code})` : '';
  let size = d.size;
  let cols = layoutColumns(ctx, size, withCurrency);
  const overflows = () => cols.at(-1)!.x + cols.at(-1)!.width > b.right + 0.5;
  while (overflows() && size > 6) cols = layoutColumns(ctx, (size -= 0.5), withCurrency);
  const small = size - 1;
  const pad = d.ruling === 'boxed' || d.ruling === 'zebra' ? 3 : 2;
  const headerFill = d.ruling === 'zebra' || (d.ruling === 'boxed' && rng.chance(0.6)) ? '#d9d9d9' : null;
  const descCol = cols.find((col) => col.key === 'description')!;
  const amountCol = cols.find((col) => col.key === 'amount')!;
  let segmentTop = y;
  let running = 0;

  const cellX = (col: Col) => (col.align === 'right' ? col.x + col.width - 4 : col.x + 4);
  const drawHeaderRow = () => {
    const h = lead(size) + 2 * pad;
    if (headerFill) c.rect(b.left, y, b.width, h, { fill: headerFill, stroke: d.ruling === 'boxed' });
    for (const col of cols) {
      const fits = c.measure(col.label, size, true) <= col.width - 6;
      c.text(col.label, cellX(col), y + pad, { size: fits ? size : size - 1.5, bold: true, align: col.align });
    }
    y += h;
    if (d.ruling !== 'none') c.line(b.left, y, b.right, y, 0.8);
  };
  const closeSegment = () => {
    if (d.ruling !== 'boxed') return;
    c.rect(b.left, segmentTop, b.width, y - segmentTop);
    for (const col of cols.slice(1)) c.line(col.x, segmentTop, col.x, y);
  };
  const sumRow = (label: string) => {
    const h = lead(size) + 2 * pad;
    c.text(label, descCol.x + 4, y + pad, { size, bold: true });
    c.text(ctx.f.money(running / 100), amountCol.x + amountCol.width - 4, y + pad, { size, bold: true, align: 'right' });
    y += h;
    if (d.ruling !== 'none') c.line(b.left, y, b.right, y);
  };

  drawHeaderRow();
  t.lines.forEach((l, i) => {
    const desc = c.wrap(l.description, descCol.width - 8, size);
    const details = [...l.details, ...gtinRows(ctx, i)].flatMap((s) => c.wrap(s, descCol.width - 8, small));
    const h = desc.length * lead(size) + details.length * lead(small) + 2 * pad;
    const carryH = d.carry ? lead(size) + 2 * pad : 0;
    if (y + h + carryH > bottom()) {
      if (d.carry) sumRow(ctx.w.carriedForward.replace('{n}', String(c.page + 2)));
      closeSegment();
      c.newPage();
      y = drawContinuationHeader(ctx);
      segmentTop = y;
      drawHeaderRow();
      if (d.carry) sumRow(w.broughtForward.replace('{p}', String(c.page)));
    }
    if (d.ruling === 'zebra' && i % 2 === 1) c.rect(b.left, y, b.width, h, { fill: '#f0f0f0', stroke: false });
    const row = cells(ctx, l, i);
    for (const col of cols) {
      if (col.key === 'description') {
        let ly = y + pad;
        for (const s of desc) (c.text(s, cellX(col), ly, { size }), (ly += lead(size)));
        for (const s of details) (c.text(s, cellX(col), ly, { size: small, color: '#444444' }), (ly += lead(small)));
      } else c.text(row[col.key], cellX(col), y + pad, { size, align: col.align });
    }
    y += h;
    running += Math.round(l.amount * 100);
    if (d.ruling === 'boxed') c.line(b.left, y, b.right, y, 0.4);
  });
  if (d.ruling === 'header-rule') c.line(b.left, y, b.right, y, 0.8);
  closeSegment();
  return { y: y + 10 };
}
