// PP-OCR text detection, after the model: the DB probability map → one rotated rectangle per text segment.
//
// PaddleOCR's DBPostProcess finds contours of the thresholded map, fits a minimum-area rectangle and "unclips" it
// (the model predicts shrunk text kernels). Here the same steps without OpenCV: 4-connected components of the
// bitmap, the rectangle from each component's second moments (its principal axis: the text baseline's angle),
// extents along that axis, and the unclip distance of DB (area × ratio / perimeter) added on every side.

export interface RotatedRect {
  /** Centre, in the probability map's pixels. */
  cx: number;
  cy: number;
  /** Extent along the baseline (w) and across it (h). */
  w: number;
  h: number;
  /** Baseline angle in radians (0: horizontal; positive: descending to the right, y grows downwards). */
  angle: number;
  /** Mean probability of the component's pixels. */
  score: number;
  /** The unclip distance added on every side (the text itself is about w − 2·pad by h − 2·pad). */
  pad: number;
}

export interface DetectOptions {
  /** Pixel threshold of the probability map (DB's `thresh`). */
  threshold: number;
  /** Minimum mean probability of a segment (DB's `box_thresh`). */
  boxThreshold: number;
  /** DB's `unclip_ratio`. */
  unclipRatio: number;
  /** Segments whose shorter side is below this (map pixels, before unclipping) are noise. */
  minSize: number;
  /** Segments shorter than this aspect (w/h) are read as upright: a single character has no reliable axis. */
  minAspectForAngle: number;
  /** Angles beyond this are clamped to 0 (vertical text is not expected on receipts and invoices). */
  maxAngle: number;
}

export const DEFAULT_DETECT: DetectOptions = {
  threshold: 0.3,
  boxThreshold: 0.6,
  unclipRatio: 1.5,
  minSize: 3,
  minAspectForAngle: 2.5,
  maxAngle: (30 * Math.PI) / 180,
};

/** Text segments of a probability map (row-major, `width` × `height`), top to bottom. */
export function detectSegments(prob: Float32Array, width: number, height: number, opts: Partial<DetectOptions> = {}): RotatedRect[] {
  const o = { ...DEFAULT_DETECT, ...opts };
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const out: RotatedRect[] = [];
  for (let start = 0; start < prob.length; start++) {
    if (seen[start] || prob[start]! <= o.threshold) continue;
    // Flood fill (4-connected), collecting the component's pixels and probability sum.
    const pixels: number[] = [];
    let sum = 0;
    let sp = 0;
    stack[sp++] = start;
    seen[start] = 1;
    while (sp > 0) {
      const p = stack[--sp]!;
      pixels.push(p);
      sum += prob[p]!;
      const x = p % width;
      if (x > 0 && !seen[p - 1] && prob[p - 1]! > o.threshold) ((seen[p - 1] = 1), (stack[sp++] = p - 1));
      if (x < width - 1 && !seen[p + 1] && prob[p + 1]! > o.threshold) ((seen[p + 1] = 1), (stack[sp++] = p + 1));
      if (p >= width && !seen[p - width] && prob[p - width]! > o.threshold) ((seen[p - width] = 1), (stack[sp++] = p - width));
      if (p + width < prob.length && !seen[p + width] && prob[p + width]! > o.threshold) ((seen[p + width] = 1), (stack[sp++] = p + width));
    }
    const n = pixels.length;
    if (n < o.minSize * o.minSize || sum / n < o.boxThreshold) continue;
    const rect = fitRect(pixels, width, o);
    if (Math.min(rect.w, rect.h) < o.minSize) continue;
    const d = (rect.w * rect.h * o.unclipRatio) / (2 * (rect.w + rect.h));
    out.push({ ...rect, w: rect.w + 2 * d, h: rect.h + 2 * d, score: sum / n, pad: d });
  }
  return out.sort((a, b) => a.cy - b.cy || a.cx - b.cx);
}

/** The component's rectangle along its principal axis (upright when short or steep). */
function fitRect(pixels: number[], width: number, o: DetectOptions): Omit<RotatedRect, 'score' | 'pad'> {
  let sx = 0;
  let sy = 0;
  for (const p of pixels) {
    sx += p % width;
    sy += Math.floor(p / width);
  }
  const n = pixels.length;
  const mx = sx / n;
  const my = sy / n;
  let cxx = 0;
  let cyy = 0;
  let cxy = 0;
  for (const p of pixels) {
    const x = (p % width) - mx;
    const y = Math.floor(p / width) - my;
    cxx += x * x;
    cyy += y * y;
    cxy += x * y;
  }
  const angle = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
  const rect = extents(pixels, width, mx, my, angle);
  if (rect.w / Math.max(1, rect.h) < o.minAspectForAngle || Math.abs(angle) > o.maxAngle) return extents(pixels, width, mx, my, 0);
  return rect;
}

/** Extents of a component along the axis at `angle` through (mx, my): its rectangle (pixel cells, so +1). */
function extents(pixels: number[], width: number, mx: number, my: number, angle: number) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  let u0 = Infinity;
  let u1 = -Infinity;
  let v0 = Infinity;
  let v1 = -Infinity;
  for (const p of pixels) {
    const x = (p % width) - mx;
    const y = Math.floor(p / width) - my;
    const u = x * c + y * s;
    const v = -x * s + y * c;
    if (u < u0) u0 = u;
    if (u > u1) u1 = u;
    if (v < v0) v0 = v;
    if (v > v1) v1 = v;
  }
  const uc = (u0 + u1) / 2;
  const vc = (v0 + v1) / 2;
  // Pixel centres → cell edges; the +0.5 moves from pixel index to pixel centre coordinates.
  return { cx: mx + uc * c - vc * s + 0.5, cy: my + uc * s + vc * c + 0.5, w: u1 - u0 + 1, h: v1 - v0 + 1, angle };
}
