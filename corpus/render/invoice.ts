// An A4/Letter invoice: header, optional salutation, the line-item table over as many pages as needed, totals
// (on a page of their own when they do not fit), footers and page numbers.

import { box, lead, type Ctx } from './context.ts';
import { footerHeight, drawFooters } from './footer.ts';
import { drawContinuationHeader, drawHeader } from './header.ts';
import { drawTable } from './table.ts';
import { drawTotals, planTotals } from './totals.ts';

export function renderInvoice(ctx: Ctx): Promise<Buffer> {
  const { c, d, t, rng } = ctx;
  const b = box(ctx);
  let y = drawHeader(ctx);
  if (d.intro) {
    for (const s of rng.sample(t.locale.phrases.intro, rng.int(1, 2))) {
      for (const l of c.wrap(s, b.width, d.size)) (c.text(l, b.left, y, { size: d.size }), (y += lead(d.size)));
    }
    y += 8;
  }
  const bottom = () => b.bottom - footerHeight(ctx) - 8;
  y = drawTable(ctx, y, bottom).y;
  const plan = planTotals(ctx);
  if (y + plan.height > bottom()) {
    c.newPage();
    y = drawContinuationHeader(ctx);
  }
  drawTotals(ctx, plan, y);
  drawFooters(ctx);
  return c.finish();
}
