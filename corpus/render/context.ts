// What every renderer gets: the canvas, the truth, the document's words, design and formatters, and the random
// source for small choices made while drawing.

import type { Design, Formatters, Words } from '../design.ts';
import type { Extras } from '../extras.ts';
import type { Canvas } from '../pdf/canvas.ts';
import type { Rng } from '../random.ts';
import type { InvoiceTruth } from '../truth.ts';
import type { Printed } from './distractors.ts';

export interface Ctx {
  c: Canvas;
  t: InvoiceTruth;
  w: Words;
  d: Design;
  f: Formatters;
  rng: Rng;
  /** Whether the due date was printed as a labelled field (else the payment terms sentence carries it). */
  dueShown: boolean;
  /** What issue 48 adds (null: the issue-14 document, byte for byte). */
  x: Extras | null;
  /** The key labels printed (the manifest's `keyLabels`); a renderer adds the title line's template when it prints one. */
  keyLabels: Record<string, string>;
  /** The other numbers and dates printed (the manifest's `distractors`). */
  printed: Printed;
}

/** Replaces {name} placeholders. */
export const fill = (template: string, vars: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));

/** A label as a field name: "Invoice No.:" or "Invoice No." (per document). */
export const lab = (ctx: Ctx, s: string) => (ctx.d.colon && !s.endsWith(':') ? `${s}:` : s);

/** Line height for a font size. */
export const lead = (size: number) => Math.round(size * 1.32 * 100) / 100;

/** The page's content box. */
export function box(ctx: Ctx) {
  const { page, margin } = ctx.d;
  return { left: margin, right: page.width - margin, top: margin, bottom: page.height - margin, width: page.width - 2 * margin };
}

/** The seller's name as the letterhead shows it. */
export function letterheadName(ctx: Ctx): { big: string; small: string | null } {
  const s = ctx.t.seller;
  if (ctx.d.brand === 'upper') return { big: s.name.toUpperCase(), small: null };
  if (ctx.d.brand === 'brand' && s.brand !== s.name) return { big: s.brand, small: s.name };
  return { big: s.name, small: null };
}

/** A small table (tax breakdowns): columns as wide as their cells, within `width` (smaller type if need be); the first row bold. */
export function drawGrid(ctx: Ctx, table: string[][], x: number, y: number, width: number, boldRows: readonly number[] = [0]): number {
  const { c, d } = ctx;
  let size = d.size - 0.5;
  const widths = () => table[0]!.map((_, j) => Math.max(...table.map((row, i) => c.measure(row[j]!, size, boldRows.includes(i)))) + 12);
  const fits = () => widths().reduce((s, w) => s + w, 0) <= width;
  while (!fits() && size > 5.5) size -= 0.5;
  // Still too wide (a 58 mm till roll): the gross column goes, it only repeats base + tax.
  if (!fits() && table[0]!.length > 3) table = table.map((row) => row.slice(0, -1));
  const ws = widths();
  const ruled = ctx.rng.chance(0.6);
  table.forEach((row, i) => {
    let cx = x;
    row.forEach((cell, j) => {
      c.text(cell, j === 0 ? cx + 2 : cx + ws[j]! - 4, y, { size, bold: boldRows.includes(i), align: j === 0 ? 'left' : 'right' });
      cx += ws[j]!;
    });
    y += lead(size + 0.5);
    if (ruled && i === 0) c.line(x, y - 1, cx, y - 1);
  });
  return y;
}
