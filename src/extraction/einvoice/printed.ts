// What the visible text of a document shows, indexed for one question: is this value printed anywhere on it?
// Generous on purpose (both day/month orders, both decimal separators): it confirms an e-invoice's values, it
// never picks one.
import type { PageText } from '../types.ts';
import { stripAccents } from '../fields/dates.ts';
import { isoDay } from './values.ts';

export interface PrintedText {
  /** Words read (text layer or OCR). */
  words: number;
  /** The words as read, one space apart (currency symbols are matched in it). */
  raw: string;
  /** Lower-case letters and digits only: invoice numbers are matched in it. */
  compact: string;
  /** Lower-case, diacritics removed, one space between words: names are matched in it. */
  spaced: string;
  /** Every amount printed, in cents, without sign. */
  cents: Set<number>;
  /** Every date printed, ISO. */
  dates: Set<string>;
}

export const fold = (s: string): string => stripAccents(s).toLowerCase();
export const spacedOf = (s: string): string =>
  fold(s)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
export const compactOf = (s: string): string => fold(s).replace(/[^a-z0-9]+/g, '');

/** Two readings of a field are the same value (amounts without sign: a printed credit note rarely shows one). */
export function same(f: string, a: string | number | null, b: string | number | null): boolean {
  if (a === null || b === null) return false;
  if (typeof a === 'number' || typeof b === 'number') return Math.abs(Math.abs(Number(a)) - Math.abs(Number(b))) < 0.005;
  if (f === 'vendorName') {
    const [x, y] = [spacedOf(a), spacedOf(b)];
    return x.length > 0 && y.length > 0 && (x.includes(y) || y.includes(x));
  }
  return f === 'invoiceNumber' ? compactOf(a) === compactOf(b) : a === b;
}

export function printedText(pages: PageText[]): PrintedText {
  const words = pages.flatMap((p) => p.words.map((w) => w.text));
  const text = words.join(' ');
  const cents = new Set<number>();
  words.forEach((w, i) => {
    for (const c of amountsIn(w)) cents.add(c);
    // "1 005,55": thousands grouped with a space are two words.
    const next = words[i + 1];
    if (next && /^\d{1,3}$/.test(w.replace(/^[^\d]+/, '')) && /^\d{3}([.,]\d{1,2})?\b/.test(next)) for (const c of amountsIn(w + next)) cents.add(c);
  });
  return { words: words.length, raw: text, compact: compactOf(text), spaced: ` ${spacedOf(text)} `, cents, dates: datesIn(text) };
}

/** The amount a token may show, in cents ("1.005,55", "€1,005.55", "(100.00)", "60.0000", "1'234.50"). */
export function amountsIn(token: string): number[] {
  const s = token.replace(/[^\d.,']/g, '').replace(/^[.,']+|[.,']+$/g, '');
  if (!/\d/.test(s)) return [];
  const last = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','));
  const decimals = last >= 0 ? s.length - last - 1 : 0;
  // Three digits after the last separator group thousands; others are decimals.
  const value = last < 0 || decimals === 3 ? Number(s.replace(/[.,']/g, '')) : Number(`${s.slice(0, last).replace(/[.,']/g, '')}.${s.slice(last + 1)}`);
  const cents = Math.round(value * 100);
  return Number.isFinite(value) && Math.abs(value * 100 - cents) < 1e-6 ? [cents] : [];
}

const MONTHS: Array<[RegExp, number]> = [
  [/^juil/, 7],
  [/^juin/, 6],
  [/^(jan)/, 1],
  [/^(feb|fev)/, 2],
  [/^(mar|maa)/, 3],
  [/^(apr|avr)/, 4],
  [/^(may|mai|mei)/, 5],
  [/^jun/, 6],
  [/^jul/, 7],
  [/^(aug|aou)/, 8],
  [/^sep/, 9],
  [/^(oct|okt)/, 10],
  [/^nov/, 11],
  [/^(dec|dez)/, 12],
];
const month = (word: string): number | null => MONTHS.find(([re]) => re.test(fold(word)))?.[1] ?? null;
const iso = (y: number, m: number, d: number): string | null =>
  isoDay(`${String(y < 100 ? 2000 + y : y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

/** Every date a text shows, ISO (both day/month orders where the text leaves it open). */
export function datesIn(text: string): Set<string> {
  const out = new Set<string>();
  const add = (v: string | null) => v && out.add(v);
  for (const m of text.matchAll(/\b(\d{4})[./-](\d{1,2})[./-](\d{1,2})\b/g)) add(iso(+m[1]!, +m[2]!, +m[3]!));
  for (const m of text.matchAll(/\b(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})\b/g)) {
    add(iso(+m[3]!, +m[2]!, +m[1]!));
    add(iso(+m[3]!, +m[1]!, +m[2]!));
  }
  for (const m of text.matchAll(/\b(\d{1,2})(?:er|st|nd|rd|th)?\.?\s+(\p{L}{3,})\.?,?\s+(\d{4})\b/gu)) {
    const mo = month(m[2]!);
    if (mo) add(iso(+m[3]!, mo, +m[1]!));
  }
  for (const m of text.matchAll(/\b(\p{L}{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/gu)) {
    const mo = month(m[1]!);
    if (mo) add(iso(+m[3]!, mo, +m[2]!));
  }
  return out;
}
