// Deskew of PP-OCR words: the page's dominant slope from its long segments, and word boxes turned back by it so the
// words of one printed line share a line again.

import { describe, expect, it } from 'vitest';
import { groupLines } from '../../../src/extraction/fields/layout.ts';
import type { RotatedRect } from '../../../src/extraction/ppocr/detect.ts';
import { deskewWords, dominantAngle } from '../../../src/extraction/ppocr/deskew.ts';
import type { Word } from '../../../src/extraction/types.ts';

const rect = (w: number, h: number, angle: number): RotatedRect => ({ cx: 0, cy: 0, w, h, angle, score: 0.9, pad: 2 });
const deg = (d: number) => (d * Math.PI) / 180;

/** The upright box of a word `length` × `thick` centred at (x, y) on a line turned by `a`. */
function tiltedWord(text: string, x: number, y: number, length: number, thick: number, a: number): Word {
  const w = length * Math.cos(a) + thick * Math.abs(Math.sin(a));
  const h = length * Math.abs(Math.sin(a)) + thick * Math.cos(a);
  return { text, x: x - w / 2, y: y - h / 2, width: w, height: h, confidence: 95 };
}

describe('deskew', () => {
  it('takes the length-weighted median slope of the long segments; short ones and level ones count as they are', () => {
    expect(dominantAngle([rect(300, 20, deg(4)), rect(200, 20, deg(3.8)), rect(40, 20, deg(20)), rect(100, 20, 0)])).toBeCloseTo(deg(3.8), 5);
    expect(dominantAngle([rect(300, 20, 0), rect(100, 20, deg(4))])).toBe(0);
    expect(dominantAngle([])).toBe(0);
  });

  it('puts the words of a line tilted by 4° back on one line, with their own length and height', () => {
    const a = deg(4);
    // "TOTAL" at the left end of a line, its amount 600 px to the right: 42 px lower on the page.
    const words = [tiltedWord('TOTAL', 100, 500, 100, 24, a), tiltedWord('12.50', 700, 500 + 600 * Math.tan(a), 90, 24, a)];
    const page = { page: 1, width: 800, height: 1200, words, source: 'ocr' as const, ms: 0 };
    expect(groupLines(page).map((l) => l.text)).toEqual(['TOTAL', '12.50']);
    const level = deskewWords(words, dominantAngle([rect(100, 24, a), rect(90, 24, a)]), 800, 1200);
    expect(level[0]!.width).toBeCloseTo(100, 3);
    expect(level[0]!.height).toBeCloseTo(24, 3);
    expect(level[1]!.y + level[1]!.height / 2).toBeCloseTo(level[0]!.y + level[0]!.height / 2, 0);
    expect(groupLines({ ...page, words: level }).map((l) => l.text.replace(/\s+/g, ' '))).toEqual(['TOTAL 12.50']);
  });

  it('leaves a level page as it is', () => {
    const words = [tiltedWord('TOTAL', 100, 500, 100, 24, 0)];
    expect(deskewWords(words, deg(0.1), 800, 1200)).toBe(words);
  });
});
