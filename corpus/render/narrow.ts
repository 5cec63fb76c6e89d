// Till receipts on 58/80 mm paper: centred shop header, items with "2 x 3,50" lines and VAT codes, a VAT table,
// the total, cash or card payment, and (card-slip) the card terminal's slip with its own amount, ids and codes.

import type { Language } from '../locales/types.ts';
import { drawGrid, lab, lead, letterheadName, type Ctx } from './context.ts';
import { sellerVatId } from './distractors.ts';
import { vatLabel } from './header.ts';

const SLIP: Record<Language, { amount: string; approved: string; auth: string; terminal: string }> = {
  en: { amount: 'AMOUNT', approved: 'APPROVED', auth: 'AUTH CODE', terminal: 'TID' },
  de: { amount: 'Betrag', approved: 'Zahlung erfolgt', auth: 'Autorisierungs-Nr.', terminal: 'Terminal-ID' },
  fr: { amount: 'MONTANT', approved: 'PAIEMENT ACCEPTE', auth: 'No AUTO', terminal: 'TERMINAL' },
  es: { amount: 'IMPORTE', approved: 'OPERACION APROBADA', auth: 'AUT.', terminal: 'TPV' },
  it: { amount: 'IMPORTO', approved: 'TRANSAZIONE ESEGUITA', auth: 'AUT.', terminal: 'TERMINALE' },
  nl: { amount: 'BEDRAG', approved: 'Akkoord', auth: 'Autorisatiecode', terminal: 'Terminal' },
  pt: { amount: 'MONTANTE', approved: 'TRANSACAO ACEITE', auth: 'AUT.', terminal: 'TPA' },
};

export function renderNarrow(ctx: Ctx): Promise<Buffer> {
  const { c, d, t, w, f, rng } = ctx;
  const m = d.margin;
  const right = d.page.width - m;
  const mid = d.page.width / 2;
  const width = right - m;
  const size = d.size;
  let y = m + 4;
  const centre = (s: string, o: { bold?: boolean; size?: number } = {}) => {
    for (const l of c.wrap(s, width, o.size ?? size, o.bold)) {
      c.text(l, mid, y, { size: o.size ?? size, bold: o.bold ?? false, align: 'center' });
      y += lead(o.size ?? size);
    }
  };
  const pair = (l: string, r: string, bold = false, s = size) => {
    if (l && r && c.measure(l, s, bold) + c.measure(r, s, bold) + 6 > width) pair(l, '', bold, s);
    else if (l && ctx.x && c.measure(l, s, bold) > width) {
      // A held-apart label can be wider than a 58 mm roll: wrapped, the right-hand text on its last line.
      const parts = c.wrap(l, width, s, bold);
      parts.forEach((part, i) => c.text(part, m, y + i * lead(s), { size: s, bold }));
      y += (parts.length - 1) * lead(s);
    } else if (l) c.text(l, m, y, { size: s, bold });
    if (r) c.text(r, right, y, { size: s, bold, align: 'right' });
    y += lead(s);
  };
  const rule = () => {
    if (d.face.mono) c.text('-'.repeat(Math.floor(width / c.measure('-', size))), m, y, { size });
    else c.line(m, y + size * 0.6, right, y + size * 0.6, 0.5);
    y += lead(size);
  };

  const s = t.seller;
  const { big, small } = letterheadName(ctx);
  centre(big, { bold: true, size: size + 2 });
  if (small) centre(small);
  centre(s.street);
  centre(s.cityLine);
  if (rng.chance(0.6)) centre(`${w.phone} ${s.phone}`);
  centre(`${vatLabel(ctx)} ${sellerVatId(ctx)}`);
  y += 6;
  centre(rng.chance(0.6) ? w.receiptTitle : w.invoice, { bold: true, size: size + 1 });
  const time = `${String(rng.int(7, 22)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}`;
  /** "Label value" on one line; a held-apart label too long for the roll gets a line of its own, the value whole below it. */
  const labelled = (label: string, value: string, right: string) => {
    if (ctx.x && c.measure(`${label} ${value}`, size) > width) (pair(label, ''), pair(value, right));
    else pair(`${label} ${value}`, right);
  };
  labelled(lab(ctx, w.invoiceNumber), t.number, rng.chance(0.5) ? `${lab(ctx, w.cashier)} ${rng.int(1, 9)}` : '');
  if (rng.chance(0.5)) pair(`${f.date(t.date)} ${time}`, '');
  else labelled(lab(ctx, w.invoiceDate), f.date(t.date), time);
  rule();

  const codes = t.taxes.map((x) => x.rate);
  const code = (rate: number) => String.fromCharCode(65 + codes.indexOf(rate));
  const twoLines = width < 180 || rng.chance(0.5);
  for (const l of t.lines) {
    const amount = `${f.money(l.amount)} ${code(l.vatRate)}`;
    // A name too long for the amount's line gets lines of its own: a till never cuts the name short.
    const fits = c.wrap(l.description, width - c.measure(amount, size) - 8, size).length === 1;
    if (twoLines || l.quantity !== 1 || !fits) {
      for (const part of c.wrap(l.description, width, size)) (c.text(part, m, y, { size }), (y += lead(size)));
      if (l.isDiscount) y -= lead(size);
      pair(l.isDiscount ? '' : `  ${f.qty(l.quantity)} ${l.unit} x ${f.money(l.unitPrice)}`, amount);
    } else pair(l.description, amount);
  }
  rule();
  pair(w.total, f.money(t.total, true), true, size + 2);
  y += 4;

  const taxName = rng.pick(t.country.taxNames);
  if (rng.chance(0.6)) {
    const table = [
      [taxName, w.taxBase, w.taxAmount, w.gross],
      ...t.taxes.map((x) => [`${code(x.rate)} ${f.pct(x.rate)}`, f.money(x.base), f.money(x.tax), f.money(Math.round((x.base + x.tax) * 100) / 100)]),
    ];
    if (t.taxes.length > 1) table.push([w.total, f.money(t.subtotal), f.money(t.tax), f.money(t.total)]);
    y = drawGrid(ctx, table, m, y, width, [0, t.taxes.length + 1]);
  } else {
    pair(w.subtotal, f.money(t.subtotal));
    for (const x of t.taxes) pair(`${taxName} ${code(x.rate)} ${f.pct(x.rate)}`, f.money(x.tax));
    if (t.taxes.length > 1) pair(w.taxTotal, f.money(t.tax));
  }
  y += 4;
  const card = t.layout === 'card-slip' || rng.chance(0.5);
  if (card) pair(w.paidCard, f.money(t.total, true));
  else {
    const step = t.total < 20 ? 5 : t.total < 100 ? 10 : 50;
    const given = Math.ceil((t.total + 0.01) / step) * step;
    pair(w.paidCash, f.money(given));
    pair(w.change, f.money(Math.round((given - t.total) * 100) / 100));
  }
  y += 6;
  centre(rng.pick(t.locale.phrases.thanks));

  if (t.layout === 'card-slip') {
    y += 8;
    rule();
    const slip = SLIP[t.language];
    const brand = rng.pick([
      'VISA',
      'Mastercard',
      'Maestro',
      'V PAY',
      'American Express',
      t.language === 'de' ? 'girocard' : t.language === 'fr' ? 'CB' : 'Debit Mastercard',
    ]);
    centre(w.cardSlip, { bold: true });
    centre(brand);
    pair(`${slip.terminal} ${rng.chars(8)}`, `${f.date(t.date)} ${time}`);
    pair(`${'*'.repeat(12)}${rng.chars(4)}`, rng.pick(['CONTACTLESS', 'CHIP', 'NFC', '']));
    pair(`Trace ${rng.chars(6)}`, `${slip.auth} ${rng.chars(6)}`);
    pair(slip.amount, `${t.currency.code} ${f.money(t.total)}`, true, size + 1);
    centre(slip.approved, { bold: true });
  }
  return c.finish(y + m + 6);
}
