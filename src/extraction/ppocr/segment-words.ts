// Words of one recognised segment: where a line read by PP-OCR breaks into words (the Chinese-English model drops
// most spaces of Latin text), each word boxed in source-image pixels from the CTC steps of its characters.

import type { Word } from '../types.ts';
import { readWithLexicon, type Lexicon } from './lexicon.ts';
import { REC_HEIGHT, STEP, type Char, type LineCrop } from './recognize.ts';

/** Characters the dictionary spells in full width or as look-alikes; CJK characters on a Latin page are misreadings. */
function cleanText(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]/g, '')
    .trim();
}

/** A blank gap at least this wide (× the ink height) between two characters is a space the model did not read. */
const SPACE_GAP = 0.35;
/** … and this many times the crop's median gap between characters. */
const SPACE_OVER_TYPICAL = 2.4;
/** Between two digits (a number's "1" leaves wide gaps) the gap must be wider. */
const DIGIT_SPACE_GAP = 0.5;
/** A space probability this high between two characters (not both digits) is a word break … */
const HINTED_SPACE = 0.1;
/** … where the ink-free gap is at least this wide (× ink height). */
const HINTED_SPACE_GAP = 0.2;
/** Letters much narrower than their cell in a monospaced font; beside one, a hinted break is this many typical gaps wide. */
const NARROW = /^[ilIj1!|.,:;'`]$/;
const NARROW_OVER_TYPICAL = 3;
/** Below this space probability a wide gap is no word break (letter-spaced or widely kerned text). */
const GAP_NEEDS_HINT = 0.03;
/** Never split before closing punctuation or after opening, nor around a decimal separator between digits. */
const NO_SPLIT_BEFORE = /^[:;.,)%\]]$/;
const NO_SPLIT_AFTER = /^[(\[]$/;

/** Per crop column: does it hold ink? And the ink's height (rows from the first to the last with ink). */
export function inkProfile(crop: LineCrop): { ink: Uint8Array; height: number } {
  const n = REC_HEIGHT * crop.width;
  const lum = new Uint8Array(n);
  const hist = new Uint32Array(256);
  for (let i = 0; i < n; i++) {
    const v = (crop.pixels[i * 3]! + crop.pixels[i * 3 + 1]! + crop.pixels[i * 3 + 2]!) / 3;
    lum[i] = v;
    hist[lum[i]!]!++;
  }
  // Ink: darker than halfway between the darkest 2% and the paper (90th percentile).
  const at = (q: number) => {
    let acc = 0;
    for (let v = 0; v < 256; v++) if ((acc += hist[v]!) >= q * n) return v;
    return 255;
  };
  const threshold = (at(0.02) + at(0.9)) / 2;
  const ink = new Uint8Array(crop.width);
  let top = REC_HEIGHT;
  let bottom = -1;
  for (let i = 0; i < REC_HEIGHT; i++) {
    for (let j = 0; j < crop.width; j++) {
      if (lum[i * crop.width + j]! >= threshold) continue;
      ink[j] = 1;
      if (i < top) top = i;
      bottom = i;
    }
  }
  return { ink, height: Math.max(1, bottom - top + 1) };
}

/** The widest run of ink-free columns between two CTC steps. */
export function widestGap(ink: Uint8Array, from: number, to: number): number {
  let best = 0;
  let run = 0;
  for (let j = from * STEP + STEP / 2; j < Math.min(ink.length, to * STEP + STEP / 2); j++) {
    run = ink[j] ? 0 : run + 1;
    if (run > best) best = run;
  }
  return best;
}

/** Whether the blank between two adjacent characters is a word break the model left out (`gap`: × ink height). */
function isSpace(prev: Char, next: Char, gap: number, typical: number): boolean {
  if (NO_SPLIT_BEFORE.test(next.ch) || NO_SPLIT_AFTER.test(prev.ch)) return false;
  // "12.50", "21:17", "28/02": a separator followed by a digit stays with it.
  if (/^[.,:/-]$/.test(prev.ch) && /\d/.test(next.ch)) return false;
  const digits = /\d/.test(prev.ch) && /\d/.test(next.ch);
  // The model's own hint: a space it did not quite read, where the ink leaves room for one ("GOLDEN[0.24]LEAF").
  // Beside a narrow letter the gap holds the letter's own side bearing, wide in a monospaced font ("Kanc lers"),
  // whose gaps between letters are all wide: there the break must also stand out from the line's typical gap.
  const narrow = NARROW.test(prev.ch) || NARROW.test(next.ch);
  const hinted = Math.max(HINTED_SPACE_GAP, narrow ? typical * NARROW_OVER_TYPICAL : 0);
  if (!digits && next.space >= HINTED_SPACE && gap >= hinted) return true;
  // A gap the model saw no space in at all is inside a word ("BAKE RY", "STAT ION" in a widely kerned header).
  if (next.space < GAP_NEEDS_HINT) return false;
  // Letter-spaced headers ("G O L D E N") leave wide gaps inside words: a break must stand out from the line's own.
  return gap >= Math.max(digits ? DIGIT_SPACE_GAP : SPACE_GAP, typical * SPACE_OVER_TYPICAL);
}

/**
 * Words of a decoded crop, boxed in source-image pixels. A word ends at a space the model read, or at a blank gap
 * in the crop as wide as a space (PP-OCR's Chinese-English model often drops the spaces of Latin text).
 */
export function cropWords(chars: Char[], crop: LineCrop, lexicon?: Lexicon): Word[] {
  const profile = inkProfile(crop);
  const gaps = chars.map((c, i) =>
    i > 0 && c.ch !== ' ' && chars[i - 1]!.ch !== ' ' ? widestGap(profile.ink, chars[i - 1]!.step, c.step) / profile.height : -1,
  );
  const inner = gaps.filter((g) => g >= 0).sort((a, b) => a - b);
  const typical = inner[Math.floor(inner.length / 2)] ?? 0;
  const groups: Char[][] = [];
  let cur: Char[] = [];
  chars.forEach((c, i) => {
    const last = cur[cur.length - 1];
    if (c.ch === ' ' || (last && isSpace(last, c, gaps[i]!, typical))) {
      if (cur.length) groups.push(cur);
      cur = c.ch === ' ' ? [] : [c];
    } else cur.push(c);
  });
  if (cur.length) groups.push(cur);
  const steps = chars.filter((c) => c.ch !== ' ').map((c) => c.step);
  const pitches = steps
    .slice(1)
    .map((s, i) => s - steps[i]!)
    .sort((a, b) => a - b);
  const pitch = Math.max(1.5, pitches[Math.floor(pitches.length / 2)] ?? 3);
  const words: Word[] = [];
  for (const g of groups) {
    const text = cleanText(lexicon ? readWithLexicon(g, lexicon) : g.map((c) => c.ch).join(''));
    if (!text) continue;
    const x0 = Math.max(0, (g[0]!.step + 0.5 - pitch / 2) * STEP);
    const x1 = Math.min(crop.width, (g[g.length - 1]!.step + 0.5 + pitch / 2) * STEP);
    words.push({ text, ...boxOf(crop, x0, x1), confidence: Math.round((g.reduce((s, c) => s + c.prob, 0) / g.length) * 1000) / 10 });
  }
  return words;
}

/** The upright box (source pixels) of the part of a crop between x0 and x1, without half of the unclip padding. */
function boxOf(crop: LineCrop, x0: number, x1: number): Pick<Word, 'x' | 'y' | 'width' | 'height'> {
  const { rect } = crop;
  const c = Math.cos(rect.angle);
  const s = Math.sin(rect.angle);
  const k = rect.w / crop.width;
  const u0 = x0 * k - rect.w / 2;
  const u1 = x1 * k - rect.w / 2;
  const half = Math.max(1, rect.h / 2 - rect.pad / 2);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const u of [u0, u1])
    for (const v of [-half, half]) {
      xs.push(rect.cx + u * c - v * s);
      ys.push(rect.cy + u * s + v * c);
    }
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}
