// The words that say what a value is, wherever a layout puts them: before it in its cell ("Invoice no.: 123"), in
// the cell to its left ("Invoice no.   123"), or in the cell above it (a header row over a row of values, or a label
// split over two lines). Read from geometry only, so a label the vocabulary does not know is still found.
import type { InvoiceDoc } from '../doc.ts';
import { overlapX, spanX, type Line } from '../layout.ts';

/** A value as printed: its text, the line and the offset it is at. */
export interface PlacedValue {
  value: string;
  line: Line;
  at: number;
  length: number;
}

/** Where a value sits: on the first page, how far down and across the page (0–1), how tall its line is. */
export function placement(doc: InvoiceDoc, c: Pick<PlacedValue, 'line' | 'at'>): { page_first: number; y_rel: number; x_rel: number; height_rel: number } {
  const page = doc.pages.find((p) => p.page === c.line.page);
  const word =
    c.line.words[
      Math.max(
        0,
        c.line.starts.findLastIndex((s) => s <= c.at),
      )
    ];
  return {
    page_first: c.line.page === doc.lines[0]?.page ? 1 : 0,
    y_rel: page ? c.line.y / page.height : 0.5,
    x_rel: page && word ? word.x / page.width : 0.5,
    height_rel: c.line.height / doc.lineHeight,
  };
}

export interface KeyText {
  /** Text before the value in its own cell. */
  inCell: string;
  /** The cell to the left, when the value opens its cell. */
  leftCell: string;
  /** The cells above the value (up to two lines up, overlapping it). */
  above: string;
}

const CELL_GAP = /\s{3,}/;
/** Ends like a value: a digit, or a date or amount; such a cell is another field's value, not a label. */
const VALUE_END = /\d[\d.,/-]*\s*$/;

/** The key text of the value at `at` (its length `length`) on `line`. */
export function keyTextOf(doc: InvoiceDoc, line: Line, at: number, length: number): KeyText {
  const before = line.text.slice(0, at);
  const parts = before.split(CELL_GAP);
  const inCell = parts.at(-1)!.trim();
  const prev = parts.length > 1 ? parts.at(-2)!.trim() : '';
  const leftCell = inCell === '' && prev && !VALUE_END.test(prev) ? prev : '';
  return { inCell, leftCell, above: aboveText(doc, line, at, length) };
}

function aboveText(doc: InvoiceDoc, line: Line, at: number, length: number): string {
  const vx = spanX(line, at, at + length);
  const width = Math.max(vx.x1 - vx.x0, doc.lineHeight);
  const out: string[] = [];
  for (let j = line.index - 1; j >= 0 && j >= line.index - 2; j--) {
    const up = doc.lines[j]!;
    if (up.page !== line.page || line.y - (up.y + up.height) > doc.lineHeight * 2.2 * (line.index - j)) break;
    for (const m of up.text.matchAll(/\S+(?:\s{1,2}\S+)*/g)) {
      const cx = spanX(up, m.index, m.index + m[0].length);
      if (overlapX(vx.x0 - width * 0.25, vx.x1 + width * 0.25, cx.x0, cx.x1) > 0) out.unshift(m[0]);
    }
    if (out.length) break;
  }
  return out.join(' ');
}
