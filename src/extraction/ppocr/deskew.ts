// Deskew of the words of a tilted page. The detector follows each text line's slope and the recogniser reads the
// line along it, so the words are right; but their upright boxes keep the tilt: on a slip photographed 4° askew, a
// line's right end sits a line height lower than its start, and the layout joins it to the next line ("TOTAL" with
// the amount below). The page's dominant slope is taken from its long segments and the word boxes are turned back
// by it, about the page centre, into the frame where the lines are level.

import type { Word } from '../types.ts';
import type { RotatedRect } from './detect.ts';

/** Segments this many times longer than high have a reliable slope. */
const MIN_ASPECT = 2.5;
/**
 * Below this slope (radians, 1°) a page is left as read: across a slip's width its lines stay within half a line
 * height, which the layout tolerates (turning the boxes of such pages changed no line but nudged word heights by a
 * pixel, which the header rules compare).
 */
export const LEVEL = 0.0175;

/** The length-weighted median slope of the long segments (0 when there are none). */
export function dominantAngle(rects: readonly RotatedRect[]): number {
  const long = rects.filter((r) => r.w >= MIN_ASPECT * r.h && r.angle !== 0).sort((a, b) => a.angle - b.angle);
  const level = rects.filter((r) => r.w >= MIN_ASPECT * r.h && r.angle === 0).reduce((s, r) => s + r.w, 0);
  const total = long.reduce((s, r) => s + r.w, 0) + level;
  // Segments the detector read as level count as slope 0 (they sit in the middle of the sorted slopes).
  const sorted = [...long.filter((r) => r.angle < 0), { angle: 0, w: level }, ...long.filter((r) => r.angle > 0)];
  let acc = 0;
  for (const r of sorted) if ((acc += r.w) >= total / 2) return r.angle;
  return 0;
}

/**
 * The words turned by −angle about the page centre: each upright box is replaced by the box of the word's own
 * rectangle (length along the slope × height across it) at its turned centre.
 */
export function deskewWords(words: Word[], angle: number, width: number, height: number): Word[] {
  if (Math.abs(angle) < LEVEL) return words;
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const abs = Math.abs(s);
  const cos2 = c * c - s * s;
  const cx = width / 2;
  const cy = height / 2;
  return words.map((w) => {
    const mx = w.x + w.width / 2 - cx;
    const my = w.y + w.height / 2 - cy;
    // The upright box of a rectangle L × T turned by a: w = L·cos + T·|sin|, h = L·|sin| + T·cos.
    // A word the detector left upright (short, or off the page's slope) inverts to less: keep half of its box at least.
    const length = Math.max(w.width / 2, (w.width * c - w.height * abs) / cos2);
    const thick = Math.max(w.height / 2, (w.height * c - w.width * abs) / cos2);
    const x = cx + mx * c + my * s;
    const y = cy - mx * s + my * c;
    return { ...w, x: x - length / 2, y: y - thick / 2, width: length, height: thick };
  });
}
