// The top of an A4/Letter invoice: letterhead, title, the buyer's address (the distractor), and the invoice data
// in one of four styles: labels left of values, labels above values, a two-column header, or a title line.

import type { TextOptions } from '../pdf/canvas.ts';
import { box, fill, lab, lead, letterheadName, type Ctx } from './context.ts';
import { buyerNumberLines, newPairs, planned, sellerVatId, shownDate, shownNumber } from './distractors.ts';

type Pair = [string, string];

/** The invoice's labelled fields, number and date first, then a random selection of the others. */
function metaPairs(ctx: Ctx, withNumberAndDate: boolean): Pair[] {
  const { t, w, f, rng } = ctx;
  const head: Pair[] = withNumberAndDate
    ? [
        [w.invoiceNumber, t.number],
        [w.invoiceDate, f.date(t.date)],
      ]
    : [];
  if (withNumberAndDate && rng.chance(0.3)) head.reverse();
  let rest: Pair[] = [];
  if (planned(ctx, 0.6, 'customerNumber')) rest.push([w.customerNumber, shownNumber(ctx, 'customerNumber', t.customerNumber)]);
  if (planned(ctx, 0.45, 'orderNumber')) rest.push([w.orderNumber, shownNumber(ctx, 'orderNumber', t.orderNumber)]);
  if (planned(ctx, 0.25, 'orderDate')) rest.push([w.orderDate, shownDate(ctx, 'orderDate', t.orderDate)]);
  if (planned(ctx, 0.35, 'deliveryDate')) rest.push([w.deliveryDate, shownDate(ctx, 'deliveryDate', t.deliveryDate)]);
  if (planned(ctx, 0.2, 'deliveryNote')) rest.push([w.deliveryNote, shownNumber(ctx, 'deliveryNote', t.deliveryNote)]);
  if (rng.chance(0.15)) rest.push([w.currency, t.currency.code]);
  // The kinds issue 14 never printed, then every pair in an order of the document's own.
  if (ctx.x) {
    const all = [...rest, ...newPairs(ctx)];
    rest = ctx.x.rng.sample(all, all.length);
  }
  if (t.due.kind === 'date' && rng.chance(0.75)) {
    ctx.dueShown = true;
    rest.splice(rng.int(0, rest.length), 0, [w.dueDate, f.date(t.due.date)]);
  }
  return [...head, ...rest];
}

/** A label of two words or more cut in two lines ("Invoice issue" / "date:"), when the document splits its labels. */
function splitLabel(ctx: Ctx, label: string): [string, string] | null {
  const words = label.split(' ');
  if (!ctx.x?.splitLabels || words.length < 2 || !ctx.x.rng.chance(0.6)) return null;
  const cut = Math.ceil(words.length / 2);
  return [words.slice(0, cut).join(' '), words.slice(cut).join(' ')];
}

/** Label/value pairs in two aligned columns; returns the y below them. */
function drawLabelLeft(ctx: Ctx, pairs: Pair[], x: number, y: number, right: number, size: number): number {
  const { c } = ctx;
  const labelW = Math.max(...pairs.map(([l]) => c.measure(lab(ctx, l), size))) + 8;
  const alignRight = ctx.rng.chance(0.5);
  for (const [l, v] of pairs) {
    const lines = splitLabel(ctx, lab(ctx, l)) ?? [lab(ctx, l)];
    lines.forEach((s, i) => c.text(s, x, y + i * lead(size), { size }));
    const labelEnd = y + (lines.length - 1) * lead(size);
    // Beside a split label, on its first or its last line; a value too long for the rest of the line goes on a line
    // of its own, below the label.
    let vy = lines.length > 1 && !ctx.x?.valueOnFirstLine ? labelEnd : y;
    if (Math.max(...lines.map((s) => c.measure(s, size))) + c.measure(v, size) + 10 > right - x) vy = labelEnd + lead(size);
    if (alignRight) c.text(v, right, vy, { size, align: 'right' });
    else c.text(v, Math.min(x + labelW, right - c.measure(v, size)), vy, { size });
    y = Math.max(vy, labelEnd) + lead(size);
  }
  return y;
}

/** Rows of cells, small labels above bold values; a cell is as wide as its content, rows fill the width. */
function drawLabelAbove(ctx: Ctx, pairs: Pair[], y: number): number {
  const { c, d } = ctx;
  const b = box(ctx);
  const small = d.size - 1.5;
  const boxed = ctx.rng.chance(0.5);
  const need = pairs.map(([l, v]) => Math.max(c.measure(l, small), c.measure(v, d.size, true)) + 12);
  const h = lead(small) + lead(d.size) + 6;
  for (let i = 0; i < pairs.length;) {
    let j = i + 1;
    let used = need[i]!;
    while (j < pairs.length && used + need[j]! <= b.width) used += need[j++]!;
    const spare = (b.width - used) / (j - i);
    let x = b.left;
    for (let k = i; k < j; k++) {
      const [l, v] = pairs[k]!;
      const cellW = need[k]! + spare;
      if (boxed) c.rect(x, y, cellW, h);
      c.text(l, x + 4, y + 3, { size: small, color: '#555555' });
      c.text(v, x + 4, y + 3 + lead(small), { size: d.size, bold: true });
      x += cellW;
    }
    y += h + (boxed ? 0 : 4);
    i = j;
  }
  return y;
}

/** The letterhead's name: text, or a logo (vector paths only) on documents whose name is only in their logo. */
const drawName = (ctx: Ctx, s: string, x: number, y: number, o: TextOptions) => (ctx.x?.logo ? ctx.c.logo(s, x, y, o) : ctx.c.text(s, x, y, o));

/** "Sold by: <name>" under the name, when the document prints one. */
const soldBy = (ctx: Ctx): string[] => (ctx.x?.sellerLine === 'soldBy' && ctx.x.plan ? [`${lab(ctx, ctx.x.plan.labels.seller)} ${ctx.t.seller.name}`] : []);

/** The VAT id's line; "<name> · VAT No. …" on documents that name the seller there. */
const vatLine = (ctx: Ctx) => `${ctx.x?.sellerLine === 'vatLine' ? `${ctx.t.seller.name} · ` : ''}${vatLabel(ctx)} ${sellerVatId(ctx)}`;

function drawLetterhead(ctx: Ctx, y: number): number {
  const { c, d, t, rng } = ctx;
  const b = box(ctx);
  const s = t.seller;
  const { big, small } = letterheadName(ctx);
  const bigSize = rng.pick([13, 15, 17, 20]);
  const x = d.letterhead === 'left' ? b.left : d.letterhead === 'right' ? b.right : b.left + b.width / 2;
  const align = d.letterhead;
  drawName(ctx, big, x, y, { size: bigSize, bold: true, align, color: d.accent });
  y += lead(bigSize);
  if (small) {
    c.text(small, x, y, { size: d.size, align });
    y += lead(d.size);
  }
  const lines = rng.chance(0.5)
    ? [`${s.street} · ${s.cityLine}${rng.chance(0.4) ? ` · ${s.country.name}` : ''}`, `${ctx.w.phone} ${s.phone} · ${s.email}`]
    : [s.street, s.cityLine, ...(rng.chance(0.4) ? [s.country.name] : []), `${ctx.w.phone} ${s.phone}`, s.email];
  lines.unshift(...soldBy(ctx));
  if (rng.chance(0.3) || ctx.x?.sellerLine === 'vatLine') lines.push(vatLine(ctx));
  for (const l of lines) {
    c.text(l, x, y, { size: d.size - 1, align, color: '#333333' });
    y += lead(d.size - 1);
  }
  return y;
}

export const vatLabel = (ctx: Ctx) => (ctx.t.country.vatIdLabels ? ctx.t.country.vatIdLabels[0]! : ctx.w.vatId);

/** The buyer's address block (its label or the sender line above it, then a ship-to block), within `width`. */
function drawBuyer(ctx: Ctx, x: number, y: number, width: number): number {
  const { c, d, t, w, rng } = ctx;
  const s = t.seller;
  const put = (text: string, size: number, o: { bold?: boolean; color?: string } = {}) => {
    for (const l of c.wrap(text, width, size, o.bold)) {
      c.text(l, x, y, { size, ...o });
      y += lead(size);
    }
  };
  if (d.senderLine) {
    put(`${s.name} · ${s.street} · ${s.cityLine}`, Math.max(5.5, d.size - 3), { color: '#555555' });
    y += 2;
  } else if (rng.chance(0.8)) put(lab(ctx, w.billTo), d.size, { bold: true });
  const bu = t.buyer;
  const lines = [bu.name, ...(rng.chance(0.35) ? [bu.contact] : []), bu.street, bu.cityLine];
  if (bu.country !== t.seller.country || rng.chance(0.3)) lines.push(bu.country.name);
  if (planned(ctx, 0.3, 'buyerVatId')) lines.push(`${vatLabel(ctx)} ${shownNumber(ctx, 'buyerVatId', bu.vatId)}`);
  lines.push(...buyerNumberLines(ctx));
  for (const l of lines) put(l, d.size + 0.5);
  if (t.shipTo) {
    y += 6;
    put(lab(ctx, w.shipTo), d.size, { bold: true });
    for (const l of [t.shipTo.name, t.shipTo.contact, t.shipTo.street, t.shipTo.cityLine]) put(l, d.size);
  }
  return y;
}

/** Draws the first page's header; returns where the body starts. */
export function drawHeader(ctx: Ctx): number {
  const { c, d, t, w, rng } = ctx;
  const b = box(ctx);
  const titleSize = rng.pick([14, 16, 18, 22]);
  let y = b.top;
  if (d.header === 'two-column') {
    // Seller block left, buyer block right, then the title and the invoice data in two columns.
    const s = t.seller;
    let ly = y;
    const { big, small } = letterheadName(ctx);
    for (const l of c.wrap(big, b.width * 0.5, 13, true)) (drawName(ctx, l, b.left, ly, { size: 13, bold: true, color: d.accent }), (ly += lead(13)));
    for (const l of [small, ...soldBy(ctx), s.street, s.cityLine, s.country.name, `${w.phone} ${s.phone}`, `${w.email} ${s.email}`, vatLine(ctx)]) {
      if (!l) continue;
      // Issue-48 lines ("Sold by: …") can be long: wrapped within the seller's half (issue-14 lines always fit).
      for (const part of ctx.x ? c.wrap(l, b.width * 0.53, d.size - 0.5) : [l]) {
        c.text(part, b.left, ly, { size: d.size - 0.5 });
        ly += lead(d.size - 0.5);
      }
    }
    const ry = drawBuyer(ctx, b.left + b.width * 0.55, y, b.width * 0.45);
    y = Math.max(ly, ry) + 18;
    c.text(w.invoice, b.left, y, { size: titleSize, bold: true, color: d.accent });
    y += lead(titleSize) + 6;
    const pairs = metaPairs(ctx, true);
    const half = Math.ceil(pairs.length / 2);
    const y1 = drawLabelLeft(ctx, pairs.slice(0, half), b.left, y, b.left + b.width * 0.45, d.size);
    const y2 = drawLabelLeft(ctx, pairs.slice(half), b.left + b.width * 0.55, y, b.right, d.size);
    return Math.max(y1, y2) + 14;
  }

  const headBottom = drawLetterhead(ctx, y);
  // The title goes top right beside a letterhead on the left when both fit on the line, else below the letterhead.
  const nameW = c.measure(letterheadName(ctx).big, 20, true);
  const beside = d.letterhead === 'left' && nameW + c.measure(w.invoice, titleSize, true) + 24 < b.width;
  if (d.header !== 'title-line' && beside) c.text(w.invoice, b.right, y, { size: titleSize, bold: true, align: 'right', color: d.accent });
  else if (d.header !== 'title-line') c.text(w.invoice, b.left, headBottom + 6, { size: titleSize, bold: true, color: d.accent });
  y = headBottom + (d.header !== 'title-line' && !beside ? lead(titleSize) + 12 : 22);

  if (d.header === 'label-above') {
    y = drawBuyer(ctx, b.left, y, b.width * 0.5) + 14;
    return drawLabelAbove(ctx, metaPairs(ctx, true), y) + 14;
  }
  const pairs = metaPairs(ctx, d.header !== 'title-line');
  const metaX = b.left + b.width * 0.56;
  const buyerBottom = drawBuyer(ctx, b.left, y, metaX - b.left - 12);
  const metaBottom = pairs.length ? drawLabelLeft(ctx, pairs, metaX, y, b.right, d.size) : y;
  y = Math.max(buyerBottom, metaBottom) + 16;
  if (d.header === 'title-line') {
    const drawn = rng.pick(t.locale.phrases.titleLine);
    ctx.keyLabels.titleLine = ctx.x?.titleLine ?? drawn;
    const title = fill(ctx.keyLabels.titleLine, { invoice: w.invoice, number: t.number, date: ctx.f.date(t.date) });
    c.text(title, b.left, y, { size: Math.min(titleSize, 14), bold: true });
    y += lead(14) + 8;
  }
  return y;
}

/** The top of a continuation page: who and which invoice (the page number is the footer's). Returns where the body resumes. */
export function drawContinuationHeader(ctx: Ctx): number {
  const { c, d, t, w } = ctx;
  const b = box(ctx);
  const which = `${w.invoice} ${t.number} ${w.continued}`;
  const nameW = c.text(t.seller.name, b.left, b.top, { size: d.size, bold: true });
  // Issue-48 documents get more pages: a long name and the invoice's line then share no line.
  const below = ctx.x !== null && nameW + c.measure(which, d.size) + 12 > b.width;
  c.text(which, b.right, b.top + (below ? lead(d.size) : 0), { size: d.size, align: 'right' });
  return b.top + lead(d.size) * (below ? 3 : 2) + 10;
}
