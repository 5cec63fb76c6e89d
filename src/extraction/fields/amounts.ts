// Money amounts: 1,234.56 / 1.234,56 / 1 234,56 / -12.00 / 12.00- / (12.00) / RM 12.00 / 12,00 € …
import { maskDates } from './dates.ts';

export type DecimalSeparator = '.' | ',';

export interface AmountMatch {
  value: number;
  index: number;
  length: number;
  /** Had a decimal part (e.g. "12.00"): money, not a count or an id. */
  hasDecimals: boolean;
  currencyMark: string | null;
}

// OCR confusions inside numbers: O→0, l/I/|→1, S→5, Z→2 (only next to digits).
export function fixOcrDigits(s: string): string {
  return s
    .replace(/(?<=\d)Z(?=[.,]?\s?\d)/g, '2')
    .replace(/(?<=\d[.,]?)[oO]|(?<![A-Za-z])[oO](?=[.,]?\d)/g, '0')
    .replace(/(?<=\d[.,]?)[lI|]|(?<![A-Za-z])[lI|](?=[.,]?\d)/g, '1')
    .replace(/(?<=\d[.,]?)S(?=\d)|(?<![A-Za-z])S(?=\d[.,]\d)/g, '5');
}

// Codes and symbols written before or after an amount (consumed so they do not split it from its sign).
const CUR = '(?:RM|EUR|USD|GBP|CHF|MYR|SEK|NOK|DKK|PLN|CZK|CAD|AUD|NZD|SGD|BRL|MXN|R\\$|US\\$|€|\\$|£)';
// Thousands: "." "," "'" "’" or a (thin, no-break) space before exactly three digits.
const NUM = "(\\d{1,3}(?:(?:[.,'\\u2019\\u00a0\\u202f]|\\s(?=\\d{3}[.,]\\d{2}(?!\\d)))\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?)";
// Not inside a word or number, except after a multiplication sign OCR glued to it ("1 ctn x9.61", "1 ux41.18").
const AMOUNT_RE = new RegExp(
  `(?:(?<![\\w.,/-])|(?<=(?:^|[\\s\\d]|(?<![A-Za-z])[A-Za-z]{1,3})[xX]))(-\\s?)?(\\()?(?:(${CUR})\\s?)?(-\\s?)?${NUM}(?![\\d%]|[.,]\\d|\\s?%)(\\))?(-(?!\\d))?(?:\\s?(${CUR}))?`,
  'g',
);

/** Parses the digits of an amount given the document's decimal separator (guessed when absent). */
export function parseNumber(raw: string, dec?: DecimalSeparator): number | null {
  const s = raw.replace(/[\s'\u2019\u00a0\u202f]/g, '');
  if (!/^\d[\d.,]*$/.test(s)) return null;
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let decimal: string | null = null;
  if (lastDot >= 0 && lastComma >= 0) decimal = lastDot > lastComma ? '.' : ',';
  else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = s.split(sep);
    const after = parts[parts.length - 1]!.length;
    if (parts.length === 2 && (after !== 3 || (dec ? dec === sep : parts[0] === '0'))) decimal = sep;
  }
  const intPart = decimal ? s.slice(0, s.lastIndexOf(decimal)) : s;
  const frac = decimal ? s.slice(s.lastIndexOf(decimal) + 1) : '';
  const n = Number(intPart.replace(/[.,]/g, '') + (frac ? '.' + frac : ''));
  return Number.isFinite(n) ? Math.round(n * 100) / 100 : null;
}

/** Parses a string holding one amount ("€ 1.234,56", "(12.00)", "12.00-"). */
export function parseAmount(text: string, dec?: DecimalSeparator): number | null {
  return findAmounts(text, dec)[0]?.value ?? null;
}

/** Every amount in a text (dates, times and percentages excluded), left to right. */
/** OCR splits "3.90" as "3. 90": rejoin (same length, so offsets still map to words). */
export const joinSplitDecimals = (s: string) => s.replace(/(\d)([.,]) (\d{2})(?!\d)/g, '$1$2$3 ');

export function findAmounts(text: string, dec?: DecimalSeparator): AmountMatch[] {
  const masked = maskDates(joinSplitDecimals(fixOcrDigits(text)));
  const out: AmountMatch[] = [];
  for (const m of masked.matchAll(AMOUNT_RE)) {
    const raw = m[5]!;
    let value = parseNumber(raw, dec);
    if (value === null) continue;
    const negative = Boolean(m[1] || m[4] || m[7] || (m[2] && m[6]));
    if (negative) value = -value;
    out.push({
      value: value === 0 ? 0 : value,
      index: m.index,
      length: m[0].length,
      hasDecimals: /[.,]\d{1,2}$/.test(raw),
      currencyMark: m[3] ?? m[8] ?? null,
    });
  }
  return out;
}

/**
 * Which separator marks decimals in this document: the one followed by exactly two digits at the end of numbers;
 * `fallback` (the language's habit) when the numbers do not tell.
 */
export function detectDecimalSeparator(text: string, fallback?: DecimalSeparator): DecimalSeparator | undefined {
  const masked = maskDates(text);
  const comma = masked.match(/\d,\d{2}(?!\d)/g)?.length ?? 0;
  const dot = masked.match(/\d\.\d{2}(?!\d)/g)?.length ?? 0;
  if (comma === dot) return fallback;
  return comma > dot ? ',' : '.';
}
