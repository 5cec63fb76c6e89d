// What `npm run train` fits: per field, the candidates of a document with their feature rows, which of them hold the
// right value, the rules' answer, and the engine's answer with a set of fitted models (the same decision the engine
// makes: an argmax for the number and dates, the joint net/tax/total choice for the amounts).
import { normName } from '../../eval/extraction/score.ts';
import { readDoc, type InvoiceDoc } from '../../src/extraction/fields/doc.ts';
import { extractLineItems } from '../../src/extraction/fields/line-items.ts';
import { addDays, paymentTermDays } from '../../src/extraction/fields/payment-terms.ts';
import { AMOUNT_FEATURES, amountFeatures } from '../../src/extraction/fields/scoring/amount-features.ts';
import { chooseAmounts } from '../../src/extraction/fields/scoring/choose-amounts.ts';
import { chooseVendor } from '../../src/extraction/fields/scoring/choose-vendor.ts';
import { DATE_FEATURES, dateFeatures } from '../../src/extraction/fields/scoring/date-features.ts';
import { rank, type RankingModel } from '../../src/extraction/fields/scoring/model.ts';
import { NUMBER_FEATURES, numberFeatures } from '../../src/extraction/fields/scoring/number-features.ts';
import { VENDOR_FEATURES, vendorFeatures } from '../../src/extraction/fields/scoring/vendor-features.ts';
import { pickSeller } from '../../src/extraction/fields/seller.ts';
import { splitInvoicePages } from '../../src/extraction/fields/split.ts';
import { chooseTotals } from '../../src/extraction/fields/totals.ts';
import type { TrainingDoc } from './corpus-pages.ts';

export type Field = 'vendorName' | 'invoiceNumber' | 'invoiceDate' | 'dueDate' | 'subtotal' | 'tax' | 'total';
export type Models = Partial<Record<Field, RankingModel>>;

export interface Read {
  values: string[];
  rows: number[][];
  /** The rules' answer. */
  ruled: string | null;
  /** The engine's answer with these models. */
  decide(models: Models): string | null;
  /** Whether the engine falls back to a value printed nowhere when the model answers none (a due date from terms). */
  fallback: boolean;
}

export interface Task {
  field: Field;
  features: string[];
  read(doc: TrainingDoc): Read;
  same(a: string, b: string): boolean;
}

const firstInvoice = (doc: TrainingDoc): InvoiceDoc => readDoc(splitInvoicePages(doc.pages)[0] ?? doc.pages);

/** The index of the highest probability, when it beats none. */
function argmax(model: RankingModel | undefined, rows: number[][]): number {
  if (!model) return -1;
  const { p, none } = rank(model, rows);
  const i = p.reduce((bi, v, k) => (v > (p[bi] ?? -1) ? k : bi), -1);
  return i >= 0 && p[i]! > none ? i : -1;
}

function readVendor(doc: TrainingDoc): Read {
  const d = firstInvoice(doc);
  const { cands, rows } = vendorFeatures(d);
  return {
    values: cands.map((c) => c.name),
    rows,
    ruled: pickSeller(d).name,
    fallback: false,
    decide: (m) => (m.vendorName ? chooseVendor(d, m.vendorName).name : null),
  };
}

function readNumber(doc: TrainingDoc): Read {
  const { cands, rows, ruled } = numberFeatures(firstInvoice(doc));
  const values = cands.map((c) => c.value);
  return { values, rows, ruled: ruled[0]?.value ?? null, fallback: false, decide: (m) => values[argmax(m.invoiceNumber, rows)] ?? null };
}

function readDates(doc: TrainingDoc, field: 'invoiceDate' | 'dueDate'): Read {
  const d = firstInvoice(doc);
  const { cands, rows, rules } = dateFeatures(d);
  const terms = !rules.due && rules.invoice ? paymentTermDays(d) : null;
  const termDue = terms && rules.invoice ? addDays(rules.invoice.value, terms.days) : null;
  const values = cands.map((c) => c.value);
  if (field === 'invoiceDate')
    return { values, rows, ruled: rules.invoice?.value ?? null, fallback: false, decide: (m) => values[argmax(m.invoiceDate, rows)] ?? null };
  return { values, rows, ruled: rules.due?.value ?? termDue, fallback: true, decide: (m) => values[argmax(m.dueDate, rows)] ?? termDue };
}

function readAmounts(doc: TrainingDoc, field: 'subtotal' | 'tax' | 'total'): Read {
  const d = firstInvoice(doc);
  const items = extractLineItems(d);
  const totals = items.map((l) => l.total).filter((t): t is number => t !== null);
  const lineSum = totals.length ? Math.round(totals.reduce((a, b) => a + b, 0) * 100) / 100 : null;
  const ruled = chooseTotals(d, lineSum);
  const { cands, rows } = amountFeatures(d, ruled, items);
  const money = (v: number | undefined) => (v === undefined ? null : v.toFixed(2));
  return {
    values: cands.map((c) => c.value.toFixed(2)),
    rows,
    ruled: money(ruled[field]?.value),
    // A tax printed per rate only, a net not printed: none, and the set is completed by arithmetic.
    fallback: true,
    decide: (m) => (m.subtotal && m.tax && m.total ? money(chooseAmounts(d, ruled, items, lineSum, m as never)[field]?.value) : null),
  };
}

const sameAmount = (a: string, b: string) => Math.abs(Number(a) - Number(b)) < 0.005;

export const TASKS: Task[] = [
  { field: 'vendorName', features: VENDOR_FEATURES, read: readVendor, same: (a, b) => normName(a) === normName(b) },
  { field: 'invoiceNumber', features: NUMBER_FEATURES, read: readNumber, same: (a, b) => normName(a) === normName(b) },
  { field: 'invoiceDate', features: DATE_FEATURES, read: (doc) => readDates(doc, 'invoiceDate'), same: (a, b) => a === b },
  { field: 'dueDate', features: DATE_FEATURES, read: (doc) => readDates(doc, 'dueDate'), same: (a, b) => a === b },
  { field: 'subtotal', features: AMOUNT_FEATURES, read: (doc) => readAmounts(doc, 'subtotal'), same: sameAmount },
  { field: 'tax', features: AMOUNT_FEATURES, read: (doc) => readAmounts(doc, 'tax'), same: sameAmount },
  { field: 'total', features: AMOUNT_FEATURES, read: (doc) => readAmounts(doc, 'total'), same: sameAmount },
];

export function expectedOf(doc: TrainingDoc, field: Field): string | null {
  const v = doc.entry.expected[field];
  if (v === undefined || v === null) return null;
  return typeof v === 'number' ? v.toFixed(2) : String(v);
}
