// Values next to labels: to the right on the same line, or below the label in a header/value layout.
import { findAmounts, type DecimalSeparator } from './amounts.ts';
import { findDates, type DateHints } from './dates.ts';
import { overlapX, spanConfidence, spanX, type Line } from './layout.ts';

export interface Candidate<T> {
  value: T;
  /** Evidence score (label weight × placement). */
  score: number;
  line: Line;
  /** OCR confidence of the value's words. */
  ocr: number;
  /** Offset of the value in `line.text`. */
  at: number;
  /** How the value was found. */
  via: 'right' | 'below' | 'free';
}

export interface Label {
  re: RegExp;
  weight: number;
}

type Finder<T> = (text: string) => { value: T; index: number; length: number; plain?: boolean }[];

export const amountFinder =
  (dec?: DecimalSeparator): Finder<number> =>
  (text) =>
    findAmounts(text, dec).map((a) => ({ ...a, plain: !a.hasDecimals }));
export const dateFinder =
  (hints: DateHints): Finder<string> =>
  (text) =>
    findDates(text, hints).map((d) => ({ value: d.iso, index: d.index, length: d.length }));

/** Finds values for a set of labels; each label match yields candidates right of it and below it. */
export function labelled<T>(lines: Line[], labels: Label[], find: Finder<T>, opts: { below?: boolean; exclude?: RegExp } = {}): Candidate<T>[] {
  const out: Candidate<T>[] = [];
  lines.forEach((line, li) => {
    for (const label of labels) {
      for (const m of line.text.matchAll(new RegExp(label.re.source, label.re.flags.includes('g') ? label.re.flags : label.re.flags + 'g'))) {
        if (opts.exclude?.test(line.text)) continue;
        const end = m.index + m[0].length;
        const rest = line.text.slice(end);
        // Stop at the next label-like word run so "Total HT 100 TVA 20" gives 100 to "Total HT" only first.
        const vals = find(rest);
        vals.forEach((v, k) => {
          const gapText = rest.slice(0, v.index);
          const far = /[A-Za-zÀ-ž]{3,}/.test(gapText.replace(/\b(EUR|USD|RM|MYR|GBP|EURO|incl|inkl|TTC|HT)\b/gi, '')) ? 0.6 : 1;
          const rank = k === 0 ? 1 : k === vals.length - 1 ? 0.8 : 0.6;
          const plain = v.plain ? 0.6 : 1;
          const s = end + v.index;
          out.push({ value: v.value, score: label.weight * rank * far * plain, line, ocr: spanConfidence(line, s, s + v.length), at: s, via: 'right' });
        });
        if (opts.below === false) continue;
        const lx = spanX(line, m.index, end);
        const width = Math.max(lx.x1 - lx.x0, 1);
        for (let j = li + 1; j < lines.length && j <= li + 4; j++) {
          const next = lines[j]!;
          if (next.page !== line.page || next.y - (line.y + line.height) > line.height * 3) break;
          const hits = find(next.text).filter((v) => {
            const vx = spanX(next, v.index, v.index + v.length);
            return overlapX(lx.x0 - width * 0.3, lx.x1 + width * 0.3, vx.x0, vx.x1) > 0;
          });
          const v = hits[0];
          if (v) {
            const plain = v.plain ? 0.6 : 1;
            out.push({
              value: v.value,
              score: label.weight * 0.85 * plain * (j === li + 1 ? 1 : 0.8),
              line: next,
              ocr: spanConfidence(next, v.index, v.index + v.length),
              at: v.index,
              via: 'below',
            });
            break;
          }
        }
      }
    }
  });
  return out;
}

/** Best candidate per distinct value (scores of the same value add up, capped). */
export function rank<T>(cands: Candidate<T>[]): Candidate<T>[] {
  const by = new Map<string, Candidate<T>>();
  for (const c of cands) {
    const k = String(c.value);
    const prev = by.get(k);
    if (!prev) by.set(k, { ...c });
    else {
      prev.score = Math.max(prev.score, c.score) + Math.min(prev.score, c.score) * 0.25;
      prev.ocr = Math.max(prev.ocr, c.ocr);
    }
  }
  return [...by.values()].sort((a, b) => b.score - a.score);
}
