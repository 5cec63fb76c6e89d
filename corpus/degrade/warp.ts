// Geometric transforms on grey images: 3×3 homographies (a rotation is one too) and a warp by inverse mapping
// with bilinear sampling. sharp has no perspective warp; this one needs no native code and is fast enough
// (a 300 dpi A4 page, 8.7 Mpx, in a few hundred milliseconds).

import type { Grey } from './grey.ts';

/** Row-major 3×3 matrix: (x, y, 1) ↦ (m0 x + m1 y + m2, m3 x + m4 y + m5) / (m6 x + m7 y + m8). */
export type Mat3 = readonly [number, number, number, number, number, number, number, number, number];
export interface Point {
  x: number;
  y: number;
}

export function apply(m: Mat3, p: Point): Point {
  const w = m[6] * p.x + m[7] * p.y + m[8];
  return { x: (m[0] * p.x + m[1] * p.y + m[2]) / w, y: (m[3] * p.x + m[4] * p.y + m[5]) / w };
}

export function invert(m: Mat3): Mat3 {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-12) throw new Error('the transform is not invertible');
  const r = [A, -(b * i - c * h), b * f - c * e, B, a * i - c * g, -(a * f - c * d), C, -(a * h - b * g), a * e - b * d];
  return r.map((v) => v / det) as unknown as Mat3;
}

/** Rotation by `degrees` (counter-clockwise on screen, y pointing down) about (cx, cy). */
export function rotationAbout(degrees: number, cx: number, cy: number): Mat3 {
  const t = (-degrees * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  return [cos, -sin, cx - cos * cx + sin * cy, sin, cos, cy - sin * cx - cos * cy, 0, 0, 1];
}

/** The homography that takes the four points `from` to the four points `to` (solved by Gaussian elimination). */
export function homography(from: readonly Point[], to: readonly Point[]): Mat3 {
  if (from.length !== 4 || to.length !== 4) throw new Error('a homography needs four point pairs');
  const rows: number[][] = [];
  for (let k = 0; k < 4; k++) {
    const { x, y } = from[k]!;
    const { x: u, y: v } = to[k]!;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let c = 0; c < 8; c++) {
    let p = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(rows[r]![c]!) > Math.abs(rows[p]![c]!)) p = r;
    [rows[c], rows[p]] = [rows[p]!, rows[c]!];
    const pivot = rows[c]![c]!;
    if (Math.abs(pivot) < 1e-12) throw new Error('degenerate quadrilateral');
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = rows[r]![c]! / pivot;
      for (let k = c; k < 9; k++) rows[r]![k]! -= f * rows[c]![k]!;
    }
  }
  const h = rows.map((r, i) => r[8]! / r[i]!);
  return [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!, 1];
}

/**
 * The image `src` seen through `toSrc` (output pixel centre → source position): an output of `width` × `height`
 * whose every pixel is sampled bilinearly from the source; what falls outside the source is `background`.
 */
export function warp(src: Grey, toSrc: Mat3, width: number, height: number, background: number): Grey {
  const out = new Uint8Array(width * height);
  const { data, width: sw, height: sh } = src;
  const [a, b, c, d, e, f, g, h, i] = toSrc;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= sw || y >= sh ? background : data[y * sw + x]!);
  for (let y = 0; y < height; y++) {
    const py = y + 0.5;
    for (let x = 0; x < width; x++) {
      const px = x + 0.5;
      const w = g * px + h * py + i;
      const u = (a * px + b * py + c) / w - 0.5;
      const v = (d * px + e * py + f) / w - 0.5;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      if (x0 < -1 || y0 < -1 || x0 >= sw || y0 >= sh) {
        out[y * width + x] = background;
        continue;
      }
      const fx = u - x0;
      const fy = v - y0;
      const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
      const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
      out[y * width + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { data: out, width, height };
}
