// What a wrong value was (issue 48): another number, date, name or amount the document prints, as its manifest says
// (`distractors`), another field's value, or nothing. Counted per field, these say what the engine confuses.

import type { Entry } from './run.ts';
import { normName, type HeaderField } from './score.ts';

const compact = (s: string) => normName(s).replace(/ /g, '');
const sameAmount = (a: number, b: number) => Math.abs(a - b) < 0.005;

/** The first key whose value matches. */
const find = <T>(values: Record<string, T> | undefined, match: (v: T) => boolean) => Object.entries(values ?? {}).find(([, v]) => match(v))?.[0];

function wrongNumber(got: string, e: Entry): string {
  const g = compact(got);
  const expected = compact(String(e.expected.invoiceNumber ?? ''));
  const kind = find(e.distractors?.numbers, (v) => compact(v) === g);
  if (kind) return kind.startsWith('gtin') ? 'gtin' : kind;
  if (expected && g.includes(expected)) return 'number with more';
  if (expected && expected.includes(g)) return 'part of the number';
  if (find(e.distractors?.numbers, (v) => compact(v).includes(g))) return 'part of another number';
  if (find(e.distractors?.names, (v) => compact(v).includes(g))) return 'part of an address or phone';
  if (/^[A-Z]{3} |[€$£]/.test(got)) return 'an amount';
  if (e.expected.lineItems?.some((l) => String(l.quantity) === got)) return 'a quantity';
  if (/^\d{1,3}$/.test(got)) return 'a 1-3 digit number';
  return 'other';
}

function wrongDate(field: HeaderField, got: string, e: Entry): string {
  const other = field === 'invoiceDate' ? 'dueDate' : 'invoiceDate';
  if (got === e.expected[other]) return other;
  const kind = find(e.distractors?.dates, (v) => v === got);
  if (kind) return kind;
  const exp = String(e.expected[field] ?? '');
  const [y, m, d] = exp.split('-');
  if (exp && got === `${y}-${d}-${m}`) return 'day and month swapped';
  // A due date from payment terms ("within 30 days"), counted from another date taken for the invoice date.
  const { invoiceDate, dueDate } = e.expected;
  if (field === 'dueDate' && typeof invoiceDate === 'string' && typeof dueDate === 'string') {
    const terms = days(dueDate) - days(invoiceDate);
    const from = find(e.distractors?.dates, (v) => days(v) + terms === days(got));
    if (from) return `terms counted from ${from}`;
  }
  return e.expected[field] === null ? 'a date where none is due' : 'other';
}

const days = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

function wrongName(got: string, e: Entry): string {
  const g = normName(got);
  const expected = normName(String(e.expected.vendorName ?? ''));
  const kind = find(e.distractors?.names, (v) => normName(v) === g);
  if (kind) return kind;
  if (expected && g.endsWith(expected) && g !== expected) return 'a label kept before the name';
  if (expected && g.includes(expected)) return 'name with more words';
  if (expected && expected.includes(g)) return 'part of the name';
  if (find(e.distractors?.names, (v) => normName(v).includes(g) || g.includes(normName(v)))) return 'part of another name';
  return 'other';
}

function wrongAmount(field: HeaderField, got: number, e: Entry): string {
  const other = (['subtotal', 'tax', 'total'] as const).find((f) => {
    const v = e.expected[f];
    return f !== field && typeof v === 'number' && sameAmount(v, got);
  });
  if (other) return other;
  const kind = find(e.distractors?.amounts, (v) => sameAmount(v, got));
  if (kind) return kind;
  // The items total with one adjustment left out, or a line's amount.
  const { itemsTotal, allowance, charge } = e.distractors?.amounts ?? {};
  if (itemsTotal !== undefined && [allowance, charge].some((x) => x !== undefined && (sameAmount(itemsTotal - x, got) || sameAmount(itemsTotal + x, got))))
    return 'items total with some adjustments';
  if (e.expected.lineItems?.some((l) => sameAmount(l.amount, got))) return 'a line amount';
  // A net derived from a lower total: the real net or the items total taken for the total, less the tax.
  const { subtotal, tax } = e.expected;
  if (field === 'subtotal' && typeof tax === 'number' && [subtotal, itemsTotal].some((x) => typeof x === 'number' && sameAmount(x - tax, got)))
    return 'a lower amount less the tax';
  return 'other';
}

/** What a wrong value of `field` was; `got` is what the engine returned. */
export function mistakeOf(field: HeaderField, got: unknown, e: Entry): string {
  if (got === null || got === undefined || got === '') return 'nothing';
  if (field === 'invoiceNumber') return wrongNumber(String(got), e);
  if (field === 'invoiceDate' || field === 'dueDate') return wrongDate(field, String(got), e);
  if (field === 'vendorName') return wrongName(String(got), e);
  if (typeof got === 'number') return wrongAmount(field, got, e);
  return 'other';
}
