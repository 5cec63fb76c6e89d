// pdf.js text items → positioned words in reading order (pure: works on the items, not on a pdf.js document).

import type { Word } from './types.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

interface RawTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
  hasEOL?: boolean;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * pdf.js text items → words. An item is a run of text in one font along one baseline; it is split on whitespace
 * and its advance width is shared out by character count. Coordinates: points, top-left origin (viewport space at
 * scale 1, so /Rotate is applied). Words that pdf.js split across items with no gap between them are re-joined.
 * Output is in reading order: lines top to bottom, words left to right.
 */
export function textItemsToWords(
  pdfjs: Pick<PdfJs, 'Util'>,
  viewportTransform: number[],
  items: ReadonlyArray<unknown>,
  styles: Record<string, { ascent?: number; descent?: number; vertical?: boolean }>,
): Word[] {
  interface Piece extends Word {
    /** Continues the previous piece's word (no whitespace between the items and they touch). */
    joinable: boolean;
    endsClean: boolean;
    baseline: number;
  }
  const pieces: Piece[] = [];
  let prevEndedWithSpace = true;
  for (const raw of items) {
    const item = raw as RawTextItem;
    if (typeof item.str !== 'string' || !Array.isArray(item.transform)) continue;
    const str = item.str;
    if (str.length === 0) {
      if (item.hasEOL) prevEndedWithSpace = true;
      continue;
    }
    const tx = pdfjs.Util.transform(viewportTransform, item.transform) as number[];
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = tx;
    const fontHeight = Math.hypot(c, d) || Math.hypot(a, b) || item.height || 1;
    const angle = Math.atan2(b, a);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    // Advance width in viewport units: item.width is in the page's user space along the text direction.
    const vtScale = Math.hypot(viewportTransform[0] ?? 1, viewportTransform[1] ?? 0) || 1;
    const totalWidth = Math.abs(item.width) * vtScale;
    const style = styles[item.fontName];
    const ascentRatio = style?.ascent && style.ascent > 0.3 && style.ascent < 1.3 ? style.ascent : 0.8;
    const descentRatio = style?.descent && style.descent < 0 && style.descent > -0.6 ? -style.descent : 0.2;
    const charW = totalWidth / str.length;

    const re = /\S+/g;
    let m: RegExpExecArray | null;
    let first = true;
    while ((m = re.exec(str)) !== null) {
      const start = m.index;
      const text = m[0];
      const along0 = start * charW;
      const along1 = (start + text.length) * charW;
      // Corners of the word box in viewport space (y down): baseline at (e,f), up = -fontHeight along the normal.
      const pts: Array<[number, number]> = [];
      for (const along of [along0, along1]) {
        const bx = e + cos * along;
        const by = f + sin * along;
        // Normal pointing up on the page (y-down space): rotate direction (cos, sin) by -90° → (sin, -cos).
        pts.push([bx + sin * fontHeight * ascentRatio, by - cos * fontHeight * ascentRatio]);
        pts.push([bx - sin * fontHeight * descentRatio, by + cos * fontHeight * descentRatio]);
      }
      const xs = pts.map((p) => p[0]);
      const ys = pts.map((p) => p[1]);
      const x0 = Math.min(...xs);
      const y0 = Math.min(...ys);
      pieces.push({
        text,
        x: x0,
        y: y0,
        width: Math.max(...xs) - x0,
        height: Math.max(...ys) - y0,
        confidence: 100,
        joinable: first && start === 0 && !prevEndedWithSpace,
        endsClean: start + text.length === str.length,
        baseline: f,
      });
      first = false;
    }
    prevEndedWithSpace = /\s$/.test(str) || !!item.hasEOL || pieces.length === 0 || !pieces[pieces.length - 1]!.endsClean;
  }

  // Re-join words pdf.js split across items (kerning, font switches inside a word).
  const joined: Piece[] = [];
  for (const p of pieces) {
    const prev = joined[joined.length - 1];
    if (
      prev &&
      p.joinable &&
      Math.abs(p.baseline - prev.baseline) < 0.25 * Math.max(prev.height, p.height) &&
      p.x - (prev.x + prev.width) < 0.12 * Math.min(prev.height, p.height) &&
      p.x - (prev.x + prev.width) > -0.3 * Math.min(prev.height, p.height)
    ) {
      const x1 = Math.max(prev.x + prev.width, p.x + p.width);
      const y1 = Math.max(prev.y + prev.height, p.y + p.height);
      prev.text += p.text;
      prev.x = Math.min(prev.x, p.x);
      prev.y = Math.min(prev.y, p.y);
      prev.width = x1 - prev.x;
      prev.height = y1 - prev.y;
      continue;
    }
    joined.push({ ...p });
  }

  const words: Word[] = joined.map((p) => ({
    text: p.text,
    x: round2(p.x),
    y: round2(p.y),
    width: round2(p.width),
    height: round2(p.height),
    confidence: 100,
  }));
  return sortReadingOrder(words);
}

/**
 * Reading order for positioned words: group into lines (vertical overlap with the line's band), lines top to
 * bottom, words left to right. Stable for words already in order.
 */
export function sortReadingOrder(words: Word[]): Word[] {
  if (words.length < 2) return words.slice();
  const byTop = words
    .map((w, i) => ({ w, i, cy: w.y + w.height / 2 }))
    .sort((p, q) => p.cy - q.cy || p.i - q.i);
  const lines: Array<{ cy: number; h: number; items: typeof byTop }> = [];
  for (const p of byTop) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(p.cy - line.cy) <= 0.5 * Math.min(line.h, p.w.height || line.h)) {
      line.items.push(p);
      const n = line.items.length;
      line.cy = (line.cy * (n - 1) + p.cy) / n;
      line.h = Math.max(line.h, p.w.height);
    } else {
      lines.push({ cy: p.cy, h: p.w.height || 1, items: [p] });
    }
  }
  return lines.flatMap((l) => l.items.sort((p, q) => p.w.x - q.w.x || p.i - q.i).map((p) => p.w));
}
