// Greyscale page images as raw 8-bit buffers, and the steps the scan and photo modes share: tone, blur, noise,
// JPEG. Everything is seeded (corpus/random.ts) or deterministic (sharp): the same input gives the same bytes.

import sharp from 'sharp';
import type { Rng } from '../random.ts';

export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

export const blank = (width: number, height: number, value = 255): Grey => ({ data: new Uint8Array(width * height).fill(value), width, height });

const raw = (img: Grey) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } });

/** Decodes any image sharp reads (PNG from the rasteriser, a JPEG) into one grey channel. */
export async function decodeGrey(bytes: Uint8Array): Promise<Grey> {
  const { data, info } = await sharp(bytes).grayscale().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** Gaussian blur (sharp needs σ ≥ 0.3; below it the image is returned as it is). */
export async function blur(img: Grey, sigma: number): Promise<Grey> {
  if (sigma < 0.3) return img;
  const data = await raw(img).blur(sigma).toColourspace('b-w').raw().toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: img.width, height: img.height };
}

/** A one-channel (grey) baseline JPEG at `quality`; libjpeg writes the same bytes for the same pixels. */
export const toJpeg = (img: Grey, quality: number): Promise<Buffer> => raw(img).toColourspace('b-w').jpeg({ quality, mozjpeg: false }).toBuffer();

/** Printed paper: white becomes the paper's tone and black the ink's (a scan or photo never reaches 0 and 255). */
export function tone(img: Grey, paper: number, ink: number): void {
  const k = (paper - ink) / 255;
  for (let i = 0; i < img.data.length; i++) img.data[i] = Math.round(ink + img.data[i]! * k);
}

/** A standard normal sample (Box–Muller) from the seeded stream. */
export function gaussian(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** Sensor or scanner noise: every pixel moved by N(0, σ) grey levels. */
export function addNoise(img: Grey, sigma: number, rng: Rng): void {
  for (let i = 0; i < img.data.length; i++) img.data[i] = clamp(img.data[i]! + sigma * gaussian(rng));
}

export const clamp = (v: number): number => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

/** Uniform in [lo, hi). */
export const between = (rng: Rng, lo: number, hi: number): number => lo + (hi - lo) * rng.next();
