// Dates in any common notation → ISO yyyy-mm-dd; day/month order decided per document.

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

// Accent-stripped, lower-case prefixes → month. Longer forms first so the regex prefers them.
const MONTHS: [string, number][] = [
  ['january', 1], ['janvier', 1], ['januar', 1], ['januari', 1], ['janvaris', 1], ['jan', 1], ['janv', 1], ['jän', 1],
  ['february', 2], ['fevrier', 2], ['februar', 2], ['februari', 2], ['februaris', 2], ['feb', 2], ['fev', 2], ['fevr', 2], ['febr', 2],
  ['march', 3], ['mars', 3], ['marz', 3], ['maerz', 3], ['marts', 3], ['mac', 3], ['mar', 3],
  ['april', 4], ['avril', 4], ['aprilis', 4], ['apr', 4], ['avr', 4],
  ['may', 5], ['mai', 5], ['maijs', 5], ['mei', 5],
  ['june', 6], ['juin', 6], ['juni', 6], ['junijs', 6], ['jun', 6],
  ['july', 7], ['juillet', 7], ['juli', 7], ['julai', 7], ['julijs', 7], ['jul', 7], ['juil', 7],
  ['august', 8], ['aout', 8], ['ogos', 8], ['augusts', 8], ['aug', 8],
  ['september', 9], ['septembre', 9], ['septembris', 9], ['sept', 9], ['sep', 9],
  ['october', 10], ['octobre', 10], ['oktober', 10], ['oktobris', 10], ['oct', 10], ['okt', 10],
  ['november', 11], ['novembre', 11], ['novembris', 11], ['nov', 11],
  ['december', 12], ['decembre', 12], ['dezember', 12], ['disember', 12], ['decembris', 12], ['dec', 12], ['dez', 12], ['dis', 12],
];
const MONTH_MAP = new Map(MONTHS);
const MONTH_ALT = [...new Set(MONTHS.map(([m]) => m))].sort((a, b) => b.length - a.length).join('|');

const Y4 = '((?:19|20)\\d{2})';
const RE_YMD = new RegExp(`(?<![\\d.])${Y4}\\s?[-./]\\s?(\\d{1,2})\\s?[-./]\\s?(\\d{1,2})(?![\\d])`, 'g');
const RE_NUM = /(?<![\d.,])(\d{1,2})\s?([./-])\s?(\d{1,2})\s?(?:\2|(?<=\.\s?\d{1,2}\s?),)\s?(\d{4}|\d{2})(?![\d]|[.,]\d)/g;
const RE_DMY_TEXT = new RegExp(`(?<![\\d])(\\d{1,2})(?:st|nd|rd|th|er)?\\.?[\\s/-]*(?:de\\s+)?(${MONTH_ALT})[a-z]*\\.?[\\s,/-]*('?\\d{4}|\\d{2})(?![\\d])`, 'g');
const RE_MDY_TEXT = new RegExp(`\\b(${MONTH_ALT})[a-z]*\\.?\\s*(\\d{1,2})(?:st|nd|rd|th)?,?\\s*(\\d{4})(?![\\d])`, 'g');

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
  const norm = stripAccents(text).toLowerCase();
  const taken = (i: number, len: number) => out.some((m) => i < m.index + m.length && m.index < i + len);
  const push = (index: number, length: number, y: number, m: number, d: number, ambiguous: boolean) => {
    if (valid(y, m, d) && !taken(index, length)) out.push({ iso: iso(y, m, d), index, length, ambiguous });
  };
  for (const m of norm.matchAll(RE_YMD)) push(m.index, m[0].length, +m[1]!, +m[2]!, +m[3]!, false);
  for (const m of norm.matchAll(RE_DMY_TEXT)) {
    const mo = MONTH_MAP.get(m[2]!) ?? MONTH_MAP.get(m[2]!.slice(0, 3));
    if (mo) push(m.index, m[0].length, year(m[3]!), mo, +m[1]!, false);
  }
  for (const m of norm.matchAll(RE_MDY_TEXT)) {
    const mo = MONTH_MAP.get(m[1]!) ?? MONTH_MAP.get(m[1]!.slice(0, 3));
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
 * Day/month order for a document: unambiguous numeric dates decide (13+ in the first or second place);
 * otherwise US evidence (USD, "$" with US words) means month first; everything else day first.
 */
export function inferDayFirst(text: string): boolean {
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
