// How numbers, money and dates are printed: every convention the corpus uses, chosen per document.

/** A calendar day (no time zone): what an invoice prints and what the ground truth holds (ISO). */
export interface Day {
  y: number;
  m: number;
  d: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export const isoDay = (t: Day) => `${t.y}-${pad(t.m)}-${pad(t.d)}`;
export function addDays(t: Day, days: number): Day {
  const dt = new Date(Date.UTC(t.y, t.m - 1, t.d + days));
  return { y: dt.getUTCFullYear(), m: dt.getUTCMonth() + 1, d: dt.getUTCDate() };
}

export interface NumberStyle {
  group: string;
  decimal: '.' | ',';
}
export const NUMBER_STYLES = {
  'comma-dot': { group: ',', decimal: '.' }, // 1,234.56
  'dot-comma': { group: '.', decimal: ',' }, // 1.234,56
  'space-comma': { group: ' ', decimal: ',' }, // 1 234,56
  'nbsp-comma': { group: '\u00a0', decimal: ',' }, // 1 234,56 (no-break space)
  'apos-dot': { group: "'", decimal: '.' }, // 1'234.56
  'space-dot': { group: ' ', decimal: '.' }, // 1 234.56
  'plain-comma': { group: '', decimal: ',' }, // 1234,56
  'plain-dot': { group: '', decimal: '.' }, // 1234.56
} satisfies Record<string, NumberStyle>;
export type NumberStyleName = keyof typeof NUMBER_STYLES;

/** How a negative amount is written: -12,00 / 12,00- / (12.00). */
export type NegativeStyle = 'leading' | 'trailing' | 'parens';

export function formatNumber(n: number, style: NumberStyle, decimals = 2, negative: NegativeStyle = 'leading'): string {
  const [int, frac] = Math.abs(n).toFixed(decimals).split('.') as [string, string?];
  const grouped = style.group ? int.replace(/\B(?=(\d{3})+(?!\d))/g, style.group) : int;
  const body = frac === undefined ? grouped : `${grouped}${style.decimal}${frac}`;
  if (n >= 0 || Number(body.replace(/\D/g, '')) === 0) return body;
  return negative === 'trailing' ? `${body}-` : negative === 'parens' ? `(${body})` : `-${body}`;
}

/** Quantities: whole numbers bare, others with up to three decimals. */
export function formatQuantity(q: number, style: NumberStyle): string {
  if (Number.isInteger(q)) return String(q);
  const decimals = Math.round(q * 100) === q * 100 ? 2 : 3;
  return formatNumber(q, { group: '', decimal: style.decimal }, decimals).replace(/([.,]\d*?)0+$/, '$1');
}

export interface MoneyStyle {
  number: NumberStyle;
  negative: NegativeStyle;
  /** Symbol (€, $, £, R$, Fr.) or ISO code, as printed next to amounts. */
  currency: string;
  currencyBefore: boolean;
  currencySpace: boolean;
  /** Print the currency on every table amount (else only on totals, or in column headers). */
  currencyInTable: boolean;
  /** Unit prices with 3 decimals (fuel, wholesale). */
  unitDecimals: 2 | 3;
}

export function formatMoney(n: number, m: MoneyStyle, withCurrency: boolean, decimals = 2): string {
  const num = formatNumber(n, m.number, decimals, m.negative);
  if (!withCurrency) return num;
  const gap = m.currencySpace ? ' ' : '';
  return m.currencyBefore ? `${m.currency}${gap}${num}` : `${num}${gap}${m.currency}`;
}

/** Percentages as a locale writes them: 19 %, 7,5%, 8.25%. */
export function formatPercent(rate: number, style: NumberStyle, space: boolean): string {
  const pct = Math.round(rate * 10000) / 100;
  const s = Number.isInteger(pct) ? String(pct) : formatNumber(pct, style, pct * 10 === Math.round(pct * 10) ? 1 : 2);
  return `${s}${space ? ' ' : ''}%`;
}

export type DateStyle =
  | 'dmy-dot' // 05.06.2024
  | 'dmy-dot-short' // 5.6.2024
  | 'dmy-dot-yy' // 05.06.24
  | 'dmy-slash' // 05/06/2024
  | 'dmy-dash' // 05-06-2024
  | 'mdy-slash' // 06/05/2024 (United States)
  | 'iso' // 2024-06-05
  | 'text' // 5. Juni 2024, 5 juin 2024, June 5, 2024
  | 'text-short'; // 5 Jun 2024, 05-Jun-2024

/** Month names and the textual date of one language. */
export interface DateWords {
  months: readonly string[];
  monthsShort: readonly string[];
  /** The long textual form, e.g. (5, 'juin', 2024) → "5 juin 2024"; `us` for month-first English. */
  text(d: number, month: string, y: number, us: boolean): string;
  /** The abbreviated form, e.g. "5 Jun 2024" or "05-Jun-2024". */
  short(d: number, month: string, y: number, us: boolean): string;
}

export function formatDate(t: Day, style: DateStyle, words: DateWords, us = false): string {
  switch (style) {
    case 'dmy-dot':
      return `${pad(t.d)}.${pad(t.m)}.${t.y}`;
    case 'dmy-dot-short':
      return `${t.d}.${t.m}.${t.y}`;
    case 'dmy-dot-yy':
      return `${pad(t.d)}.${pad(t.m)}.${pad(t.y % 100)}`;
    case 'dmy-slash':
      return `${pad(t.d)}/${pad(t.m)}/${t.y}`;
    case 'dmy-dash':
      return `${pad(t.d)}-${pad(t.m)}-${t.y}`;
    case 'mdy-slash':
      return `${pad(t.m)}/${pad(t.d)}/${t.y}`;
    case 'iso':
      return isoDay(t);
    case 'text':
      return words.text(t.d, words.months[t.m - 1]!, t.y, us);
    case 'text-short':
      return words.short(t.d, words.monthsShort[t.m - 1]!, t.y, us);
  }
}
