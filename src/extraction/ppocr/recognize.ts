// PP-OCR text recognition around the model: a detected segment → a 48 px high crop along its baseline, and the
// model's CTC output → characters with their time steps (segment-words.ts makes words with boxes of them).
//
// The recogniser reads a whole segment ("TOTAL RM 12.00"); the engine needs words with positions. CTC emits each
// character at one time step (8 input pixels), so the steps give every character's x along the segment.

import type { RotatedRect } from './detect.ts';
import type { Alternative } from './lexicon.ts';

/** Model input height (PP-OCRv4 rec: 3 × 48 × W). */
export const REC_HEIGHT = 48;
/** Input pixels per CTC time step. */
export const STEP = 8;
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
 * Bilinear sample of the segment's rectangle into a REC_HEIGHT-high crop (supersampled k×k when the text is k times
 * larger), `aspect` times as wide as the segment's proportions (see PreprocessOptions.recAspect).
 */
export function cropSegment(src: RgbImage, rect: RotatedRect, aspect = 1): LineCrop {
  const width = Math.max(STEP, Math.min(MAX_REC_WIDTH, Math.round((aspect * REC_HEIGHT * rect.w) / Math.max(1, rect.h))));
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
  /** The next most likely characters at its step (allowed classes only, at most three). */
  alts?: Alternative[];
}

/** What a Latin-script page can print: ASCII, Latin letters with diacritics, typographic quotes, dashes and currency signs (after NFKC). */
const LATIN_TEXT = /^[\x20-\x7E\u00A0-\u024F\u2010-\u2015\u2018-\u201F\u2022\u2026\u20AC\u2116\u2122]{1,3}$/;

/**
 * The classes a decoder may pick on a Latin-script page (blank included): the dictionary is Chinese-English, and where
 * the model gives a Latin letter a little less than a Chinese character, a shape or a Cyrillic look-alike, the Latin
 * letter is the reading. Dropping the foreign character after decoding instead loses the letter ("IRST CITY").
 */
export function latinClasses(dictionary: readonly string[]): Uint8Array {
  const allowed = new Uint8Array(dictionary.length + 1);
  allowed[0] = 1;
  dictionary.forEach((ch, i) => {
    if (LATIN_TEXT.test(ch.normalize('NFKC'))) allowed[i + 1] = 1;
  });
  return allowed;
}

/** The allowed classes but the blank, as a list: a Latin page's ~300 of the dictionary's 6,600 are all a step reads. */
const allowedLists = new WeakMap<Uint8Array, Int32Array>();
function classList(classes: number, allowed?: Uint8Array): Int32Array {
  if (!allowed) return Int32Array.from({ length: classes - 1 }, (_, i) => i + 1);
  let list = allowedLists.get(allowed);
  if (!list) {
    list = Int32Array.from(Array.from(allowed).flatMap((ok, c) => (ok && c > 0 ? [c] : [])));
    allowedLists.set(allowed, list);
  }
  return list;
}

/**
 * Greedy CTC decoding of one crop's output rows (`steps` × `classes`): characters with their time step. With
 * `allowed`, each step's best class is chosen among the allowed ones only.
 */
export function ctcDecode(out: Float32Array, offset: number, steps: number, classes: number, dictionary: readonly string[], allowed?: Uint8Array): Char[] {
  const chars: Char[] = [];
  const list = classList(classes, allowed);
  // PaddleOCR's dictionary ends with the space (use_space_char): its class is the last.
  const spaceClass = dictionary[classes - 2] === ' ' ? classes - 1 : -1;
  let prev = -1;
  let space = 0;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    let bestP = out[row]!;
    for (let k = 0; k < list.length; k++) {
      const c = list[k]!;
      const p = out[row + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== prev) {
      chars.push({
        ch: dictionary[best - 1] ?? '',
        step: t,
        prob: bestP,
        space: chars.length ? space : 0,
        alts: alternatives(out, row, list, best, dictionary),
      });
      space = 0;
    } else if (spaceClass > 0 && best !== spaceClass) space = Math.max(space, out[row + spaceClass]!);
    prev = best;
  }
  return chars;
}

/** Below this probability a class is no alternative reading. */
const MIN_ALTERNATIVE = 0.01;

/** The three most likely characters of a step besides `best` and the blank, among the classes of `list`. */
function alternatives(out: Float32Array, row: number, list: Int32Array, best: number, dictionary: readonly string[]): Alternative[] {
  const top: Alternative[] = [];
  for (let k = 0; k < list.length; k++) {
    const c = list[k]!;
    const p = out[row + c]!;
    if (p < MIN_ALTERNATIVE || c === best || (top.length === 3 && p <= top[2]!.p)) continue;
    top.push({ ch: dictionary[c - 1] ?? '', p });
    top.sort((a, b) => b.p - a.p);
    if (top.length > 3) top.pop();
  }
  return top;
}
