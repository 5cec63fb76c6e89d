// Prints the distractor plan (corpus/distractors.ts) and records what the renderers print: the manifest's
// `distractors` names every other number and date a document shows, so the eval can say what a wrong value was.

import type { OptionalNumber, OtherDate } from '../distractors.ts';
import { isoDay, type Day } from '../format.ts';
import { lab, type Ctx } from './context.ts';

/** The other numbers and dates a document printed, by kind (dates as ISO days). */
export interface Printed {
  numbers: Record<string, string>;
  dates: Record<string, string>;
}

export const shownNumber = (ctx: Ctx, kind: string, value: string) => ((ctx.printed.numbers[kind] = value), value);
export const shownDate = (ctx: Ctx, kind: string, day: Day) => ((ctx.printed.dates[kind] = isoDay(day)), ctx.f.date(day));

/**
 * An issue-14 draw ("print the customer number 60% of the time"), made in every mode so the main stream stays
 * aligned; when the document has a distractor plan, the plan decides.
 */
export function planned(ctx: Ctx, p: number, kind: OptionalNumber | OtherDate): boolean {
  const drawn = ctx.rng.chance(p);
  const plan = ctx.x?.plan;
  if (!plan) return drawn;
  return (plan.numbers as ReadonlySet<string>).has(kind) || (plan.dates as ReadonlySet<string>).has(kind);
}

/** Invoice-data pairs of the kinds the issue-14 corpus never printed: contract, routing, supplier and project numbers, a service period, a print date, a preceding invoice. */
export function newPairs(ctx: Ctx): Array<[string, string]> {
  const plan = ctx.x?.plan;
  if (!plan) return [];
  const out: Array<[string, string]> = [];
  for (const k of ['contractNumber', 'buyerReference', 'supplierNumber', 'projectNumber'] as const)
    if (plan.numbers.has(k)) out.push([plan.labels[k], shownNumber(ctx, k, plan[k])]);
  if (plan.dates.has('servicePeriod')) {
    const { from, to } = plan.period;
    out.push([plan.labels.servicePeriod, `${shownDate(ctx, 'periodStart', from)} ${ctx.x!.rng.pick(['–', '-', '–'])} ${shownDate(ctx, 'periodEnd', to)}`]);
  }
  if (plan.dates.has('printDate')) out.push([plan.labels.printDate, shownDate(ctx, 'printDate', plan.printDate)]);
  if (plan.preceding) {
    out.push([plan.labels.precedingInvoice, shownNumber(ctx, 'precedingInvoice', plan.preceding.number)]);
    out.push([plan.labels.precedingInvoiceDate, shownDate(ctx, 'precedingInvoiceDate', plan.preceding.date)]);
  }
  return out;
}

/** The buyer's GLN line under its address, when planned. */
export function buyerNumberLines(ctx: Ctx): string[] {
  const plan = ctx.x?.plan;
  return plan?.numbers.has('buyerGln') ? [`${plan.labels.gln} ${shownNumber(ctx, 'buyerGln', plan.buyerGln)}`] : [];
}

/** The seller's tax number and GLN lines (footer, payment block), when planned. */
export function sellerNumberLines(ctx: Ctx): string[] {
  const plan = ctx.x?.plan;
  if (!plan) return [];
  return [
    ...(plan.numbers.has('taxNumber') ? [`${lab(ctx, plan.labels.taxNumber)} ${shownNumber(ctx, 'taxNumber', plan.taxNumber)}`] : []),
    ...(plan.numbers.has('sellerGln') ? [`${plan.labels.gln} ${shownNumber(ctx, 'sellerGln', plan.sellerGln)}`] : []),
  ];
}

/** The seller's VAT id as printed, recorded. */
export const sellerVatId = (ctx: Ctx) => shownNumber(ctx, 'sellerVatId', ctx.t.seller.vatId);

/** Bank details as lines: label, bank, IBAN, BIC (US: routing and account numbers), and the account holder when planned. */
export function bankLines(ctx: Ctx): string[] {
  const b = ctx.t.seller.bank;
  recordBank(ctx);
  const plan = ctx.x?.plan;
  return [
    lab(ctx, ctx.w.bank),
    b.bank,
    b.bic ? `IBAN ${b.iban}` : b.iban,
    ...(b.bic ? [`BIC ${b.bic}`] : []),
    ...(plan?.accountHolder ? [`${lab(ctx, plan.labels.accountHolder)} ${ctx.t.seller.name}`] : []),
  ];
}

export function recordBank(ctx: Ctx): void {
  const b = ctx.t.seller.bank;
  if (b.bic) (shownNumber(ctx, 'iban', b.iban), shownNumber(ctx, 'bic', b.bic));
  else for (const m of b.iban.matchAll(/(Routing|Account) (\d+)/g)) shownNumber(ctx, m[1] === 'Routing' ? 'routingNumber' : 'accountNumber', m[2]!);
}

/** A GTIN row under item i, when the document prints them. */
export function gtinRows(ctx: Ctx, i: number): string[] {
  const plan = ctx.x?.plan;
  const g = plan?.gtins?.[i];
  return g ? [`${plan.labels.gtin} ${shownNumber(ctx, `gtin${i + 1}`, g)}`] : [];
}
