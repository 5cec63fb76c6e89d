// Totals, the tax breakdown and the payment terms below the table: a right-hand column, a framed side box beside
// the payment details, or a row of cells; allowances, charges, per-rate taxes, prepayment and amount due.

import type { Language } from '../locales/types.ts';
import { box, drawGrid, fill, lab, lead, type Ctx } from './context.ts';
import { bankLines, sellerNumberLines, sellerVatId, shownNumber } from './distractors.ts';
import { vatLabel } from './header.ts';

interface Row {
  label: string;
  value: string;
  bold?: boolean;
}
export interface TotalsPlan {
  rows: Row[];
  breakdown: string[][] | null;
  terms: string[];
  height: number;
}

const ON: Record<Language, string> = { en: 'on', de: 'auf', fr: 'sur', es: 'sobre', it: 'su', nl: 'over', pt: 'sobre' };

export function planTotals(ctx: Ctx): TotalsPlan {
  const { t, w, d, f, rng } = ctx;
  const cur = (n: number, always = false) => f.money(n, always || rng.chance(0.3));
  const rows: Row[] = [];
  if (t.adjustments.length) rows.push({ label: w.itemsTotal, value: cur(t.itemsTotal) });
  for (const a of t.adjustments) {
    if (a.kind === 'allowance') rows.push({ label: a.percent ? `${w.allowance} ${f.pct(a.percent)}` : w.allowance, value: f.money(-a.amount) });
    else rows.push({ label: w.shipping, value: cur(a.amount) });
  }
  rows.push({ label: w.subtotal, value: cur(t.subtotal) });
  const taxName = rng.pick(t.country.taxNames);
  const multi = t.taxes.length > 1;
  const perRate = !(d.breakdown && d.taxTotalLine && multi);
  if (perRate)
    for (const x of t.taxes) {
      const label = rng.chance(0.2)
        ? `${taxName} ${f.pct(x.rate)} ${ON[t.language]} ${f.money(x.base)}`
        : rng.chance(0.5)
          ? `${taxName} ${f.pct(x.rate)}`
          : `${f.pct(x.rate)} ${taxName}`;
      rows.push({ label, value: cur(x.tax) });
    }
  if (multi && (d.taxTotalLine || !perRate)) rows.push({ label: w.taxTotal, value: cur(t.tax) });
  rows.push({ label: w.total, value: f.money(t.total, true), bold: true });
  if (t.prepaid > 0) {
    rows.push({ label: w.prepaid, value: f.money(-t.prepaid) });
    rows.push({ label: w.amountDue, value: f.money(t.amountDue, true), bold: true });
  }
  const breakdown = d.breakdown
    ? [
        [w.vatRate, w.taxBase, w.taxAmount, w.gross],
        ...t.taxes.map((x) => [f.pct(x.rate), f.money(x.base), f.money(x.tax), f.money(Math.round((x.base + x.tax) * 100) / 100)]),
      ]
    : null;
  const ph = t.locale.phrases;
  const terms: string[] = [];
  if (t.due.kind === 'days') terms.push(fill(rng.pick(ph.payWithinDays), { n: t.due.days }));
  else if (t.due.kind === 'date' && !ctx.dueShown) terms.push(fill(rng.pick(ph.payBy), { date: f.date(t.due.date) }));
  if (t.reverseCharge) terms.push(rng.pick(ph.reverseCharge));
  if (rng.chance(0.25)) terms.push(rng.pick(ph.deliveryAsInvoiceDate));
  if (rng.chance(0.6)) terms.push(rng.pick(ph.thanks));
  // Without a footer, the payment and legal details a real invoice never leaves out.
  if (ctx.x?.plan && d.footer === 'none') terms.push(...paymentLines(ctx));
  const rowsH = d.totals === 'row' ? 40 : rows.length * lead(d.size + 0.5) + 12;
  const height =
    Math.max(rowsH, breakdown ? breakdown.length * lead(d.size) + 10 : 0) +
    terms.length * lead(d.size) +
    30 +
    (breakdown && d.totals === 'row' ? breakdown.length * lead(d.size) + 10 : 0);
  return { rows, breakdown, terms, height };
}

export function drawTotals(ctx: Ctx, plan: TotalsPlan, y: number): number {
  const { c, d, t, w, rng } = ctx;
  const b = box(ctx);
  const size = d.size + 0.5;
  let endY = y;
  const rowFits = plan.rows.reduce((s, r) => s + Math.max(c.measure(r.label, d.size - 1), c.measure(r.value, size, true)) + 12, 0) <= b.width;
  const style = d.totals === 'row' && !rowFits ? 'column' : d.totals;
  if (style === 'row') {
    // Cells as wide as their content, spread over the width, right-aligned.
    const need = plan.rows.map((r) => Math.max(c.measure(r.label, d.size - 1), c.measure(r.value, size, true)) + 12);
    const spare = (b.width - need.reduce((s, n) => s + n, 0)) / plan.rows.length;
    let x = b.left;
    plan.rows.forEach((r, i) => {
      x += need[i]! + spare;
      c.text(r.label, x - 4, y, { size: d.size - 1, align: 'right', color: '#444444' });
      c.text(r.value, x - 4, y + lead(d.size), { size, bold: r.bold ?? false, align: 'right' });
    });
    c.line(b.left, y - 4, b.right, y - 4);
    endY = y + lead(d.size) + lead(size) + 12;
    if (plan.breakdown) endY = drawGrid(ctx, plan.breakdown, b.left, endY, Math.min(300, b.width * 0.6)) + 8;
  } else {
    // Wider when a long label and its amount would touch (held-apart labels can be long), never over 60% of the page.
    const need = Math.max(...plan.rows.map((r) => c.measure(lab(ctx, r.label).replace(/:$/, ''), size, r.bold) + c.measure(r.value, size, r.bold) + 14));
    const boxW = Math.min(Math.max(Math.min(250, b.width * 0.48), need), b.width * 0.6);
    const bx = style === 'side-box' && rng.chance(0.3) ? b.left : b.right - boxW;
    let ry = y + (style === 'side-box' ? 6 : 0);
    for (const r of plan.rows) {
      if (r.bold) c.line(bx + 4, ry - 2, bx + boxW - 4, ry - 2, 0.7);
      c.text(lab(ctx, r.label).replace(/:$/, ''), bx + 6, ry, { size, bold: r.bold ?? false });
      c.text(r.value, bx + boxW - 6, ry, { size, bold: r.bold ?? false, align: 'right' });
      ry += lead(size) + (r.bold ? 2 : 0);
    }
    if (style === 'side-box') c.rect(bx, y, boxW, ry - y + 4);
    endY = ry + 10;
    // Beside the totals: the tax breakdown, or (side box) the payment details.
    const sideX = bx === b.left ? b.left + boxW + 16 : b.left;
    const sideW = b.width - boxW - 24;
    if (plan.breakdown) endY = Math.max(endY, drawGrid(ctx, plan.breakdown, sideX, y, Math.min(sideW, 300)) + 8);
    else if (style === 'side-box') {
      let py = y;
      for (const l of bankLines(ctx)) {
        c.text(l, sideX, py, { size: d.size - 0.5 });
        py += lead(d.size);
      }
      endY = Math.max(endY, py + 8);
    }
  }
  for (const s of plan.terms) {
    for (const l of c.wrap(s, b.width, d.size)) {
      c.text(l, b.left, endY, { size: d.size });
      endY += lead(d.size);
    }
  }
  return endY;
}

/** Bank and legal details as two lines of the payment terms (documents without a footer). */
function paymentLines(ctx: Ctx): string[] {
  const s = ctx.t.seller;
  const [label, ...bank] = bankLines(ctx);
  return [
    `${label} ${bank.join(' · ')}`,
    [`${vatLabel(ctx)} ${sellerVatId(ctx)}`, ...(s.register ? [shownNumber(ctx, 'register', s.register)] : []), ...sellerNumberLines(ctx)].join(' · '),
  ];
}
