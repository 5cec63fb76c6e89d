// PP-OCR text recognition around the model: a detected segment → a 48 px high crop along its baseline, and the
// model's CTC output → words with boxes.
//
// The recogniser reads a whole segment ("TOTAL RM 12.00"); the engine needs words with positions. CTC emits each
// character at one time step (8 input pixels), so the steps give every character's x along the segment: words
// split at spaces, at spaces the model hinted at (a space probability between two characters, where the ink leaves
// room) and at wide ink gaps it hinted at least faintly; each word's box spans its characters.

import type { Word } from '../types.ts';
import type { RotatedRect } from './detect.ts';

/** Model input height (PP-OCRv4 rec: 3 × 48 × W). */
export const REC_HEIGHT = 48;
/** Input pixels per CTC time step. */
const STEP = 8;
/** A crop is at most this wide (≈ 40 characters per 48 px line height are plenty; longer segments are squeezed). */
const MAX_REC_WIDTH = REC_HEIGHT * 40;

export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface LineCrop {
  rect: RotatedRect;
  /** RGB, REC_HEIGHT × width. */
  pixels: Uint8Array;
  width: number;
}

/**
 * Crops are sampled 0.8 times as wide as the segment's proportions: the unclipped segment leaves margins above and
 * below the text, and the squeezed line reads better (dev receipts, even half: totals 60 -> 62 of 63, merchant
 * unchanged; 0.7 and 0.9 read worse) and costs a fifth less recognition.
 */
const REC_ASPECT = 0.8;
/** Bilinear sample of the segment's rectangle into a REC_HEIGHT-high crop (supersampled k×k when the text is k times larger). */
export function cropSegment(src: RgbImage, rect: RotatedRect): LineCrop {
  const width = Math.max(STEP, Math.min(MAX_REC_WIDTH, Math.round((REC_ASPECT * REC_HEIGHT * rect.w) / Math.max(1, rect.h))));
  const pixels = new Uint8Array(width * REC_HEIGHT * 3);
  const c = Math.cos(rect.angle);
  const s = Math.sin(rect.angle);
  const du = rect.w / width;
  const dv = rect.h / REC_HEIGHT;
  const k = Math.max(1, Math.min(4, Math.round(Math.max(du, dv))));
  const { data, width: W, height: H } = src;
  let r = 0;
  let g = 0;
  let b = 0;
  for (let i = 0; i < REC_HEIGHT; i++) {
    for (let j = 0; j < width; j++) {
      r = g = b = 0;
      for (let a = 0; a < k; a++) {
        const v = (i + (a + 0.5) / k) * dv - rect.h / 2;
        for (let q = 0; q < k; q++) {
          const u = (j + (q + 0.5) / k) * du - rect.w / 2;
          // Pixel-centre coordinates; outside the image reads as white paper.
          const x = rect.cx + u * c - v * s - 0.5;
          const y = rect.cy + u * s + v * c - 0.5;
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          if (x0 < 0 || y0 < 0 || x0 + 1 >= W || y0 + 1 >= H) {
            r += 255;
            g += 255;
            b += 255;
            continue;
          }
          const fx = x - x0;
          const fy = y - y0;
          const w00 = (1 - fx) * (1 - fy);
          const w01 = fx * (1 - fy);
          const w10 = (1 - fx) * fy;
          const w11 = fx * fy;
          const p00 = (y0 * W + x0) * 3;
          const p10 = p00 + W * 3;
          r += data[p00]! * w00 + data[p00 + 3]! * w01 + data[p10]! * w10 + data[p10 + 3]! * w11;
          g += data[p00 + 1]! * w00 + data[p00 + 4]! * w01 + data[p10 + 1]! * w10 + data[p10 + 4]! * w11;
          b += data[p00 + 2]! * w00 + data[p00 + 5]! * w01 + data[p10 + 2]! * w10 + data[p10 + 5]! * w11;
        }
      }
      const o = (i * width + j) * 3;
      const n = k * k;
      pixels[o] = r / n;
      pixels[o + 1] = g / n;
      pixels[o + 2] = b / n;
    }
  }
  return { rect, pixels, width };
}

/** A batch of crops as the model's input: BGR, (x / 255 − 0.5) / 0.5, padded with 0 to the widest crop. */
export function batchTensor(crops: LineCrop[]): { data: Float32Array; width: number } {
  const width = Math.max(...crops.map((c) => c.width));
  const plane = REC_HEIGHT * width;
  const data = new Float32Array(crops.length * 3 * plane);
  crops.forEach((crop, n) => {
    const base = n * 3 * plane;
    for (let i = 0; i < REC_HEIGHT; i++) {
      for (let j = 0; j < crop.width; j++) {
        const o = (i * crop.width + j) * 3;
        const t = i * width + j;
        // Channel order BGR, as PaddleOCR reads images with OpenCV.
        data[base + t] = crop.pixels[o + 2]! / 127.5 - 1;
        data[base + plane + t] = crop.pixels[o + 1]! / 127.5 - 1;
        data[base + 2 * plane + t] = crop.pixels[o]! / 127.5 - 1;
      }
    }
  });
  return { data, width };
}

export interface Char {
  ch: string;
  step: number;
  prob: number;
  /** The highest probability the model gave a space at the steps since the previous character (0 for the first). */
  space: number;
}

/** Greedy CTC decoding of one crop's output rows (`steps` × `classes`): characters with their time step. */
export function ctcDecode(out: Float32Array, offset: number, steps: number, classes: number, dictionary: readonly string[]): Char[] {
  const chars: Char[] = [];
  // PaddleOCR's dictionary ends with the space (use_space_char): its class is the last.
  const spaceClass = dictionary[classes - 2] === ' ' ? classes - 1 : -1;
  let prev = -1;
  let space = 0;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    let bestP = out[row]!;
    for (let c = 1; c < classes; c++) {
      const p = out[row + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== prev) {
      chars.push({ ch: dictionary[best - 1] ?? '', step: t, prob: bestP, space: chars.length ? space : 0 });
      space = 0;
    } else if (spaceClass > 0 && best !== spaceClass) space = Math.max(space, out[row + spaceClass]!);
    prev = best;
  }
  return chars;
}

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
export function cropWords(chars: Char[], crop: LineCrop): Word[] {
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
    const text = cleanText(g.map((c) => c.ch).join(''));
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
