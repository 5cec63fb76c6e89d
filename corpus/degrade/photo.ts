// Photo mode: a page photographed with a phone — the sheet lies on a table in a 3:4 frame, seen at an angle (a
// perspective quadrilateral), folded (creases: a thin darker or lighter line, the paper beyond it shifted a pixel
// or two), under uneven light (vignetting, a gradient) and often a soft shadow, slightly out of focus, noisy,
// saved as a JPEG of quality 60–90.

import type { Rng } from '../random.ts';
import { addNoise, between, blur, tone, toJpeg, type Grey } from './grey.ts';
import { fold, light } from './effects.ts';
import { homography, invert, warp, type Point } from './warp.ts';

/** Phone frames (8 and 12 megapixels, portrait). */
const FRAMES = [
  { width: 2448, height: 3264 },
  { width: 3024, height: 4032 },
] as const;

export interface Crease {
  /** A point of the fold line and its unit normal, in page pixels; the paper on the normal's side is shifted. */
  x: number;
  y: number;
  nx: number;
  ny: number;
  shift: number;
  /** Grey levels added on the line (negative: a darker line) and the line's half-width in pixels. */
  amplitude: number;
  width: number;
}

export interface Light {
  /** Vignetting: brightness falls by `vignette` × (r / half-diagonal)² from (cx, cy). */
  cx: number;
  cy: number;
  vignette: number;
  /** A linear gradient of ±`gradient` along the unit direction (gx, gy); the whole frame times `exposure`. */
  gx: number;
  gy: number;
  gradient: number;
  exposure: number;
  /** A soft shadow darkening by `depth` beyond the line at `offset` px along (sx, sy), over `soft` px; null: none. */
  shadow: { sx: number; sy: number; offset: number; soft: number; depth: number } | null;
}

export interface PhotoParams {
  /** Rendering resolution that makes the page fill its share of the frame. */
  dpi: number;
  frame: { width: number; height: number };
  /** Where the page's corners land in the frame: top-left, top-right, bottom-right, bottom-left. */
  corners: Point[];
  background: number;
  paper: number;
  ink: number;
  creases: Crease[];
  light: Light;
  blurSigma: number;
  noiseSigma: number;
  quality: number;
}

/** The photo of one page of `widthPt` × `heightPt` points. */
export function photoParams(rng: Rng, widthPt: number, heightPt: number): PhotoParams {
  const frame = rng.pick(FRAMES);
  const fill = between(rng, 0.72, 0.92);
  const dpi = Math.min(300, Math.min((fill * frame.height) / heightPt, (fill * frame.width) / widthPt) * 72);
  const pw = (widthPt * dpi) / 72;
  const ph = (heightPt * dpi) / 72;
  const unit = Math.hypot(frame.width, frame.height) / 2;
  const angle = (between(rng, -4, 4) * Math.PI) / 180;
  const cx = frame.width / 2 + between(rng, -0.04, 0.04) * frame.width;
  const cy = frame.height / 2 + between(rng, -0.04, 0.04) * frame.height;
  // Camera tilt: the far edge looks shorter (keystone) along both axes, and every corner moves a little more.
  const top = between(rng, -0.12, 0.04);
  const side = between(rng, -0.08, 0.08);
  const local: Point[] = [
    { x: -pw / 2 + (top / 2) * pw, y: -ph / 2 + (side / 2) * ph },
    { x: pw / 2 - (top / 2) * pw, y: -ph / 2 - (side / 2) * ph },
    { x: pw / 2, y: ph / 2 + (side / 2) * ph },
    { x: -pw / 2, y: ph / 2 - (side / 2) * ph },
  ].map((p) => ({ x: p.x + between(rng, -0.01, 0.01) * pw, y: p.y + between(rng, -0.01, 0.01) * ph }));
  let corners = local.map((p) => ({ x: cx + p.x * Math.cos(angle) - p.y * Math.sin(angle), y: cy + p.x * Math.sin(angle) + p.y * Math.cos(angle) }));
  // Keep the sheet inside the frame (1% margin).
  const fit = Math.min(
    1,
    ...corners.map((p) => Math.min((0.49 * frame.width) / Math.abs(p.x - frame.width / 2), (0.49 * frame.height) / Math.abs(p.y - frame.height / 2))),
  );
  corners = corners.map((p) => ({ x: frame.width / 2 + (p.x - frame.width / 2) * fit, y: frame.height / 2 + (p.y - frame.height / 2) * fit }));
  const creases = Array.from(
    {
      length: rng.weighted([
        [0, 3],
        [1, 4.5],
        [2, 2.5],
      ] as const),
    },
    () => crease(rng, pw, ph, dpi),
  );
  const g = between(rng, 0, 2 * Math.PI);
  const s = between(rng, 0, 2 * Math.PI);
  const shadowed = rng.chance(0.7);
  // The shadow covers 15–45% of the frame's extent along its direction.
  const reach = Math.abs(Math.cos(s)) * frame.width + Math.abs(Math.sin(s)) * frame.height;
  return {
    dpi,
    frame,
    corners,
    background: rng.int(50, 170),
    paper: rng.int(200, 245),
    ink: rng.int(20, 70),
    creases,
    light: {
      cx: frame.width * between(rng, 0.35, 0.65),
      cy: frame.height * between(rng, 0.35, 0.65),
      vignette: between(rng, 0.1, 0.35),
      gx: Math.cos(g),
      gy: Math.sin(g),
      gradient: between(rng, 0, 0.15) / unit,
      exposure: between(rng, 0.85, 1.05),
      shadow: shadowed
        ? {
            sx: Math.cos(s),
            sy: Math.sin(s),
            offset: reach * (0.5 - between(rng, 0.15, 0.45)),
            soft: between(rng, 0.03, 0.15) * unit,
            depth: between(rng, 0.25, 0.5),
          }
        : null,
    },
    blurSigma: between(rng, 0.5, 1.4),
    noiseSigma: between(rng, 2, 6),
    quality: rng.int(60, 90),
  };
}

/** A fold across the page, mostly along its width (letters are folded in thirds), sometimes along its height. */
function crease(rng: Rng, pw: number, ph: number, dpi: number): Crease {
  const across = rng.chance(0.75);
  const tilt = (between(rng, -3, 3) * Math.PI) / 180;
  const t = across ? Math.PI / 2 + tilt : tilt;
  return {
    x: across ? pw * between(rng, 0.1, 0.9) : pw * between(rng, 0.2, 0.8),
    y: across ? ph * between(rng, 0.2, 0.8) : ph * between(rng, 0.1, 0.9),
    nx: Math.cos(t),
    ny: Math.sin(t),
    shift: between(rng, 0.5, 2) * (rng.chance(0.5) ? 1 : -1),
    amplitude: between(rng, 15, 40) * (rng.chance(0.6) ? -1 : 1),
    width: (between(rng, 0.8, 2) * dpi) / 200,
  };
}

/** The photo's pixels before JPEG encoding. */
export async function photoPixels(page: Grey, p: PhotoParams, rng: Rng): Promise<Grey> {
  const img: Grey = { ...page, data: new Uint8Array(page.data) };
  tone(img, p.paper, p.ink);
  const folded = fold(img, p.creases);
  const pageCorners = [
    { x: 0, y: 0 },
    { x: folded.width, y: 0 },
    { x: folded.width, y: folded.height },
    { x: 0, y: folded.height },
  ];
  const shot = warp(folded, invert(homography(pageCorners, p.corners)), p.frame.width, p.frame.height, p.background);
  light(shot, p.light);
  const out = await blur(shot, p.blurSigma);
  addNoise(out, p.noiseSigma, rng);
  return out;
}

export async function photoPage(page: Grey, p: PhotoParams, rng: Rng): Promise<Buffer> {
  return toJpeg(await photoPixels(page, p, rng), p.quality);
}
