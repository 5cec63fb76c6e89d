// Finding a known value on a line: where an amount, a date, a count or some words are printed on it. Evidence uses
// this where a rule kept the line a value came from but not its offsets (receipts, line items), and to find an
// e-invoice's values on the page.
import { findAmounts, parseNumber, type DecimalSeparator } from './amounts.ts';
import { findDates, stripAccents } from './dates.ts';
import type { Place } from './evidence.ts';
import type { Line } from './layout.ts';

const sameMoney = (a: number, b: number) => Math.abs(Math.abs(a) - Math.abs(b)) < 0.005;
const overlaps = (p: Place, from: number, to: number) => p.from < to && from < p.to;

/** The match nearest to offset `near`, else the last (amounts of a row end it). */
function pick(line: Line, spans: Array<{ index: number; length: number }>, near?: number): Place | null {
  if (!spans.length) return null;
  const best = near === undefined ? spans.at(-1)! : spans.reduce((a, b) => (Math.abs(b.index - near) < Math.abs(a.index - near) ? b : a));
  return { line, from: best.index, to: best.index + best.length };
}

/**
 * Where an amount is printed on a line (sign aside: a credit note rarely prints one), else a word that reads as it
 * alone (a rule that took "305,09" of "1 305,09" read it there); `avoid`: spans taken already.
 */
export function amountIn(line: Line, value: number, dec?: DecimalSeparator, near?: number, avoid: readonly Place[] = []): Place | null {
  const free = (from: number, length: number) => !avoid.some((p) => p.line === line && overlaps(p, from, from + length));
  const found = findAmounts(line.text, dec).filter((a) => sameMoney(a.value, value) && free(a.index, a.length));
  if (found.length) return pick(line, found, near);
  const words = line.words
    .map((w, i) => ({ index: line.starts[i]!, length: w.text.trim().length, text: w.text.trim() }))
    .filter((w) => free(w.index, w.length) && findAmounts(w.text, dec).some((a) => a.length === w.length && sameMoney(a.value, value)));
  return pick(line, words, near);
}

/** Where a date (ISO) is printed on a line, in any of the formats the date rules read. */
export function dateIn(line: Line, iso: string, dayFirst: boolean, near?: number): Place | null {
  return pick(
    line,
    findDates(line.text, { dayFirst }).filter((d) => d.iso === iso),
    near,
  );
}

/** A count or measure standing alone ("4", "0,352"); `avoid`: spans taken by the line's other cells. */
export function numberIn(line: Line, value: number, dec: DecimalSeparator | undefined, avoid: readonly Place[]): Place | null {
  const found = [...line.text.matchAll(/(?<![\w.,$€£-])\d+(?:[.,]\d+)?(?![\w%]|[.,]\d)/g)]
    .filter((m) => !avoid.some((p) => p.line === line && overlaps(p, m.index, m.index + m[0].length)))
    .filter((m) => {
      // A measure to the gram ("0,352") is no thousands group: read it as a decimal too.
      const n = [parseNumber(m[0], dec), Number(m[0].replace(',', '.'))];
      return n.some((v) => v !== null && Math.abs(v - value) < 1e-6);
    });
  return pick(line, found.map((m) => ({ index: m.index, length: m[0].length })).slice(0, 1));
}

/** Lower case, accents and punctuation off: how words are compared. */
export const wordKey = (s: string) =>
  stripAccents(s)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Runs of consecutive words of the line that are words of `text` (case, accents and punctuation aside), each word of
 * the text used as often as the text has it: "oil 5 l   5 pc" under "olive oil 5 l" ends its run before the count.
 */
export function wordRuns(line: Line, text: string): Place[] {
  const keys = text.split(/\s+/).map(wordKey).filter(Boolean);
  const runs: Place[] = [];
  let left: string[] | null = null;
  line.words.forEach((w, i) => {
    const key = wordKey(w.text);
    // A run goes on over words of punctuation alone ("Infogérance – forfait"), which no text has words of.
    if (!key) return;
    if (left && !left.includes(key)) left = null;
    if (!left && keys.includes(key)) left = [...keys];
    if (!left) return;
    left.splice(left.indexOf(key), 1);
    const from = line.starts[i]!;
    const to = from + w.text.trim().length;
    const last = runs.at(-1);
    if (last && left.length < keys.length - 1) last.to = to;
    else runs.push({ line, from, to });
  });
  return runs;
}

/**
 * The shortest run of consecutive words whose text passes `test` (the first such run on the line, outside the spans
 * in `avoid`), or null.
 */
export function windowIn(line: Line, test: (text: string) => boolean, avoid: readonly Place[] = []): Place | null {
  const n = line.words.length;
  for (let size = 1; size <= n; size++)
    for (let i = 0; i + size <= n; i++) {
      const from = line.starts[i]!;
      const to = line.starts[i + size - 1]! + line.words[i + size - 1]!.text.trim().length;
      if (!avoid.some((p) => p.line === line && overlaps(p, from, to)) && test(line.text.slice(from, to))) return { line, from, to };
    }
  return null;
}

/** Where words are printed on a line as given (case, accents and punctuation aside), outside `avoid`. */
export const wordsIn = (line: Line, text: string, avoid: readonly Place[] = []): Place | null => {
  const key = wordKey(text);
  return key ? windowIn(line, (t) => wordKey(t) === key, avoid) : null;
};
