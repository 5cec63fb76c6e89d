// Footers on every page (the seller's address, contacts, bank, register, managing director, tax id — many numbers
// that are not the invoice's) and page numbers, drawn once the page count is known.

import { box, fill, lab, lead, type Ctx } from './context.ts';
import { bankLines, sellerNumberLines, sellerVatId, shownNumber } from './distractors.ts';
import { vatLabel } from './header.ts';

function footerColumns(ctx: Ctx): string[][] {
  const { t, w } = ctx;
  const s = t.seller;
  return [
    [s.name, s.street, s.cityLine, s.country.name],
    [`${w.phone} ${s.phone}`, `${w.email} ${s.email}`, `${w.web} ${s.web}`],
    bankLines(ctx),
    [
      ...(s.register ? [shownNumber(ctx, 'register', s.register)] : []),
      ...(t.country.code !== 'US' ? [`${lab(ctx, w.director)} ${(ctx.x?.plan?.directors ?? [s.director]).join(', ')}`] : []),
      `${vatLabel(ctx)} ${sellerVatId(ctx)}`,
      ...sellerNumberLines(ctx),
    ],
  ];
}

const smallSize = (ctx: Ctx) => Math.max(5.5, ctx.d.size - 2);

/**
 * Footer columns as wide as their longest line when they fit side by side, else narrowed towards their longest
 * word and wrapped. Null when even that does not fit (the footer is then printed as centred lines).
 */
function fittedColumns(ctx: Ctx): { x: number; lines: string[] }[] | null {
  const { c } = ctx;
  const small = smallSize(ctx);
  const b = box(ctx);
  const cols = footerColumns(ctx);
  const natural = cols.map((col) => Math.max(...col.map((l) => c.measure(l, small))) + 12);
  const min = cols.map((col) => Math.max(...col.flatMap((l) => l.split(/\s+/).map((word) => c.measure(word, small)))) + 12);
  const sumMin = min.reduce((s, x) => s + x, 0);
  const sumNat = natural.reduce((s, x) => s + x, 0);
  if (sumMin > b.width) return null;
  const widths =
    sumNat <= b.width
      ? natural.map((n) => n + (b.width - sumNat) / cols.length)
      : min.map((m, j) => m + ((b.width - sumMin) * (natural[j]! - m)) / (sumNat - sumMin));
  let x = b.left;
  return cols.map((col, j) => {
    const out = { x, lines: col.flatMap((l) => c.wrap(l, widths[j]! - 10, small)) };
    x += widths[j]!;
    return out;
  });
}

/** Lines at the very foot of every page: the legal line (the seller's name, register, directors), the copyright line. */
function footLines(ctx: Ctx): string[] {
  const plan = ctx.x?.plan;
  const s = ctx.t.seller;
  const legal = [
    s.name,
    s.register || `${s.street}, ${s.cityLine}`,
    ...(s.director && ctx.t.country.code !== 'US' ? [`${lab(ctx, ctx.w.director)} ${(plan?.directors ?? []).join(', ')}`] : []),
  ];
  return [...(plan?.legalLine ? ctx.c.wrap(legal.join(' · '), box(ctx).width, smallSize(ctx)) : []), ...(plan?.copyright ? [plan.copyright] : [])];
}

/** Height kept free at the bottom of every page (the foot lines take the last lines). */
export function footerHeight(ctx: Ctx): number {
  const small = smallSize(ctx);
  const cols = ctx.d.footer === 'columns' ? fittedColumns(ctx) : null;
  const foot = footLines(ctx).length * lead(small);
  if (ctx.d.footer === 'none') return lead(small) + 6 + foot;
  if (!cols) return 6 * lead(small) + 10 + foot;
  return Math.max(...cols.map((col) => col.lines.length)) * lead(small) + lead(small) + 12 + foot;
}

export function drawFooters(ctx: Ctx): void {
  const { c, d, w, rng } = ctx;
  const b = box(ctx);
  const small = smallSize(ctx);
  const cols = d.footer === 'none' ? [] : footerColumns(ctx);
  const fitted = d.footer === 'columns' ? fittedColumns(ctx) : null;
  const numbered = c.pageCount > 1 || rng.chance(0.2);
  const foot = footLines(ctx);
  for (let i = 0; i < c.pageCount; i++) {
    c.onPage(i);
    let y = b.bottom - footerHeight(ctx) + lead(small);
    if (numbered) c.text(fill(w.page, { p: i + 1, n: c.pageCount }), b.right, y - lead(small) - 2, { size: small, align: 'right' });
    foot.forEach((l, k) => c.text(l, b.left + b.width / 2, b.bottom - (foot.length - k) * lead(small), { size: small, align: 'center', color: '#666666' }));
    if (d.footer === 'none') continue;
    c.line(b.left, y - 3, b.right, y - 3, 0.4, '#888888');
    if (!fitted) {
      const lines = [cols[0]!.join(' · '), cols[1]!.join(' · '), [...cols[2]!.slice(1), ...cols[3]!].join(' · ')];
      for (const l of lines) {
        for (const part of c.wrap(l, b.width, small)) {
          c.text(part, b.left + b.width / 2, y, { size: small, align: 'center', color: '#444444' });
          y += lead(small);
        }
      }
      continue;
    }
    for (const col of fitted) {
      let cy = y;
      for (const l of col.lines) {
        c.text(l, col.x, cy, { size: small, color: '#444444' });
        cy += lead(small);
      }
    }
  }
  c.onPage(c.pageCount - 1);
}
