// Dates in any common notation → ISO yyyy-mm-dd; day/month order decided per document.
import type { LangCode } from '../lang/types.ts';
import { fold, LANGUAGES } from '../lang/vocab.ts';

export interface DateMatch {
  iso: string;
  index: number;
  length: number;
  /** Numeric d/m vs m/d where both readings were possible. */
  ambiguous: boolean;
}

export interface DateHints {
  /** true: 05/03 is 5 March; false: May 3; undefined: guess (day first unless evidence says otherwise). */
  dayFirst?: boolean;
}

export const stripAccents = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

// Month names of every language file, plus those seen on receipts in languages we do not read invoices in
// (Latvian, Malay). Folded (lower-case, no accents); each name means one month in every language (a test checks).
const RECEIPT_MONTHS: string[][] = [
  ['janvaris'],
  ['februaris'],
  ['marts'],
  ['aprilis'],
  ['maijs'],
  ['junijs'],
  ['julijs', 'julai'],
  ['augusts', 'ogos'],
  ['septembris'],
  ['oktobris'],
  ['novembris'],
  ['decembris', 'disember', 'dis'],
];
const MONTH_MAP = new Map<string, number>();
for (const months of [...LANGUAGES.map((l) => l.months), RECEIPT_MONTHS])
  months.forEach((names, i) => names.forEach((n) => MONTH_MAP.set(fold(n).replace(/\.$/, ''), i + 1)));
// Longest first so the alternation prefers "juillet" to "juil"; a name must end there ("main" is not "mai").
const MONTH_ALT = `(?:${[...MONTH_MAP.keys()].sort((a, b) => b.length - a.length).join('|')})(?![a-z])`;

const Y4 = '((?:19|20)\\d{2})';
const RE_YMD = new RegExp(`(?<![\\d.])${Y4}\\s?[-./]\\s?(\\d{1,2})\\s?[-./]\\s?(\\d{1,2})(?![\\d])`, 'g');
const RE_NUM = /(?<![\d.,])(\d{1,2})\s?([./-])\s?(\d{1,2})\s?(?:\2|(?<=\.\s?\d{1,2}\s?),)\s?(\d{4}|\d{2})(?![\d]|[.,]\d)/g;
// "5 juin 2018", "5. März 2018", "5 de junio de 2018", "1er mars 2018", "05-MAR-2024".
const RE_DMY_TEXT = new RegExp(
  `(?<![\\d])(\\d{1,2})(?:st|nd|rd|th|er|o|º|°)?\\.?[\\s/-]*(?:de\\s+|di\\s+)?(${MONTH_ALT})\\.?[\\s,/-]*(?:de\\s+|del\\s+)?('?\\d{4}|\\d{2})(?![\\d])`,
  'g',
);
// "March 5, 2024", "June 5th 2018".
const RE_MDY_TEXT = new RegExp(`(?<![a-z])(${MONTH_ALT})\\.?\\s*(\\d{1,2})(?:st|nd|rd|th)?,?\\s*(\\d{4})(?![\\d])`, 'g');

function valid(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1970 || y > 2099) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}
const year = (s: string) => {
  const n = Number(s.replace("'", ''));
  return s.replace("'", '').length === 2 ? (n < 70 ? 2000 + n : 1900 + n) : n;
};
const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** Every date found in a text, in order of position. */
export function findDates(text: string, hints: DateHints = {}): DateMatch[] {
  const out: DateMatch[] = [];
  const norm = fold(text);
  const taken = (i: number, len: number) => out.some((m) => i < m.index + m.length && m.index < i + len);
  const push = (index: number, length: number, y: number, m: number, d: number, ambiguous: boolean) => {
    if (valid(y, m, d) && !taken(index, length)) out.push({ iso: iso(y, m, d), index, length, ambiguous });
  };
  for (const m of norm.matchAll(RE_YMD)) push(m.index, m[0].length, +m[1]!, +m[2]!, +m[3]!, false);
  for (const m of norm.matchAll(RE_DMY_TEXT)) {
    const mo = MONTH_MAP.get(m[2]!);
    if (mo) push(m.index, m[0].length, year(m[3]!), mo, +m[1]!, false);
  }
  for (const m of norm.matchAll(RE_MDY_TEXT)) {
    const mo = MONTH_MAP.get(m[1]!);
    if (mo) push(m.index, m[0].length, year(m[3]!), mo, +m[2]!, false);
  }
  for (const m of norm.matchAll(RE_NUM)) {
    const a = +m[1]!;
    const b = +m[3]!;
    const y = year(m[4]!);
    const dmyOk = valid(y, b, a);
    const mdyOk = valid(y, a, b);
    if (dmyOk && mdyOk && a !== b) push(m.index, m[0].length, y, hints.dayFirst === false ? a : b, hints.dayFirst === false ? b : a, true);
    else if (dmyOk) push(m.index, m[0].length, y, b, a, false);
    else if (mdyOk) push(m.index, m[0].length, y, a, b, false);
  }
  return out.sort((x, y) => x.index - y.index);
}

/** Parses one date string; null when it holds none. */
export function parseDate(text: string, hints: DateHints = {}): string | null {
  return findDates(text, hints)[0]?.iso ?? null;
}

/**
 * Day/month order for a document: unambiguous numeric dates decide (13+ in the first or second place); then the
 * language: a document in a language that writes the day first (every one but English) does; an English one is
 * month-first only with US evidence (USD, a US address), day-first otherwise (UK, international).
 */
export function inferDayFirst(text: string, langs: LangCode[] = []): boolean {
  let dmy = 0;
  let mdy = 0;
  for (const m of text.matchAll(RE_NUM)) {
    // Only real dates decide (OCR noise like "0/52/5858" does not).
    const a = +m[1]!;
    const b = +m[3]!;
    const y = year(m[4]!);
    const dmyOk = valid(y, b, a);
    const mdyOk = valid(y, a, b);
    if (dmyOk && !mdyOk) dmy++;
    else if (mdyOk && !dmyOk) mdy++;
  }
  if (dmy !== mdy) return dmy > mdy;
  if (langs.length && !langs.includes('en')) return true;
  if (/\b(USD|US\$|U\.S\.A?|United States|[A-Z]{2} \d{5}(?:-\d{4})?)\b/.test(text)) return false;
  return true;
}

/** Replaces dates and clock times by spaces (so their digits are not read as amounts). */
export function maskDates(text: string): string {
  let out = text;
  const blank = (i: number, len: number) => (out = out.slice(0, i) + ' '.repeat(len) + out.slice(i + len));
  for (const d of findDates(text)) blank(d.index, d.length);
  for (const m of out.matchAll(/(?<![\d.,])\d{1,2}:\d{2}(?::\d{2})?(?![\d])/g)) blank(m.index, m[0].length);
  return out;
}
