// PP-OCR words from the recogniser's CTC output: where a line breaks into words when the model dropped its spaces.

import { describe, expect, it } from 'vitest';
import { ctcDecode, REC_HEIGHT, type Char, type LineCrop } from '../../../src/extraction/ppocr/recognize.ts';
import { cropWords } from '../../../src/extraction/ppocr/segment-words.ts';

/** A white crop with one black glyph block (16 px wide, 40 px high) per character at the given left edges. */
function crop(lefts: number[], width: number): LineCrop {
  const pixels = new Uint8Array(width * REC_HEIGHT * 3).fill(255);
  for (const x0 of lefts) for (let i = 4; i < 44; i++) for (let j = x0; j < x0 + 16; j++) pixels.fill(0, (i * width + j) * 3, (i * width + j) * 3 + 3);
  return { rect: { cx: width / 2, cy: REC_HEIGHT / 2, w: width, h: REC_HEIGHT, angle: 0, score: 1, pad: 0 }, pixels, width };
}

/** Characters at their glyphs' centres (8 px per CTC step), with the space probability before each. */
const chars = (text: string, lefts: number[], space: Record<number, number> = {}): Char[] =>
  [...text].map((ch, i) => ({ ch, step: Math.floor((lefts[i]! + 8) / 8), prob: 0.99, space: space[i] ?? 0 }));

/** Four glyphs, 4 px apart within a word, `gap` px between the second and third. */
const lefts = (gap: number) => [0, 20, 36 + gap, 56 + gap];
const texts = (cs: Char[], c: LineCrop) => cropWords(cs, c).map((w) => w.text);

describe('PP-OCR word breaks', () => {
  it('keeps the space probability the model gave between two characters', () => {
    // Classes: blank, A, B, space; steps: A, blank (space 0.3), blank (0.2), B.
    const rows = [
      [0.1, 0.8, 0.05, 0.05],
      [0.6, 0.05, 0.05, 0.3],
      [0.7, 0.05, 0.05, 0.2],
      [0.1, 0.05, 0.8, 0.05],
    ];
    const out = ctcDecode(new Float32Array(rows.flat()), 0, rows.length, 4, ['A', 'B', ' ']);
    expect(out.map((c) => [c.ch, c.step, c.space])).toEqual([
      ['A', 0, 0],
      ['B', 3, expect.closeTo(0.3, 5)],
    ]);
  });

  it('breaks where the model hinted at a space and the ink leaves room for one', () => {
    const l = lefts(12);
    expect(texts(chars('ABCD', l, { 2: 0.3 }), crop(l, 96))).toEqual(['AB', 'CD']);
    // The same gap with no hint is kerning.
    expect(texts(chars('ABCD', l, { 2: 0.01 }), crop(l, 96))).toEqual(['ABCD']);
  });

  it('does not break at a hint where the glyphs nearly touch', () => {
    const l = lefts(2);
    expect(texts(chars('ABCD', l, { 2: 0.4 }), crop(l, 96))).toEqual(['ABCD']);
  });

  it('breaks at a wide ink gap only when the model saw at least a faint space in it', () => {
    const l = lefts(24);
    expect(texts(chars('ABCD', l, { 2: 0.05 }), crop(l, 112))).toEqual(['AB', 'CD']);
    expect(texts(chars('ABCD', l, { 2: 0.01 }), crop(l, 112))).toEqual(['ABCD']);
  });

  it('never splits a number on a hint alone', () => {
    const l = lefts(12);
    expect(texts(chars('1250', l, { 2: 0.4 }), crop(l, 96))).toEqual(['1250']);
  });

  it('reads the gap beside a narrow letter against the line: kept in a monospaced word, a break in proportional text', () => {
    // Monospaced: every gap is wide (8 px); the 14 px gap around the "l" is its side bearing, not a space.
    const mono = [0, 24, 48, 78, 102, 126];
    expect(texts(chars('ancler', mono, { 3: 0.3 }), crop(mono, 160))).toEqual(['ancler']);
    // Proportional: letters 4 px apart, so the same 14 px after an "l" is the space the model hinted at.
    const prop = [0, 20, 40, 70, 90, 110];
    expect(texts(chars('ablPcd', prop, { 3: 0.3 }), crop(prop, 160))).toEqual(['abl', 'Pcd']);
  });
});
