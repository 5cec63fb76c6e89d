// The data sheet: a plain rendering of e-invoice data, as e-invoice viewers print it. No letterhead and no item
// table: titled sections of "Label: value" rows (small labels, values at a fixed indent, often on grey), the
// rows of a section balanced over two columns under its full-width heading, the buyer's section often before
// the seller's, totals as "label | net/gross | amount" rows, and every line item a block of its own: a heading
// (its name, or "Line 3"), price rows (quantity, unit, price per unit, total price) and item rows (name, number).

import { box, fill, lab, lead, type Ctx } from './context.ts';
import type { OptionalNumber } from '../distractors.ts';
import { newPairs, planned, recordBank, sellerVatId, shownDate, shownNumber } from './distractors.ts';
import { vatLabel } from './header.ts';

type Row = [label: string, value: string];

export function renderSheet(ctx: Ctx): Promise<Buffer> {
  const { c, d, t, w, f, rng } = ctx;
  const b = box(ctx);
  const size = Math.min(d.size, 9);
  const small = Math.max(6, size - 2);
  const indent = rng.pick([70, 80, 90]);
  const grey = rng.chance(0.6);
  const twoColumns = rng.chance(0.6);
  const gap = 20;
  const colWidth = twoColumns ? (b.width - gap) / 2 : b.width;
  const rowHeight = lead(size) + (grey ? 4 : 2);
  const bottom = b.bottom - 24;
  let y = b.top;

  const room = (h: number) => {
    if (y + h <= bottom) return;
    c.newPage();
    y = b.top;
  };
  const heading = (s: string, big = false) => {
    room(lead(size + 2) * 2 + rowHeight);
    if (big) {
      c.text(s, b.left, y, { size: size + 8, bold: true });
      y += lead(size + 8) + 6;
      return;
    }
    c.line(b.left, y, b.right, y, 0.5);
    y += 4;
    c.text(s, b.left + 4, y, { size, bold: true });
    y += lead(size) + 8;
  };
  const subheading = (s: string) => {
    room(lead(size + 1) + rowHeight * 2);
    c.text(s, b.left + 4, y, { size: size + 1, bold: true });
    y += lead(size + 1) + 2;
  };
  const row = (x: number, top: number, width: number, [label, value]: Row) => {
    // A long label wraps within its column, as viewers print it ("Nombre de la / empresa:").
    // Type as small as it takes for the longest word to fit its column (a long e-mail address in half a page).
    const fit = (text: string, w: number, start: number) => {
      let sz = start;
      while (sz > 5 && Math.max(...text.split(/\s+/).map((word) => c.measure(word, sz))) > w) sz -= 0.5;
      return sz;
    };
    const ls = fit(lab(ctx, label), indent - 8, small);
    const labels = c.wrap(lab(ctx, label), indent - 8, ls);
    labels.forEach((l, i) => c.text(l, x + 4, top + 2 + i * lead(ls), { size: ls }));
    const vx = x + indent;
    const vs = fit(value, width - indent - 6, size);
    const lines = c.wrap(value, width - indent - 6, vs);
    if (grey) c.rect(vx, top, width - indent, lines.length * lead(vs) + 3, { fill: '#eeeeee' });
    lines.forEach((l, i) => c.text(l, vx + 3, top + 1.5 + i * lead(vs), { size: vs }));
    return Math.max(lines.length * lead(vs), labels.length * lead(ls)) + (grey ? 4 : 2);
  };
  /** A section's rows: balanced over two columns (left first, top to bottom) or in one. */
  const rows = (list: Row[]) => {
    const rs = list.filter(([, v]) => v);
    const split = twoColumns ? Math.ceil(rs.length / 2) : rs.length;
    const cols = twoColumns ? [rs.slice(0, split), rs.slice(split)] : [rs];
    room(split * rowHeight);
    let end = y;
    cols.forEach((col, j) => {
      let top = y;
      for (const r of col) top += row(b.left + j * (colWidth + gap), top, colWidth, r);
      end = Math.max(end, top);
    });
    y = end + 8;
  };
  /** "label | qualifier | amount" rows across the page. */
  const amounts = (list: Array<[string, string, number | string, boolean?]>) => {
    room(list.length * lead(size));
    for (const [label, qualifier, value, bold] of list) {
      c.text(label, b.left + 4, y, { size, bold: bold ?? false });
      if (qualifier) c.text(qualifier, b.left + b.width * 0.62, y, { size });
      c.text(typeof value === 'number' ? f.money(value) : value, b.right - 4, y, { size, bold: bold ?? false, align: 'right' });
      y += lead(size) + 2;
    }
    y += 8;
  };

  const s = t.seller;
  const plan = ctx.x?.plan;
  /** A planned number as a row (drawn from no stream: the issue-14 sheet printed none of these). */
  const extra = (kind: OptionalNumber, label: string, value: string): Row[] => (plan?.numbers.has(kind) ? [[label, shownNumber(ctx, kind, value)]] : []);
  const buyer = (): void => {
    heading(w.sheetBuyer);
    rows([
      [w.sheetName, t.buyer.name],
      [w.sheetStreet, t.buyer.street],
      [w.sheetCity, t.buyer.cityLine],
      [w.sheetCountry, t.buyer.country.code],
      ...extra('buyerVatId', vatLabel(ctx).replace(/:$/, ''), t.buyer.vatId),
      ...(plan ? extra('buyerGln', plan.labels.gln, plan.buyerGln) : []),
    ]);
  };
  const seller = (): void => {
    heading(w.sheetSeller);
    rows([
      [w.sheetCompany, s.name],
      [w.sheetStreet, s.street],
      [w.sheetCity, s.cityLine],
      [w.sheetCountry, s.country.code],
      [w.phone, s.phone],
      [w.email, s.email],
      [vatLabel(ctx).replace(/:$/, ''), sellerVatId(ctx)],
      ...(plan ? [...extra('taxNumber', plan.labels.taxNumber, plan.taxNumber), ...extra('sellerGln', plan.labels.gln, plan.sellerGln)] : []),
    ]);
  };

  heading(rng.chance(0.5) ? w.sheetTitle : w.invoice, true);
  if (rng.chance(0.6)) (buyer(), seller());
  else (seller(), buyer());
  heading(w.sheetDocument);
  const due = t.due.kind === 'none' ? '' : f.date(t.due.date);
  ctx.dueShown = Boolean(due);
  rows([
    [w.invoiceNumber, t.number],
    [w.invoiceDate, f.date(t.date)],
    [w.dueDate, due],
    [w.currency, t.currency.code],
    ...(planned(ctx, 0.5, 'orderNumber') ? [[w.orderNumber, shownNumber(ctx, 'orderNumber', t.orderNumber)] as Row] : []),
    ...extra('customerNumber', w.customerNumber, t.customerNumber),
    ...extra('deliveryNote', w.deliveryNote, t.deliveryNote),
    ...(plan?.dates.has('orderDate') ? [[w.orderDate, shownDate(ctx, 'orderDate', t.orderDate)] as Row] : []),
    ...(plan?.dates.has('deliveryDate') ? [[w.deliveryDate, shownDate(ctx, 'deliveryDate', t.deliveryDate)] as Row] : []),
    ...newPairs(ctx),
  ]);

  heading(w.sheetTotals);
  const net = w.sheetNet;
  const gross = w.sheetGross;
  const totalWord = rng.chance(0.5) ? w.total : null; // "Total | net" and "Total | gross", or the language's own labels
  amounts([
    [w.sheetItemsSum, net, t.itemsTotal],
    ...t.adjustments.map((a): [string, string, number] => [
      a.kind === 'allowance' ? w.allowance : w.shipping,
      net,
      a.kind === 'allowance' ? -a.amount : a.amount,
    ]),
    [totalWord ?? w.subtotal, totalWord ? net : '', t.subtotal, true],
    [w.taxTotal, '', t.tax],
    [totalWord ?? w.total, totalWord ? gross : '', t.total, true],
    ...(t.prepaid > 0 ? [[w.prepaid, '', t.prepaid] as [string, string, number]] : []),
    [w.amountDue, gross, t.amountDue, true],
  ]);
  if (t.taxes.length > 1 || rng.chance(0.5)) {
    for (const x of t.taxes)
      amounts([
        [w.taxBase, net, x.base],
        [`${w.vatRate} ${f.pct(x.rate)}`, '', x.tax],
      ]);
  }
  heading(w.bank);
  recordBank(ctx);
  rows([
    ['IBAN', s.bank.iban],
    ...(s.bank.bic ? [['BIC', s.bank.bic] as Row] : []),
    [w.bank, s.bank.bank],
    ...(plan?.accountHolder ? [[plan.labels.accountHolder, s.name] as Row] : []),
  ]);

  heading(w.sheetDetails, true);
  const priceFirst = rng.chance(0.6);
  const named = rng.chance(0.6);
  t.lines.forEach((l, i) => {
    room(rowHeight * 8);
    heading(named ? l.description : fill(w.sheetPosition, { n: i + 1 }));
    const price = () => {
      subheading(w.sheetPrice);
      amounts([
        ...(l.isDiscount ? [] : [[w.quantity, '', f.qty(l.quantity)] as [string, string, string]]),
        ...(l.unit && !l.isDiscount ? [[w.unit, '', l.unit] as [string, string, string]] : []),
        ...(l.isDiscount ? [] : [[w.sheetUnitPrice, '', f.unitPrice(l.unitPrice)] as [string, string, string]]),
        [w.sheetLineTotal, '', l.amount, true],
      ]);
    };
    const item = () => {
      subheading(w.sheetItem);
      rows([
        [w.sheetName, [l.description, ...l.details].join(' ')],
        [w.itemNo, l.sku],
        ...(plan?.gtins?.[i] ? [[plan.labels.gtin, shownNumber(ctx, `gtin${i + 1}`, plan.gtins[i])] as Row] : []),
      ]);
    };
    if (priceFirst) (price(), item());
    else (item(), price());
  });

  for (let i = 0; i < c.pageCount; i++) {
    c.onPage(i);
    c.text(fill(w.page, { p: i + 1, n: c.pageCount }), b.left + b.width / 2, b.bottom - lead(small), { size: small, align: 'center' });
  }
  return c.finish();
}
