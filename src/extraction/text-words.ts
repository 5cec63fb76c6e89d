// pdf.js text items → positioned words in reading order (pure: works on the items, not on a pdf.js document).

import type { Word } from './types.ts';
import { familyOf, glyphOffsets } from './glyph-widths.ts';
import { runsToWords, type Run } from './word-lines.ts';
import { controlCharsAsSpaces } from './control-chars.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

interface RawTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
  hasEOL?: boolean;
}

export type TextStyles = Record<string, { ascent?: number; descent?: number; vertical?: boolean; fontFamily?: string }>;

interface Placed {
  str: string;
  /** Baseline origin and direction in viewport space (y down), font size and advance in points. */
  x: number;
  y: number;
  angle: number;
  size: number;
  advance: number;
  ascent: number;
  descent: number;
  family: ReturnType<typeof familyOf>;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
/** Text more than this far (radians) from the page's main direction is not part of its lines (margin notes, stamps). */
const DIRECTION_TOLERANCE = (10 * Math.PI) / 180;
const angleDiff = (a: number, b: number) => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));

function place(pdfjs: Pick<PdfJs, 'Util'>, viewportTransform: number[], raw: unknown, styles: TextStyles): Placed | null {
  const item = raw as RawTextItem;
  if (typeof item.str !== 'string' || !Array.isArray(item.transform)) return null;
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = pdfjs.Util.transform(viewportTransform, item.transform) as number[];
  // A corrupted text matrix or width (NaN, infinite) places nothing: such an item has no place on the page.
  if (![a, b, c, d, e, f, item.width].every(Number.isFinite)) return null;
  // Advance width in viewport units: item.width is in the page's user space along the text direction.
  const vtScale = Math.hypot(viewportTransform[0] ?? 1, viewportTransform[1] ?? 0) || 1;
  const style = styles[item.fontName];
  return {
    // A control character in a text layer (a corrupted content stream) is no glyph: a space, so words end there.
    str: controlCharsAsSpaces(item.str),
    x: e,
    y: f,
    angle: Math.atan2(b, a),
    size: Math.hypot(c, d) || Math.hypot(a, b) || item.height || 1,
    advance: Math.abs(item.width) * vtScale,
    ascent: style?.ascent && style.ascent > 0.3 && style.ascent < 1.3 ? style.ascent : 0.8,
    descent: style?.descent && style.descent < 0 && style.descent > -0.6 ? -style.descent : 0.2,
    family: familyOf(style?.fontFamily),
  };
}

/** The direction most of the page's characters run in, to a quarter turn. */
function mainDirection(items: Placed[]): number {
  const chars = new Map<number, number>();
  for (const p of items) {
    const q = Math.round(p.angle / (Math.PI / 2)) * (Math.PI / 2);
    const key = Math.abs(angleDiff(q, Math.PI)) < 1e-6 ? Math.PI : q;
    chars.set(key, (chars.get(key) ?? 0) + p.str.replace(/\s/g, '').length);
  }
  let best = 0;
  for (const [k, n] of chars) if (n > (chars.get(best) ?? 0)) best = k;
  return best;
}

/**
 * pdf.js text items → words. An item is a run of text in one font along one baseline; it is split on whitespace
 * and its advance shared out by typical glyph widths (glyph-widths.ts). Words are rebuilt by geometry
 * (word-lines.ts), not by the order of the content stream. Text across the page's main direction is left out.
 * Coordinates: points, top-left origin (viewport space at scale 1, so /Rotate is applied).
 * Output is in reading order: lines top to bottom, words left to right.
 */
export function textItemsToWords(pdfjs: Pick<PdfJs, 'Util'>, viewportTransform: number[], items: ReadonlyArray<unknown>, styles: TextStyles): Word[] {
  const placed = items.map((it) => place(pdfjs, viewportTransform, it, styles)).filter((p): p is Placed => p !== null);
  const theta = mainDirection(placed);
  const [cos, sin] = [Math.cos(theta), Math.sin(theta)];
  // The frame of the main direction: u along the text, v across it (down the page when upright).
  const toFrame = (x: number, y: number) => ({ u: x * cos + y * sin, v: -x * sin + y * cos });
  const runs: Run[] = [];
  placed.forEach((p, index) => {
    // Whitespace items and line ends (hasEOL) say what follows in the content stream, not on the page: geometry
    // alone decides where words end.
    if (!p.str.trim() || angleDiff(p.angle, theta) > DIRECTION_TOLERANCE) return;
    const offsets = glyphOffsets(p.str, p.advance, p.size, p.family);
    const [dx, dy] = [Math.cos(p.angle), Math.sin(p.angle)];
    const singles = (p.str.match(/\S+/g) ?? []).every((t) => [...t].length === 1);
    for (const m of p.str.matchAll(/\S+/g)) {
      const start = m.index;
      const end = start + m[0].length;
      const a = toFrame(p.x + dx * offsets[start]!, p.y + dy * offsets[start]!);
      const b = toFrame(p.x + dx * offsets[end]!, p.y + dy * offsets[end]!);
      runs.push({
        text: m[0],
        u0: Math.min(a.u, b.u),
        u1: Math.max(a.u, b.u),
        v: (a.v + b.v) / 2,
        size: p.size,
        ascent: p.ascent,
        descent: p.descent,
        item: index,
        singles,
      });
    }
  });
  const words = runsToWords(runs).map((w) => {
    // Back from the frame to the page: the box around the word's corners.
    const xs: number[] = [];
    const ys: number[] = [];
    for (const u of [w.u0, w.u1]) {
      for (const v of [w.top, w.bottom]) {
        xs.push(u * cos - v * sin);
        ys.push(u * sin + v * cos);
      }
    }
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    return { text: w.text, x: round2(x), y: round2(y), width: round2(Math.max(...xs) - x), height: round2(Math.max(...ys) - y), confidence: 100 };
  });
  // Huge but finite numbers can still overflow on the way: a word without a finite box is left out.
  return words.filter((w) => [w.x, w.y, w.width, w.height].every(Number.isFinite));
}
