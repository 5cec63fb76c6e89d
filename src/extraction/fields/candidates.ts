// Candidates with evidence: for each label of the wanted fields, the values to its right (up to the next label on
// the line) and below it (in the same x range, before the next label). Every candidate says which label it came
// from, how strong that label is and where the value sits.
import type { Hit, LabelField } from '../lang/vocab.ts';
import { labelWeight, type InvoiceDoc } from './doc.ts';
import { overlapX, spanConfidence, spanX, type Line } from './layout.ts';

export interface Found<T> {
  value: T;
  index: number;
  length: number;
  /** A weaker reading (a whole number where money is expected). */
  plain?: boolean;
}
export type Finder<T> = (text: string) => Found<T>[];

export interface FieldCandidate<T> {
  value: T;
  /** The field of the label the value belongs to. */
  field: LabelField;
  score: number;
  line: Line;
  /** Offset and length of the value in `line.text`. */
  at: number;
  length: number;
  /** OCR confidence of the value's words. */
  ocr: number;
  via: 'right' | 'below' | 'free';
  /** The label was generic ("date", "no."). */
  weak: boolean;
  /** Text of the label line (for rates printed beside a tax label) and the label's offset in it. */
  labelText: string;
  labelStart: number;
}

/** Labels that are also words in running text: they end a value run only when strong. */
const ends = (h: Hit<LabelField>) => !h.weak;

export interface CandidateOptions {
  /** Look below labels (default true). */
  below?: boolean;
  /** Lines below a label to look at (default 3). */
  depth?: number;
  /** Labels that end a value run (default: every strong label); a date run is not cut by "te voldoen". */
  stopAt?: readonly LabelField[];
  /** Label lines that must not look below (a line-table header's "Total" column is no total). */
  noBelow?: (lineIndex: number) => boolean;
  /** Lines passed over when looking below a label (the per-rate rows of a VAT breakdown above its total row). */
  skipRow?: (lineIndex: number) => boolean;
}

/** Candidates of the given fields, each scored by its label's weight and the value's placement. */
export function candidates<T>(doc: InvoiceDoc, fields: readonly LabelField[], find: Finder<T>, opts: CandidateOptions = {}): FieldCandidate<T>[] {
  const out: FieldCandidate<T>[] = [];
  doc.lines.forEach((line, li) => {
    const hits = doc.hits[li]!;
    hits.forEach((hit, k) => {
      if (!fields.includes(hit.field)) return;
      const w = labelWeight(doc, hit);
      const next = hits.slice(k + 1).find((h) => h.start >= hit.end && ends(h) && (!opts.stopAt || opts.stopAt.includes(h.field)));
      const segEnd = next ? next.start : line.text.length;
      const seg = line.text.slice(hit.end, segEnd);
      const vals = find(seg);
      vals.forEach((v, n) => {
        const gap = seg.slice(0, v.index);
        // Words between the label and the value ("MwSt 19% auf 1.000,00   190,00") weaken the link a little.
        const far = /\p{L}{3,}/u.test(gap.replace(/\b(EUR|USD|GBP|CHF|incl|inkl|excl|exkl|TTC|HT|HTVA|brutto|netto)\b/gi, '')) ? 0.7 : 1;
        const order = n === 0 ? 1 : n === vals.length - 1 ? 0.85 : 0.6;
        const at = hit.end + v.index;
        out.push({
          value: v.value,
          field: hit.field,
          score: w * far * order * (v.plain ? 0.6 : 1),
          line,
          at,
          length: v.length,
          ocr: spanConfidence(line, at, at + v.length),
          via: 'right',
          weak: hit.weak,
          labelText: line.text,
          labelStart: hit.start,
        });
      });
      if (opts.below === false || opts.noBelow?.(li) || (vals.length && !vals[0]!.plain)) return;
      const below = valueBelow(doc, li, hit, find, opts.depth ?? 3, opts.skipRow);
      if (below)
        out.push({ ...below, field: hit.field, score: w * below.score * (below.plain ? 0.6 : 1), weak: hit.weak, labelText: line.text, labelStart: hit.start });
    });
  });
  return out;
}

/** The first value under a label, overlapping its x range, before another label takes that place. */
function valueBelow<T>(doc: InvoiceDoc, li: number, hit: Hit<LabelField>, find: Finder<T>, depth: number, skip?: (lineIndex: number) => boolean) {
  const line = doc.lines[li]!;
  const lx = spanX(line, hit.start, hit.end);
  const width = Math.max(lx.x1 - lx.x0, 1);
  const x0 = lx.x0 - width * 0.3;
  const x1 = lx.x1 + width * 0.6;
  const header = cells(line.text).find((c) => c.at <= hit.start && hit.start < c.at + c.text.length)?.at;
  for (let j = li + 1; j < doc.lines.length && j <= li + depth; j++) {
    const next = doc.lines[j]!;
    if (skip?.(j)) {
      depth++;
      continue;
    }
    if (next.page !== line.page || next.y - (line.y + line.height) > doc.lineHeight * 3 * (j - li)) return null;
    const inRange = (from: number, to: number) => {
      const vx = spanX(next, from, to);
      return overlapX(x0, x1, vx.x0, vx.x1) > 0;
    };
    // An item table's header row: what lies under it belongs to its columns.
    if (new Set(doc.columnHits[j]!.map((h) => h.field)).size >= 3) return null;
    // Another label in the same place: this is a column of labels, not of values.
    if (doc.hits[j]!.some((h) => !h.weak && inRange(h.start, h.end))) return null;
    // Read the runs of text under the label (cells of a row), so a finder anchored at its text's start still works.
    // Under a row of labels a value belongs to the label nearest to it ("Rate  Goods  VAT  Gross" over
    // "A 20%  181.16  36.23  217.39": 181.16 is the goods', not the rate label's).
    const v = cells(next.text)
      .filter((c) => inRange(c.at, c.at + c.text.length))
      .flatMap((c) => find(c.text).map((f) => ({ ...f, index: f.index + c.at })))
      .find((f) => inRange(f.index, f.index + f.length) && nearestHeader(line, next, f.index, f.length) === header);
    if (v)
      return {
        value: v.value,
        score: 0.85 * (j === li + 1 ? 1 : 0.8),
        line: next,
        at: v.index,
        length: v.length,
        ocr: spanConfidence(next, v.index, v.index + v.length),
        via: 'below' as const,
        plain: v.plain,
      };
  }
  return null;
}

/** Offset of the cell of a label line whose centre is nearest to a value's centre on a line below. */
function nearestHeader(labels: Line, row: Line, at: number, length: number): number | undefined {
  const vx = spanX(row, at, at + length);
  const mid = (vx.x0 + vx.x1) / 2;
  let best: { at: number; d: number } | undefined;
  for (const c of cells(labels.text)) {
    const cx = spanX(labels, c.at, c.at + c.text.length);
    const d = Math.abs((cx.x0 + cx.x1) / 2 - mid);
    if (!best || d < best.d) best = { at: c.at, d };
  }
  return best?.at;
}

/** Runs of a line's text between column gaps (three spaces or more), with their offsets. */
export function cells(text: string): { text: string; at: number }[] {
  return [...text.matchAll(/\S+(?:\s{1,2}\S+)*/g)].map((m) => ({ text: m[0], at: m.index }));
}

/** One candidate per value: the best placement, with a bonus for each further label that gives the same value. */
export function merge<T>(cands: FieldCandidate<T>[], key: (v: T) => string = String): FieldCandidate<T>[] {
  const by = new Map<string, FieldCandidate<T>>();
  for (const c of cands.slice().sort((a, b) => b.score - a.score)) {
    const k = key(c.value);
    const prev = by.get(k);
    if (!prev) by.set(k, { ...c });
    else if (prev.line !== c.line) prev.score += Math.min(c.score, 1) * 0.3;
  }
  return [...by.values()].sort((a, b) => b.score - a.score);
}
