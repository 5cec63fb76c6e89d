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
  return e.expected[field] === null ? 'a date where none is due' : 'other';
}

function wrongName(got: string, e: Entry): string {
  const g = normName(got);
  const expected = normName(String(e.expected.vendorName ?? ''));
  const kind = find(e.distractors?.names, (v) => normName(v) === g);
  if (kind) return kind;
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
  return find(e.distractors?.amounts, (v) => sameAmount(v, got)) ?? 'other';
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
