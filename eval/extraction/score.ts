// Scoring rules of the extraction eval: one field against its label, line items against the labelled lines.
// Names: case, accents, spaces and punctuation ignored; dates exactly (ISO); amounts to the cent; an expected
// null (the generated corpus: "the document states none") is right only when nothing was extracted.

import type { ExtractedLineItem } from '../../src/extraction/types.ts';

export const HEADER_FIELDS = ['vendorName', 'invoiceNumber', 'invoiceDate', 'dueDate', 'subtotal', 'tax', 'total', 'currency'] as const;
export type HeaderField = (typeof HEADER_FIELDS)[number];

export interface ExpectedLine {
  description: string;
  quantity?: number;
  unitPrice?: number;
  amount: number;
}
export type Expected = Partial<Record<HeaderField, string | number | null>> & { lineItems?: ExpectedLine[] };

// ß is written SS in capitals ("GROSSHANDEL" is "Großhandel"), so case-blind comparison folds it.
export const normName = (s: string) =>
  s
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const tokens = (s: string) => new Set(normName(s).split(' ').filter(Boolean));
const sameAmount = (a: number, b: number) => Math.abs(a - b) < 0.005;

export function fieldMatches(field: string, expected: unknown, got: unknown): boolean {
  if (expected === null) return got === null || got === undefined;
  if (got === null || got === undefined) return false;
  if (typeof expected === 'number') return typeof got === 'number' && sameAmount(got, expected);
  if (field.endsWith('Date')) return got === expected;
  return normName(String(got)) === normName(String(expected));
}

export interface LineScore {
  expected: number;
  extracted: number;
  matched: number;
  /** Matched lines whose labelled quantity / unit price was extracted right, of those labelled. */
  quantityRight: number;
  quantityLabelled: number;
  unitPriceRight: number;
  unitPriceLabelled: number;
}

/**
 * Expected lines matched one-to-one to extracted lines: the same amount to the cent and at least half of the
 * expected description's words.
 */
export function scoreLines(expected: ExpectedLine[], got: ExtractedLineItem[]): LineScore {
  const free = [...got];
  const s: LineScore = {
    expected: expected.length,
    extracted: got.length,
    matched: 0,
    quantityRight: 0,
    quantityLabelled: 0,
    unitPriceRight: 0,
    unitPriceLabelled: 0,
  };
  for (const e of expected) {
    const et = tokens(e.description);
    const k = free.findIndex((g) => {
      if (g.total === null || !sameAmount(g.total, e.amount)) return false;
      const gt = tokens(g.description ?? '');
      const shared = [...et].filter((t) => gt.has(t)).length;
      return et.size === 0 || shared / et.size >= 0.5;
    });
    if (k < 0) continue;
    const g = free.splice(k, 1)[0]!;
    s.matched++;
    if (e.quantity !== undefined) (s.quantityLabelled++, g.quantity !== null && Math.abs(g.quantity - e.quantity) < 0.0005 && s.quantityRight++);
    if (e.unitPrice !== undefined) (s.unitPriceLabelled++, g.unitPrice !== null && Math.abs(g.unitPrice - e.unitPrice) < 0.0005 && s.unitPriceRight++);
  }
  return s;
}

/** Fraction of expected line items matched (1 when none are expected). */
export const lineRate = (s: LineScore) => (s.expected ? s.matched / s.expected : 1);

/** Confidence bands of the calibration table, 0–100 inclusive. */
export const BANDS = [
  { name: '0-49', lo: 0, hi: 49.999 },
  { name: '50-69', lo: 50, hi: 69.999 },
  { name: '70-89', lo: 70, hi: 89.999 },
  { name: '90-100', lo: 90, hi: 100 },
] as const;
export const bandOf = (confidence: number) => BANDS.find((b) => confidence >= b.lo && confidence <= b.hi)?.name ?? (confidence > 100 ? '90-100' : '0-49');
