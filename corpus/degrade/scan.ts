// Scan mode: a page as a flatbed or feeder scanner gives it — grey, at 150–300 dpi, turned by up to ±2°, a little
// blurred and noisy, saved as a JPEG of quality 50–90. Parameters are drawn first (so tests can check them), then
// applied.

import type { Rng } from '../random.ts';
import { addNoise, between, blur, tone, toJpeg, type Grey } from './grey.ts';
import { invert, rotationAbout, warp } from './warp.ts';

export const SCAN_DPI = { min: 150, max: 300 } as const;
export const MAX_SKEW_DEG = 2;

export interface ScanParams {
  /** Counter-clockwise on the image, degrees. */
  skewDeg: number;
  /** Grey levels of the paper and of full ink after scanning. */
  paper: number;
  ink: number;
  blurSigma: number;
  /** Standard deviation of the pixel noise, in grey levels. */
  noiseSigma: number;
  quality: number;
}

/** One document's resolution: every page of a scan job is scanned at the same dpi. */
export const scanDpi = (rng: Rng): number => rng.int(SCAN_DPI.min, SCAN_DPI.max);

export function scanParams(rng: Rng): ScanParams {
  return {
    skewDeg: between(rng, -MAX_SKEW_DEG, MAX_SKEW_DEG),
    paper: rng.int(228, 250),
    ink: rng.int(15, 60),
    blurSigma: between(rng, 0.3, 1),
    noiseSigma: between(rng, 2, 7),
    quality: rng.int(50, 90),
  };
}

/** The page as pixels a scanner would hand over, before its JPEG encoding (the test measures the skew here). */
export async function scanPixels(page: Grey, p: ScanParams, rng: Rng): Promise<Grey> {
  const img: Grey = { ...page, data: new Uint8Array(page.data) };
  tone(img, p.paper, p.ink);
  const turned = warp(img, invert(rotationAbout(p.skewDeg, img.width / 2, img.height / 2)), img.width, img.height, p.paper);
  const out = await blur(turned, p.blurSigma);
  addNoise(out, p.noiseSigma, rng);
  return out;
}

export async function scanPage(page: Grey, p: ScanParams, rng: Rng): Promise<Buffer> {
  return toJpeg(await scanPixels(page, p, rng), p.quality);
}
