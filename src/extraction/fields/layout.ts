// Words → reading-order lines (with the boxes kept) and column hints.
import type { PageText, Word } from '../types.ts';

export interface Line {
  page: number;
  text: string;
  /** Words sorted by x; `starts[i]` is the offset of words[i] in `text`. */
  words: Word[];
  starts: number[];
  x: number;
  y: number;
  width: number;
  height: number;
  /** Mean OCR confidence of the words (100 for a text layer). */
  confidence: number;
  /** Index of the line in the whole document, reading order. */
  index: number;
}

const cy = (w: Word) => w.y + w.height / 2;

/** Groups a page's words into lines: a word joins the line whose nearest word (by x) overlaps it vertically. */
export function groupLines(page: PageText, startIndex = 0): Line[] {
  const words = page.words
    .filter((w) => w.text.trim() !== '')
    .slice()
    .sort((a, b) => a.x - b.x);
  const groups: Word[][] = [];
  for (const w of words) {
    let best: Word[] | null = null;
    let bestDist = Infinity;
    for (const g of groups) {
      // Compare with the right-most word of the group: follows a skewed baseline.
      const last = g[g.length - 1]!;
      const tol = 0.5 * Math.min(w.height, last.height);
      const d = Math.abs(cy(w) - cy(last));
      const gap = w.x - (last.x + last.width);
      if (d <= tol && gap > -last.width * 0.5 && d < bestDist) {
        best = g;
        bestDist = d;
      }
    }
    if (best) best.push(w);
    else groups.push([w]);
  }
  const lines = groups.map((g) => buildLine(page.page, g));
  lines.sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2) || a.x - b.x);
  lines.forEach((l, i) => (l.index = startIndex + i));
  return lines;
}

export function buildLine(page: number, ws: Word[]): Line {
  const words = ws.slice().sort((a, b) => a.x - b.x);
  const starts: number[] = [];
  let text = '';
  const hs = words.map((w) => w.height).sort((a, b) => a - b);
  const h = hs[Math.floor(hs.length / 2)] ?? 0;
  words.forEach((w, i) => {
    if (i > 0) {
      const prev = words[i - 1]!;
      const gap = w.x - (prev.x + prev.width);
      // A wide gap becomes several spaces so column breaks stay visible in the text.
      text += gap > h * 1.5 ? '   ' : ' ';
    }
    starts.push(text.length);
    text += w.text.trim();
  });
  const x = Math.min(...words.map((w) => w.x));
  const y = Math.min(...words.map((w) => w.y));
  const x2 = Math.max(...words.map((w) => w.x + w.width));
  const y2 = Math.max(...words.map((w) => w.y + w.height));
  const confidence = words.reduce((s, w) => s + w.confidence, 0) / Math.max(1, words.length);
  return { page, text, words, starts, x, y, width: x2 - x, height: y2 - y, confidence, index: 0 };
}

/** All lines of a document in reading order (page by page). */
export function documentLines(pages: PageText[]): Line[] {
  const out: Line[] = [];
  for (const p of pages) out.push(...groupLines(p, out.length));
  return out;
}

/** Horizontal extent of the text between two offsets of a line (approximate within a word). */
export function spanX(line: Line, from: number, to: number): { x0: number; x1: number } {
  let x0 = Infinity;
  let x1 = -Infinity;
  line.words.forEach((w, i) => {
    const s = line.starts[i]!;
    const e = s + w.text.trim().length;
    if (e <= from || s >= to) return;
    const len = Math.max(1, e - s);
    const cw = w.width / len;
    x0 = Math.min(x0, w.x + Math.max(0, from - s) * cw);
    x1 = Math.max(x1, w.x + (Math.min(to, e) - s) * cw);
  });
  if (x0 === Infinity) return { x0: line.x, x1: line.x + line.width };
  return { x0, x1 };
}

/** Confidence of the words covering a span of the line. */
export function spanConfidence(line: Line, from: number, to: number): number {
  const cs: number[] = [];
  line.words.forEach((w, i) => {
    const s = line.starts[i]!;
    if (s < to && s + w.text.length > from) cs.push(w.confidence);
  });
  return cs.length ? Math.min(...cs) : line.confidence;
}

/** Column hints: x positions where many lines have a gap (left edges of text after a wide gap). */
export function columnStarts(lines: Line[], tolerance = 8): number[] {
  const xs: number[] = [];
  for (const l of lines)
    l.words.forEach((w, i) => {
      const prev = l.words[i - 1];
      if (!prev || w.x - (prev.x + prev.width) > w.height) xs.push(w.x);
    });
  xs.sort((a, b) => a - b);
  const clusters: { x: number; n: number }[] = [];
  for (const x of xs) {
    const c = clusters[clusters.length - 1];
    if (c && x - c.x / c.n <= tolerance) {
      c.x += x;
      c.n++;
    } else clusters.push({ x, n: 1 });
  }
  const minN = Math.max(2, Math.ceil(lines.length * 0.15));
  return clusters.filter((c) => c.n >= minN).map((c) => c.x / c.n);
}

export const overlapX = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0);
