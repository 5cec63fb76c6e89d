// The other numbers and dates a real invoice prints (issue 48), each labelled where invoices put it: customer,
// order, delivery-note, contract, routing, supplier and project numbers, GLNs, a tax number and the buyer's VAT id
// beside the seller's VAT id, IBAN, BIC and register; order, delivery, service-period and print dates; now and then
// an earlier invoice it refers to (its number and date). A planned invoice prints 5 to 15 such numbers and 2 to 5
// such dates (the earlier invoice aside); items may carry a GTIN row, the footer a copyright line and several
// managing directors. Till receipts are left as they are (their card slip has numbers of its own).

import { addDays, type Day } from './format.ts';
import type { Rng } from './random.ts';
import type { InvoiceTruth } from './truth.ts';
import { OTHER_LABELS, VOCABULARIES, type OtherLabel } from './vocabulary/index.ts';

/** Numbers printed only when planned (the seller's VAT id, bank and register are always printed). */
export const OPTIONAL_NUMBERS = [
  'customerNumber',
  'orderNumber',
  'deliveryNote',
  'contractNumber',
  'buyerReference',
  'supplierNumber',
  'projectNumber',
  'buyerGln',
  'sellerGln',
  'taxNumber',
  'buyerVatId',
] as const;
export type OptionalNumber = (typeof OPTIONAL_NUMBERS)[number];
/** Dates other than the invoice and due dates; a service period is two. */
export type OtherDate = 'orderDate' | 'deliveryDate' | 'servicePeriod' | 'printDate';

export interface DistractorPlan {
  numbers: ReadonlySet<OptionalNumber>;
  dates: ReadonlySet<OtherDate>;
  /** Values of the kinds the issue-14 truth has no value for. */
  contractNumber: string;
  buyerReference: string;
  supplierNumber: string;
  projectNumber: string;
  buyerGln: string;
  sellerGln: string;
  taxNumber: string;
  period: { from: Day; to: Day };
  printDate: Day;
  /** One label per kind for the whole document (corpus/vocabulary, in both label modes). */
  labels: Record<OtherLabel, string>;
  /** The managing directors a footer names (the party's own first). */
  directors: string[];
  /** "© 2024 Nordlicht GmbH. Alle Rechte vorbehalten." at the foot of every page, or none. */
  copyright: string | null;
  /** "Account holder: <seller>" with the bank details. */
  accountHolder: boolean;
  /** "<seller> · <register or address> · <directors>" on a line of its own at the foot of every page. */
  legalLine: boolean;
  /** A GTIN row under each item, or none. */
  gtins: string[] | null;
  /** An earlier invoice this one refers to (EN 16931 BG-3): its number, in the same series, and its date; or none. */
  preceding: { number: string; date: Day } | null;
}

const D = '0123456789';
/** GS1 check digit of 12 digits (GLN, GTIN-13). */
export function gs1(body: string): string {
  const sum = [...body].reduce((s, ch, i) => s + Number(ch) * (i % 2 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
}
/** GS1 prefixes of the countries the corpus prints. */
const GS1_PREFIX: Record<string, string> = {
  DE: '40',
  AT: '90',
  CH: '76',
  FR: '30',
  BE: '54',
  ES: '84',
  IT: '80',
  NL: '87',
  PT: '56',
  GB: '50',
  IE: '53',
  US: '03',
};
const gln = (rng: Rng, country: string) => gs1((GS1_PREFIX[country] ?? '40') + rng.chars(10, D));

/** Seller numbers every invoice prints: VAT id, IBAN and BIC (routing and account numbers in the US), register (not on a data sheet). */
export function baseNumberCount(t: InvoiceTruth): number {
  return 1 + 2 + (t.seller.register && t.layout !== 'data-sheet' ? 1 : 0);
}

export function planDistractors(rng: Rng, t: InvoiceTruth): DistractorPlan {
  const v = VOCABULARIES[t.language];
  const y = t.date.y;
  const target = rng.int(5, 15);
  const formats = v.taxNumber[t.country.code];
  const pool = OPTIONAL_NUMBERS.filter((k) => k !== 'taxNumber' || formats);
  const numbers = new Set(rng.sample(pool, Math.max(0, target - baseNumberCount(t))));
  // 2 to 5 dates: a service period counts two, the other kinds one each.
  const k = rng.int(2, 5);
  const withPeriod = k >= 4 || rng.chance(0.45);
  const dates = new Set<OtherDate>(rng.sample(['orderDate', 'deliveryDate', 'printDate'] as const, k - (withPeriod ? 2 : 0)));
  if (withPeriod) dates.add('servicePeriod');
  const from = addDays(t.date, -rng.int(28, 45));
  const directors = [t.seller.director, ...(rng.chance(0.35) ? [`${rng.pick(t.locale.firstNames)} ${rng.pick(t.locale.lastNames)}`] : [])];
  return {
    numbers,
    dates,
    contractNumber: rng.pick([`CT-${y}-${rng.chars(4, D)}`, `V${rng.int(100000, 999999)}`, `${rng.int(1000, 9999)}/${y % 100}`, `RV-${rng.int(100, 999)}`]),
    buyerReference: rng.pick([
      `${rng.chars(2, D)}${rng.chars(rng.int(1, 7), D)}-${rng.chars(5, D)}-${rng.chars(2, D)}`,
      `0088:${gln(rng, t.buyer.country.code)}`,
      `KST-${rng.int(1000, 9999)}`,
      rng.chars(7, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789'),
    ]),
    supplierNumber: rng.pick([
      `L-${rng.int(10000, 99999)}`,
      `${rng.int(70000, 79999)}`,
      `V${String(rng.int(1, 99999)).padStart(6, '0')}`,
      `K${rng.int(1000, 9999)}`,
    ]),
    projectNumber: rng.pick([`P-${y % 100}-${String(rng.int(1, 999)).padStart(3, '0')}`, `PRJ-${rng.int(1000, 9999)}`, `${y}-${rng.int(10, 99)}`]),
    buyerGln: gln(rng, t.buyer.country.code),
    sellerGln: gln(rng, t.country.code),
    taxNumber: formats ? rng.pick(formats).replace(/#/g, () => rng.chars(1, D)) : '',
    period: { from, to: addDays(from, rng.int(6, 27)) },
    printDate: addDays(t.date, rng.int(1, 6)),
    labels: Object.fromEntries(OTHER_LABELS.map((k) => [k, rng.pick(v.other[k])])) as Record<OtherLabel, string>,
    directors,
    copyright: rng.chance(0.35) ? `© ${y} ${rng.chance(0.5) ? t.seller.brand : t.seller.name}. ${rng.pick(v.rights)}` : null,
    accountHolder: rng.chance(0.3),
    legalLine: false,
    gtins: rng.chance(0.25) ? t.lines.map((l) => (l.isDiscount ? '' : gs1((GS1_PREFIX[t.country.code] ?? '40') + rng.chars(10, D)))) : null,
    preceding: rng.chance(0.2) ? precedingInvoice(rng, t) : null,
  };
}

/** An earlier number of the invoice's own series (its last digits lowered) and a date weeks before; none without digits. */
function precedingInvoice(rng: Rng, t: InvoiceTruth): { number: string; date: Day } | null {
  const number = t.number.replace(/\d+(?=\D*$)/, (d) => String(Math.max(1, Number(d) - rng.int(1, 40))).padStart(d.length, '0'));
  return number === t.number ? null : { number, date: addDays(t.date, -rng.int(20, 70)) };
}

/** What the manifest says a document shows besides its truth, for the eval to name a wrong value. */
export interface DistractorRecord {
  numbers: Record<string, string>;
  dates: Record<string, string>;
  /** Names a vendor could be mistaken for (the buyer, the delivery address, directors, the brand, the bank, a copyright line), addresses and the phone number. */
  names: Record<string, string>;
  /** Amounts a total, net or tax could be mistaken for: items total, prepaid, amount due, each rate's base and tax. */
  amounts: Record<string, number>;
}

export function distractorRecord(
  t: InvoiceTruth,
  plan: DistractorPlan | null,
  printed: { numbers: Record<string, string>; dates: Record<string, string> },
): DistractorRecord {
  const s = t.seller;
  const names: Record<string, string> = {
    buyer: t.buyer.name,
    brand: s.brand,
    bank: s.bank.bank,
    director: (plan?.directors ?? [s.director]).join(', '),
    contact: s.contact,
    sellerAddress: `${s.street} ${s.cityLine}`,
    buyerAddress: `${t.buyer.street} ${t.buyer.cityLine}`,
    phone: s.phone,
  };
  if (t.shipTo) names.shipTo = t.shipTo.name;
  if (plan?.copyright) names.copyright = plan.copyright;
  const amounts: Record<string, number> = { itemsTotal: t.itemsTotal };
  if (t.prepaid > 0) Object.assign(amounts, { prepaid: t.prepaid, amountDue: t.amountDue });
  for (const a of t.adjustments) amounts[a.kind] = a.amount;
  if (t.taxes.length > 1) for (const x of t.taxes) Object.assign(amounts, { [`base ${x.rate}`]: x.base, [`tax ${x.rate}`]: x.tax });
  return { numbers: printed.numbers, dates: printed.dates, names, amounts };
}
