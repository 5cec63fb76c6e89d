// The photo mode's pixel passes: folds on the flat sheet (before the perspective warp) and light on the whole
// frame (after it).

import { clamp, type Grey } from './grey.ts';
import type { Crease, Light } from './photo.ts';

/** The sheet with its folds: beyond each fold the paper is shifted by `shift` px, and the fold line is darker or lighter. */
export function fold(img: Grey, creases: readonly Crease[]): Grey {
  if (!creases.length) return img;
  const { data, width: w, height: h } = img;
  const out = new Uint8Array(data.length);
  const at = (x: number, y: number) => data[Math.min(h - 1, Math.max(0, y)) * w + Math.min(w - 1, Math.max(0, x))]!;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let u = x;
      let v = y;
      let add = 0;
      for (const c of creases) {
        const d = (x - c.x) * c.nx + (y - c.y) * c.ny;
        if (d > 0) ((u -= c.shift * c.nx), (v -= c.shift * c.ny));
        if (Math.abs(d) < 4 * c.width) add += c.amplitude * Math.exp(-(d * d) / (2 * c.width * c.width));
      }
      let value: number;
      if (u === x && v === y) value = data[y * w + x]!;
      else {
        const x0 = Math.floor(u);
        const y0 = Math.floor(v);
        const fx = u - x0;
        const fy = v - y0;
        value = (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
      }
      out[y * w + x] = clamp(value + add);
    }
  }
  return { data: out, width: w, height: h };
}

/** Uneven light over the frame: vignetting, a gradient, the exposure and a soft shadow multiply every pixel. */
export function light(img: Grey, l: Light): void {
  const { data, width: w, height: h } = img;
  const r2 = (w * w + h * h) / 4;
  for (let y = 0; y < h; y++) {
    const dy = y - h / 2;
    for (let x = 0; x < w; x++) {
      const dx = x - w / 2;
      const vx = x - l.cx;
      const vy = y - l.cy;
      let k = l.exposure * (1 - (l.vignette * (vx * vx + vy * vy)) / r2) * (1 + l.gradient * (dx * l.gx + dy * l.gy));
      if (l.shadow) {
        const t = (dx * l.shadow.sx + dy * l.shadow.sy - l.shadow.offset) / l.shadow.soft;
        k *= 1 - l.shadow.depth * smoothstep(t);
      }
      const i = y * w + x;
      data[i] = clamp(data[i]! * k);
    }
  }
}

/** 0 before −½, 1 after ½, a smooth ramp between. */
const smoothstep = (t: number): number => (t <= -0.5 ? 0 : t >= 0.5 ? 1 : (t + 0.5) * (t + 0.5) * (3 - 2 * (t + 0.5)));
