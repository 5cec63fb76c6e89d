// Checks that an evidence box lands on its value: the words inside a box (text layer, or OCR of a crop) and whether
// they spell the value the way a reader of the page would see it printed.
import { findAmounts } from '../../src/extraction/fields/amounts.ts';
import { findDates } from '../../src/extraction/fields/dates.ts';
import type { EvidenceBox, Word } from '../../src/extraction/types.ts';

export interface Evidence {
  field: string;
  value: string;
  confidence: number;
  page: number | null;
  box: EvidenceBox | null;
  source: string;
}

/**
 * The text inside `box` (fractions of a page `width` × `height`): of each word across it, the characters whose centre
 * lies inside (a word's characters taken as equally wide), words in reading order.
 */
export function wordsInBox(words: readonly Word[], width: number, height: number, box: EvidenceBox): string {
  const inside = (x: number, y: number) => x >= box.x && x <= box.x + box.width && y >= box.y && y <= box.y + box.height;
  return [...words]
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .map((w) => {
      const cy = (w.y + w.height / 2) / height;
      return [...w.text].filter((_, i) => inside((w.x + ((i + 0.5) * w.width) / w.text.length) / width, cy)).join('');
    })
    .filter(Boolean)
    .join(' ');
}

const key = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** Edit distance of two short strings (OCR of a crop misreads a letter now and then). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length]!;
}

/**
 * `text` shows the value: an amount or a count as a number in it, a date in any format the engine reads, a name or
 * code as the same letters and digits (`slack`: the share of characters OCR may have misread).
 */
export function spells(e: Pick<Evidence, 'field' | 'value'>, text: string, slack = 0): boolean {
  if (e.field === 'currency') return /[A-Z]{3}|[$€£]/.test(text);
  if (/Date$/.test(e.field)) return [true, false].some((dayFirst) => findDates(text, { dayFirst }).some((d) => d.iso === e.value));
  if (/^-?\d+(\.\d+)?$/.test(e.value) && e.field !== 'invoiceNumber' && e.field !== 'sku') {
    const v = Number(e.value);
    const numbers = [...findAmounts(text).map((a) => a.value), ...[...text.matchAll(/\d+(?:[.,]\d+)?/g)].map((m) => Number(m[0].replace(',', '.')))];
    // OCR of a crop may read the currency sign before the figures as a digit ("$649.00" → "6649.00"): the figures follow.
    const digits = text.replace(/\D/g, '');
    return numbers.some((n) => Math.abs(Math.abs(n) - Math.abs(v)) < 0.005) || (slack > 0 && digits.includes(Math.abs(v).toFixed(2).replace('.', '')));
  }
  const [want, got] = [key(e.value), key(text)];
  if (got.includes(want)) return true;
  // The closest stretch of the crop's text to the value, allowing for misread characters.
  let best = Infinity;
  for (let i = 0; i + want.length <= got.length + 2; i++) best = Math.min(best, distance(want, got.slice(i, i + want.length)));
  return best <= Math.floor(want.length * slack);
}
