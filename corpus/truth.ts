// The ground truth of one invoice: parties, identifiers, dates, line items and totals, arithmetically consistent
// in cents (Σ lines − allowances + charges = subtotal per VAT rate; subtotal + taxes = total; total − prepaid =
// amount due), plus the conventions it is printed with. Nothing here depends on fonts or page geometry.

import { addDays, formatDate, isoDay, NUMBER_STYLES, type DateStyle, type Day, type MoneyStyle } from './format.ts';
import { NARROW, type LayoutFamily } from './layouts.ts';
import type { Country, Language, Locale, Product } from './locales/types.ts';
import { makeParty, type Party } from './parties.ts';
import type { Rng } from './random.ts';

export interface LineTruth {
  description: string;
  /** Further lines of a long description (part of the ground-truth description). */
  details: string[];
  sku: string;
  quantity: number;
  unit: string;
  /** Before the line discount. */
  unitPrice: number;
  /** Fraction, 0 when none. */
  discount: number;
  amount: number;
  vatRate: number;
  /** A discount printed as a line of its own: no quantity or unit price. */
  isDiscount: boolean;
}
export interface Adjustment {
  kind: 'allowance' | 'charge';
  /** Positive; an allowance is subtracted. */
  amount: number;
  /** Fraction of the items total it was computed from, or null for a fixed amount. */
  percent: number | null;
  vatRate: number;
}
export interface TaxLine {
  rate: number;
  base: number;
  tax: number;
}
export type DueTerms = { kind: 'date'; date: Day } | { kind: 'days'; days: number; date: Day } | { kind: 'none' };

export interface InvoiceTruth {
  language: Language;
  layout: LayoutFamily;
  locale: Locale;
  country: Country;
  seller: Party;
  buyer: Party;
  shipTo: Party | null;
  number: string;
  date: Day;
  due: DueTerms;
  orderNumber: string;
  customerNumber: string;
  orderDate: Day;
  deliveryDate: Day;
  deliveryNote: string;
  currency: { code: string; symbol: string };
  money: MoneyStyle;
  dateStyle: DateStyle;
  lines: LineTruth[];
  adjustments: Adjustment[];
  taxes: TaxLine[];
  itemsTotal: number;
  subtotal: number;
  tax: number;
  total: number;
  prepaid: number;
  amountDue: number;
  reverseCharge: boolean;
  /** Paid at the counter (till receipts): no due date. */
  paid: boolean;
}

const c2 = (cents: number) => cents / 100;
const pad = (n: number, w: number) => String(n).padStart(w, '0');

function invoiceNumber(rng: Rng, d: Day, narrow: boolean): string {
  const n = rng.int(1, 9999);
  if (narrow) return rng.pick([`${rng.int(1000, 99999)}`, `${rng.int(1, 9)}/${pad(rng.int(1, 99999), 5)}`, `FS ${d.y}/${n}`, `T${pad(n, 6)}`]);
  return rng.pick([
    `${d.y}-${pad(n % 1000, 3)}`,
    `RE-${d.y}-${pad(n, 5)}`,
    `INV-${rng.int(10000, 99999)}`,
    `F${d.y}${pad(n, 4)}`,
    `${n}/${d.y}`,
    `FA ${d.y}/${pad(n, 4)}`,
    `A-${pad(n % 1000, 3)}`,
    `${d.y}${pad(d.m, 2)}${pad(n % 1000, 3)}`,
    `${rng.int(10_000_000, 99_999_999)}`,
    `${d.y % 100}-${pad(n, 4)}`,
    `FT ${d.y}/${n}`,
    `${rng.chars(2, 'ABCDEFGHKLMNPRSTVW')}${rng.int(100000, 999999)}`,
  ]);
}

function quantity(rng: Rng, p: Product): number {
  switch (p.unit) {
    case 'kg':
      return rng.chance(0.3) ? rng.int(500, 25000) / 1000 : rng.int(5, 250) / 10;
    case 'litre':
      return rng.chance(0.3) ? rng.int(2, 80) / 2 : rng.int(1, 40);
    case 'hour':
      return rng.int(1, 32) / (rng.chance(0.5) ? 4 : 2);
    case 'flat':
      return 1;
    case 'month':
      return rng.pick([1, 1, 1, 3, 12]);
    case 'day':
      return rng.int(1, 5);
    case 'metre':
      return rng.int(1, 60);
    default:
      return p.price[1] < 10 ? rng.int(2, 120) : rng.int(1, 24);
  }
}

/** What one buys at a counter: a few pieces, some grams. */
function till(rng: Rng, p: Product): number {
  if (p.unit === 'kg') return rng.int(150, 2500) / 1000;
  if (p.unit === 'litre') return rng.int(1, 6);
  return rng.chance(0.6) ? 1 : rng.int(2, 4);
}

/** Unit prices look like prices: .00, .50, .90, .95, .99 endings more often than not. */
function unitPriceCents(rng: Rng, p: Product, factor: number, decimals: 2 | 3): number {
  const raw = (p.price[0] + rng.next() * (p.price[1] - p.price[0])) * factor;
  if (decimals === 3) return Math.round(raw * 1000) / 10; // tenths of a cent
  const whole = Math.floor(raw);
  return whole * 100 + (rng.chance(0.55) ? rng.pick([0, 50, 90, 95, 99]) : rng.int(0, 99));
}

const CURRENCY_FACTOR: Record<string, number> = { EUR: 1, USD: 1.1, GBP: 0.86, CHF: 0.95 };

export interface TruthOptions {
  language: Language;
  layout: LayoutFamily;
  locale: Locale;
}

export function makeTruth(rng: Rng, o: TruthOptions): InvoiceTruth {
  const { locale, layout } = o;
  const narrow = NARROW.has(layout);
  const country = rng.weighted(locale.countries.map((c) => [c, c.weight ?? 1] as const));
  const seller = makeParty(rng, locale, country, 'seller');
  const buyer = makeParty(rng, locale, rng.chance(0.9) ? country : rng.pick(locale.countries), 'buyer');
  const date: Day = { y: rng.int(2019, 2026), m: rng.int(1, 12), d: rng.int(1, 28) };
  const currency = country.currency;
  const numberStyle = NUMBER_STYLES[rng.pick(country.numberStyles)];
  const money: MoneyStyle = {
    number: numberStyle,
    negative: layout === 'discounts' && numberStyle.decimal === ',' && rng.chance(0.5) ? 'trailing' : rng.pick(country.negativeStyles),
    currency: rng.chance(0.5) ? currency.symbol : currency.code,
    currencyBefore: currency.code === 'USD' || currency.code === 'GBP' || currency.code === 'CHF' ? true : rng.chance(0.3),
    currencySpace: rng.chance(0.7),
    currencyInTable: rng.chance(0.25),
    unitDecimals: rng.chance(0.06) ? 3 : 2,
  };
  if (money.currency === '$' || money.currency === '£') money.currencySpace = false;
  if (/^[A-Z]{3}$/.test(money.currency)) money.currencySpace = true;
  const dateStyle = rng.pick(country.dateStyles);

  // Line items: a supplier sells from one or two domains; VAT follows the goods (food at the reduced rate).
  const standard = country.vatRates[0]!;
  const reduced = country.code === 'GB' || country.code === 'IE' ? 0 : (country.vatRates[1] ?? standard);
  const multiVat = layout === 'multi-vat' || (country.code !== 'US' && rng.chance(0.12));
  const count =
    layout === 'multi-page' ? rng.int(38, 85) : layout === 'long-descriptions' ? rng.int(3, 9) : narrow ? rng.int(2, 12) : rng.int(1, rng.chance(0.3) ? 14 : 7);
  // A seller trades in one or two domains (a multi-VAT seller in food and something else); a shop's till sells cheap goods.
  const food = locale.products.filter((p) => p.domain === 'food');
  const domains = [...new Set(locale.products.map((p) => p.domain))];
  const chosen = new Set(multiVat ? ['food', rng.pick(domains.filter((x) => x !== 'food'))] : rng.sample(domains, rng.int(1, 2)));
  if (multiVat && rng.chance(0.4)) chosen.add('drinks');
  let pool = locale.products.filter((p) => chosen.has(p.domain) && (!narrow || p.price[1] <= 60));
  if (pool.length < 3) pool = locale.products.filter((p) => !narrow || p.price[1] <= 60);
  const onlyFood = pool.every((p) => p.domain === 'food' || p.domain === 'drinks');
  const rateOf = (p: Product): number => {
    if (country.code === 'US') return standard;
    if (!multiVat) return onlyFood && chosen.has('food') ? reduced : standard;
    if (p.domain === 'food') return reduced;
    if (p.domain === 'drinks' && country.vatRates[2] !== undefined && layout === 'multi-vat') return country.vatRates[2];
    return standard;
  };
  const factor = CURRENCY_FACTOR[currency.code] ?? 1;
  const detailChance = layout === 'long-descriptions' ? 0.85 : narrow ? 0 : 0.05;
  // A till prints what the line costs; a line discount it would print as a line of its own, so none here.
  const discountChance = narrow ? 0 : layout === 'discounts' ? 0.5 : 0.04;
  const lines: LineTruth[] = [];
  // Only a long invoice lists a product twice (another delivery), at the same price and unit.
  const n = layout === 'multi-page' ? count : Math.min(count, pool.length);
  let products = rng.sample(pool, n);
  while (products.length < n) products = products.concat(rng.sample(pool, n - products.length));
  const priced = new Map<string, { cents: number; unit: string; sku: string }>();
  if (multiVat && !products.some((p) => rateOf(p) !== rateOf(products[0]!))) {
    const other = locale.products.filter((p) => rateOf(p) !== reduced && (!narrow || p.price[1] <= 60));
    products[0] = rng.pick(rateOf(products[0]!) === reduced ? other : food);
  }
  for (const p of products) {
    const qty = narrow ? till(rng, p) : quantity(rng, p);
    const known = priced.get(p.name) ?? { cents: unitPriceCents(rng, p, factor, money.unitDecimals), unit: rng.pick(locale.units[p.unit]), sku: sku(rng) };
    priced.set(p.name, known);
    const priceCents = known.cents;
    const discount = rng.chance(discountChance) ? rng.pick([0.02, 0.03, 0.05, 0.1, 0.15, 0.2]) : 0;
    const amountCents = Math.round(qty * priceCents * (1 - discount));
    const details = rng.chance(detailChance)
      ? rng.sample(locale.details, rng.int(1, 3)).map((d) => fillDetail(rng, d, date, (x) => formatDate(x, dateStyle, locale.dates, country.monthFirst)))
      : [];
    lines.push({
      description: p.name,
      details,
      sku: known.sku,
      quantity: qty,
      unit: known.unit,
      unitPrice: priceCents / 100,
      discount,
      amount: c2(amountCents),
      vatRate: rateOf(p),
      isDiscount: false,
    });
  }
  if (layout === 'discounts' && rng.chance(0.35)) {
    // A discount printed as a line of its own (a negative amount).
    const base = Math.round(lines.reduce((s, l) => s + l.amount * 100, 0));
    const cut = Math.max(100, Math.round(base * rng.pick([0.02, 0.03, 0.05])));
    lines.push({
      description: rng.pick(locale.labels.allowance),
      details: [],
      sku: '',
      quantity: 1,
      unit: '',
      unitPrice: -cut / 100,
      discount: 0,
      amount: -cut / 100,
      vatRate: lines[0]!.vatRate,
      isDiscount: true,
    });
  }

  const reverseCharge = !narrow && !multiVat && country.code !== 'US' && country.code !== 'CH' && rng.chance(0.04);
  if (reverseCharge) for (const l of lines) l.vatRate = 0;
  const itemsCents = lines.reduce((s, l) => s + Math.round(l.amount * 100), 0);
  const adjustments: Adjustment[] = [];
  if (!narrow && rng.chance(layout === 'discounts' ? 0.7 : 0.08)) {
    const percent = rng.chance(0.7) ? rng.pick([0.02, 0.03, 0.05, 0.1]) : null;
    const rate = lines[0]!.vatRate;
    const groupCents = lines.filter((l) => l.vatRate === rate).reduce((s, l) => s + Math.round(l.amount * 100), 0);
    const cents = percent ? Math.round(groupCents * percent) : Math.min(Math.round(groupCents * 0.1), rng.int(5, 50) * 100);
    if (cents > 0) adjustments.push({ kind: 'allowance', amount: c2(cents), percent, vatRate: rate });
  }
  if (!narrow && rng.chance(layout === 'discounts' ? 0.6 : 0.18)) {
    const rate = reverseCharge ? 0 : standard;
    adjustments.push({ kind: 'charge', amount: c2(rng.int(4, 60) * 100 + rng.pick([0, 50, 90, 95])), percent: null, vatRate: rate });
  }

  const rates = [...new Set([...lines.map((l) => l.vatRate), ...adjustments.map((a) => a.vatRate)])].sort((a, b) => b - a);
  const taxes: TaxLine[] = rates.map((rate) => {
    const base =
      lines.filter((l) => l.vatRate === rate).reduce((s, l) => s + Math.round(l.amount * 100), 0) +
      adjustments.filter((a) => a.vatRate === rate).reduce((s, a) => s + (a.kind === 'charge' ? 1 : -1) * Math.round(a.amount * 100), 0);
    return { rate, base: c2(base), tax: c2(Math.round(base * rate)) };
  });
  const subtotalCents = taxes.reduce((s, t) => s + Math.round(t.base * 100), 0);
  const taxCents = taxes.reduce((s, t) => s + Math.round(t.tax * 100), 0);
  const totalCents = subtotalCents + taxCents;
  const prepaidCents =
    !narrow && totalCents > 5000 && rng.chance(layout === 'discounts' ? 0.4 : 0.07) ? Math.floor((totalCents * rng.pick([0.2, 0.3, 0.5])) / 1000) * 1000 : 0;

  const due: DueTerms = narrow
    ? { kind: 'none' }
    : rng.weighted<DueTerms['kind']>([
          ['date', 0.6],
          ['days', 0.27],
          ['none', 0.13],
        ]) === 'date'
      ? { kind: 'date', date: addDays(date, rng.pick([7, 10, 14, 14, 21, 30, 30, 45, 60])) }
      : rng.chance(0.67)
        ? ((n) => ({ kind: 'days' as const, days: n, date: addDays(date, n) }))(rng.pick([8, 10, 14, 20, 30, 30, 45, 60]))
        : { kind: 'none' };
  const orderDate = addDays(date, -rng.int(2, 20));
  return {
    language: o.language,
    layout,
    locale,
    country,
    seller,
    buyer,
    shipTo:
      !narrow && rng.chance(0.2)
        ? { ...buyer, street: country.street(rng, rng.pick(locale.streets)), contact: `${rng.pick(locale.firstNames)} ${rng.pick(locale.lastNames)}` }
        : null,
    number: invoiceNumber(rng, date, narrow),
    date,
    due,
    orderNumber: rng.pick([
      `PO-${rng.int(10000, 99999)}`,
      `45${rng.int(10_000_000, 99_999_999)}`,
      `${rng.int(100, 9999)}/${date.y % 100}`,
      `B${rng.int(100000, 999999)}`,
    ]),
    customerNumber: rng.pick([
      `${rng.int(10000, 99999)}`,
      `KD-${rng.int(1000, 9999)}`,
      `C${pad(rng.int(1, 9999), 5)}`,
      `${rng.int(100, 999)}-${rng.int(100, 999)}`,
    ]),
    orderDate,
    deliveryDate: addDays(date, -rng.int(0, 5)),
    deliveryNote: `${rng.pick(['LS', 'DN', 'BL', 'ALB', 'DDT', 'GR'])}-${rng.int(10000, 99999)}`,
    currency,
    money,
    dateStyle,
    lines,
    adjustments,
    taxes,
    itemsTotal: c2(itemsCents),
    subtotal: c2(subtotalCents),
    tax: c2(taxCents),
    total: c2(totalCents),
    prepaid: c2(prepaidCents),
    amountDue: c2(totalCents - prepaidCents),
    reverseCharge,
    paid: narrow,
  };
}

function sku(rng: Rng): string {
  return rng.pick([
    `${rng.int(10000, 99999)}`,
    `ART-${rng.int(1000, 9999)}`,
    `${rng.chars(1, 'ABCDEFGHK')}-${rng.int(100, 999)}-${rng.int(10, 99)}`,
    `40${rng.chars(11)}`,
    `${rng.int(10, 99)}.${rng.int(100, 999)}`,
  ]);
}

function fillDetail(rng: Rng, s: string, date: Day, fmt: (d: Day) => string): string {
  const d1 = addDays(date, -rng.int(20, 40));
  return s
    .replace('{n}', String(rng.int(1000, 99999)))
    .replace('{date2}', fmt(addDays(d1, 29)))
    .replace('{date}', fmt(d1));
}

/** The manifest entry's `expected`, in the dev set's format (a `dueDate` of null: the document states none). */
export function expectedOf(t: InvoiceTruth) {
  return {
    vendorName: t.seller.name,
    invoiceNumber: t.number,
    invoiceDate: isoDay(t.date),
    dueDate: t.due.kind === 'none' ? null : isoDay(t.due.date),
    subtotal: t.subtotal,
    tax: t.tax,
    total: t.total,
    currency: t.currency.code,
    lineItems: t.lines.map((l) => ({
      description: [l.description, ...l.details].join(' '),
      ...(l.isDiscount ? {} : { quantity: l.quantity, unitPrice: l.unitPrice }),
      amount: l.amount,
    })),
  };
}
