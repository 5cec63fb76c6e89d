// Where each character of a pdf.js text item sits. pdf.js gives a run's total advance, not its glyphs', so the
// advance is shared out by typical glyph widths of the font's kind (Helvetica's or Times's, in hundredths of an
// em, for ASCII; fixed pitch for monospace), scaled to the item's advance.

type Family = 'sans' | 'serif' | 'mono';

const table = (s: string) => s.split(' ').map((n) => Number(n) / 100);
/** Advance widths, hundredths of an em, for U+0020 … U+007E. */
const ASCII: Record<Exclude<Family, 'mono'>, number[]> = {
  sans: table(
    '28 28 36 56 56 89 67 22 33 33 39 58 28 33 28 28 56 56 56 56 56 56 56 56 56 56 28 28 58 58 58 56 102 67 67 72 72 67 ' +
      '61 78 72 28 50 67 56 83 72 78 67 78 72 67 61 72 67 94 67 67 61 28 28 28 47 56 22 56 56 50 56 56 28 56 56 22 22 50 22 ' +
      '83 56 56 56 56 33 50 28 56 50 72 50 50 50 33 26 33 58',
  ),
  serif: table(
    '25 33 41 50 50 83 78 33 33 33 50 56 25 33 25 28 50 50 50 50 50 50 50 50 50 50 28 28 56 56 56 44 92 72 67 67 72 61 ' +
      '56 72 72 33 39 72 61 89 72 72 56 72 67 56 61 72 72 94 72 72 61 33 28 33 47 50 33 44 50 44 50 44 33 50 50 28 28 50 28 ' +
      '78 50 50 50 50 33 39 28 50 50 72 50 50 44 48 20 48 54',
  ),
};

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/;

/** pdf.js's fallback family of a font (its `styles[…].fontFamily`) → the width table to use. */
export function familyOf(fontFamily: string | undefined): Family {
  return fontFamily === 'monospace' ? 'mono' : fontFamily === 'serif' ? 'serif' : 'sans';
}

/** Typical advance of one non-space character, in ems. */
export function glyphWidth(ch: string, family: Family): number {
  if (family === 'mono') return 0.6;
  if (WIDE.test(ch)) return 1;
  const base = ch.normalize('NFD').charCodeAt(0);
  return base >= 32 && base <= 126 ? ASCII[family][base - 32]! : 0.55;
}

/**
 * Offsets (points) of each UTF-16 position of `str` and of its end (`str.length + 1` numbers), for an item of
 * `advance` points at `size` points: glyphs at their typical widths, spaces at a plain space's, scaled to fit.
 * (Giving the spaces whatever the glyphs leave over fails on bold faces: every shortfall of the table lands in them.)
 */
export function glyphOffsets(str: string, advance: number, size: number, family: Family): number[] {
  const chars = [...str];
  const raw = chars.map((c) => (/\s/.test(c) ? (family === 'mono' ? 0.6 : 0.28) : glyphWidth(c, family)) * size);
  const scale = advance / (raw.reduce((s, w) => s + w, 0) || 1);
  const out = [0];
  let acc = 0;
  chars.forEach((c, i) => {
    acc += raw[i]! * scale;
    for (let k = 0; k < c.length; k++) out.push(acc);
  });
  return out;
}
