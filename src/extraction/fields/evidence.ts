// Evidence geometry (DESIGN §11): a span of a line's text → the boxes of the words it covers → one box in page units
// → fractions of the page as it is shown (an OCR'd page's skew turned back). The field rules say which line and
// offsets they chose; this module only measures, so the rules stay as they are.
import type { EvidenceBox, EvidenceSource, FieldEvidence, PageText } from '../types.ts';
import type { Line } from './layout.ts';

/** A box in page units (points, or the image's pixels), top-left origin. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Where a value sits: a span of a line's text. A value printed over two lines has two places. */
export interface Place {
  line: Line;
  from: number;
  to: number;
}

/** The box of the words a span covers, narrowed to the span inside a word (its characters taken as equally wide). */
export function spanBox(line: Line, from: number, to: number): Box | null {
  let box: Box | null = null;
  line.words.forEach((w, i) => {
    const s = line.starts[i]!;
    const len = w.text.trim().length;
    if (s + len <= from || s >= to) return;
    const cw = w.width / Math.max(1, len);
    const x0 = w.x + Math.max(0, from - s) * cw;
    const x1 = w.x + (Math.min(to, s + len) - s) * cw;
    box = union([box, { x0, y0: w.y, x1, y1: w.y + w.height }]);
  });
  return box;
}

export function union(boxes: ReadonlyArray<Box | null>): Box | null {
  const bs = boxes.filter((b): b is Box => b !== null);
  if (!bs.length) return null;
  return {
    x0: Math.min(...bs.map((b) => b.x0)),
    y0: Math.min(...bs.map((b) => b.y0)),
    x1: Math.max(...bs.map((b) => b.x1)),
    y1: Math.max(...bs.map((b) => b.y1)),
  };
}

/** The corners of a box turned by `angle` about (cx, cy): the inverse of ppocr/deskew.ts's turn. */
function unskew(b: Box, angle: number, cx: number, cy: number): Box {
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  const corners = [
    [b.x0, b.y0],
    [b.x1, b.y0],
    [b.x0, b.y1],
    [b.x1, b.y1],
  ].map(([x, y]) => [cx + (x! - cx) * c - (y! - cy) * s, cy + (x! - cx) * s + (y! - cy) * c] as const);
  return {
    x0: Math.min(...corners.map((p) => p[0])),
    y0: Math.min(...corners.map((p) => p[1])),
    x1: Math.max(...corners.map((p) => p[0])),
    y1: Math.max(...corners.map((p) => p[1])),
  };
}

const r4 = (n: number) => Math.round(n * 10_000) / 10_000;
const clamp = (n: number) => Math.min(1, Math.max(0, n));

/** A box in page units as fractions of the page as shown: an OCR'd page's skew turned back, kept on the page. */
export function normalise(page: PageText, box: Box): EvidenceBox {
  const b = page.skew ? unskew(box, page.skew, page.width / 2, page.height / 2) : box;
  const x0 = clamp(b.x0 / page.width);
  const y0 = clamp(b.y0 / page.height);
  return { x: r4(x0), y: r4(y0), width: r4(clamp(b.x1 / page.width) - x0), height: r4(clamp(b.y1 / page.height) - y0) };
}

/** A number's span without the currency mark or code printed with it ("$130.00", "100,00 EUR" → the figures). */
function digitsOf(p: Place): Place {
  const text = p.line.text.slice(p.from, p.to);
  const first = text.search(/\d/);
  const last = text.search(/\d(?!.*\d)/);
  return first < 0 ? p : { line: p.line, from: p.from + first, to: p.from + last + 1 };
}

const sourceOf = (pages: readonly PageText[]): EvidenceSource => (pages.some((p) => p.source === 'ocr') ? 'OCR' : 'TEXT_LAYER');

/**
 * One value's evidence. Its page is the first place's; places on other pages are left out of the box. No place (a
 * derived value, one read from data alone): page and box null. `source` defaults to how that page was read (with no
 * page: OCR when any page was OCR'd, as the invoice's own source says).
 */
export function evidence(
  pages: readonly PageText[],
  item: { field: string; value: string | number; confidence: number },
  places: readonly Place[],
  source?: EvidenceSource,
): FieldEvidence {
  const spans = typeof item.value === 'number' ? places.map(digitsOf) : places;
  const first = spans[0];
  const page = first ? pages.find((p) => p.page === first.line.page) : undefined;
  const box = page ? union(spans.filter((p) => p.line.page === page.page).map((p) => spanBox(p.line, p.from, p.to))) : null;
  const at = page && box ? { page: page.page, box: normalise(page, box) } : { page: null, box: null };
  return { field: item.field, value: String(item.value), confidence: item.confidence, ...at, source: source ?? sourceOf(page ? [page] : pages) };
}
