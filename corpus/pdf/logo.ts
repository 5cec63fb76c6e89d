// A name drawn as a logo: the glyph outlines of a bold sans face written as vector paths, so the name is on the page
// but not in the text layer (issue 48: sellers whose name is only in their logo). The face is the Liberation Sans
// Bold that pdfjs-dist ships, so every machine draws the same paths; pdfkit opens it (fontkit) and, since no text is
// written in it, never embeds it.

import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
export const LOGO_FONT = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Bold.ttf');

interface GlyphPath {
  translate(x: number, y: number): GlyphPath;
  toSVG(): string;
}
interface OutlineFont {
  unitsPerEm: number;
  ascent: number;
  layout(s: string): { glyphs: Array<{ path: GlyphPath }>; positions: Array<{ xAdvance: number; xOffset: number; yOffset: number }> };
}

export interface Outline {
  /** SVG path data in font units, y up, the baseline at 0. */
  d: string;
  /** Width in points at `size`. */
  width: number;
  /** Scale from font units to points, and the ascent in points (from the top of the line to the baseline). */
  scale: number;
  ascent: number;
}

/** The outline of `s` at `size` points. */
export function outline(doc: PDFKit.PDFDocument, s: string, size: number): Outline {
  doc.font(LOGO_FONT);
  // pdfkit keeps fontkit's font on its font object (no public accessor).
  const font = (doc as unknown as { _font: { font: OutlineFont } })._font.font;
  const run = font.layout(s);
  let x = 0;
  const parts: string[] = [];
  run.glyphs.forEach((g, i) => {
    const p = run.positions[i]!;
    parts.push(g.path.translate(x + p.xOffset, p.yOffset).toSVG());
    x += p.xAdvance;
  });
  const scale = size / font.unitsPerEm;
  return { d: parts.join(' '), width: x * scale, scale, ascent: font.ascent * scale };
}
