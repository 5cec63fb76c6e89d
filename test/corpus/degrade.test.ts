// Scans and photos of generated documents (corpus/degrade/) are an instrument too: the same seed must give the same
// bytes, a scan's skew must stay within ±2° and be the angle its parameters say, the perspective must put the
// page's corners where they were drawn, and a degraded page read through OCR must still give what is printed on it.

import { describe, expect, it } from 'vitest';
import { degradeDocument, DEGRADE_MODES } from '../../corpus/degrade/document.ts';
import { blank, type Grey } from '../../corpus/degrade/grey.ts';
import { photoParams } from '../../corpus/degrade/photo.ts';
import { MAX_SKEW_DEG, scanParams, scanPixels } from '../../corpus/degrade/scan.ts';
import { apply, homography, invert } from '../../corpus/degrade/warp.ts';
import { generateDocument, planCorpus } from '../../corpus/generate.ts';
import { Rng } from '../../corpus/random.ts';
import { createDocumentReader } from '../../src/extraction/reader.ts';

const generated = async (layout: 'receipt-narrow' | 'label-left') => generateDocument(21, planCorpus({ seed: 21, count: 1, layouts: [layout] })[0]!);

/** The angle (degrees, counter-clockwise) of the dark rule in `img`: a line fitted through each column's dark centroid. */
function ruleAngle(img: Grey, threshold: number): number {
  const pts: { x: number; y: number }[] = [];
  for (let x = 200; x < img.width - 200; x++) {
    let n = 0;
    let sy = 0;
    for (let y = 0; y < img.height; y++) if (img.data[y * img.width + x]! < threshold) (n++, (sy += y));
    if (n) pts.push({ x, y: sy / n });
  }
  const mx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
  const my = pts.reduce((s, p) => s + p.y, 0) / pts.length;
  const slope = pts.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / pts.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return (-Math.atan(slope) * 180) / Math.PI;
}

describe('scan and photo degradation', () => {
  it('gives the same bytes for the same seed and other bytes for another, in both modes', async () => {
    const { pdf } = await generated('receipt-narrow');
    for (const mode of DEGRADE_MODES) {
      const a = await degradeDocument(pdf, mode, '21/a');
      const b = await degradeDocument(pdf, mode, '21/a');
      const c = await degradeDocument(pdf, mode, '21/b');
      expect(a.ext, mode).toBe('jpg');
      expect(a.bytes.subarray(0, 3), mode).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(Buffer.compare(a.bytes, b.bytes), mode).toBe(0);
      expect(Buffer.compare(a.bytes, c.bytes), mode).not.toBe(0);
    }
  }, 60_000);

  it('turns a scanned page by at most ±2°, by the angle its parameters give', async () => {
    const skews = Array.from({ length: 500 }, (_, i) => scanParams(new Rng(`skew/${i}`)).skewDeg);
    expect(Math.max(...skews.map(Math.abs))).toBeLessThanOrEqual(MAX_SKEW_DEG);
    expect(Math.max(...skews) - Math.min(...skews)).toBeGreaterThan(3.5); // the whole range is used
    // A page holding one black horizontal rule, 6 px thick.
    const page = blank(1400, 900);
    for (let y = 447; y < 453; y++) page.data.fill(0, y * 1400 + 100, y * 1400 + 1300);
    for (const key of ['a', 'b', 'c', 'd']) {
      const rng = new Rng(`rule/${key}`);
      const p = scanParams(rng);
      const measured = ruleAngle(await scanPixels(page, p, rng), (p.paper + p.ink) / 2);
      expect(Math.abs(measured - p.skewDeg), key).toBeLessThan(0.05);
      expect(Math.abs(measured), key).toBeLessThanOrEqual(MAX_SKEW_DEG + 0.05);
    }
  });

  it('maps the sheet corners onto the drawn quadrilateral, inside the frame', () => {
    for (let i = 0; i < 50; i++) {
      const p = photoParams(new Rng(`photo/${i}`), 595, 842);
      const w = (595 * p.dpi) / 72;
      const h = (842 * p.dpi) / 72;
      const from = [
        { x: 0, y: 0 },
        { x: w, y: 0 },
        { x: w, y: h },
        { x: 0, y: h },
      ];
      const m = homography(from, p.corners);
      from.forEach((pt, k) => {
        const to = apply(m, pt);
        expect(to.x).toBeCloseTo(p.corners[k]!.x, 6);
        expect(to.y).toBeCloseTo(p.corners[k]!.y, 6);
        const back = apply(invert(m), to);
        expect(back.x).toBeCloseTo(pt.x, 6);
      });
      for (const c of p.corners) {
        expect(c.x).toBeGreaterThanOrEqual(0);
        expect(c.x).toBeLessThanOrEqual(p.frame.width);
        expect(c.y).toBeGreaterThanOrEqual(0);
        expect(c.y).toBeLessThanOrEqual(p.frame.height);
      }
    }
  });

  it('reads back the invoice number printed on a scanned and on a photographed page, through the image upload path', async () => {
    const { pdf, entry } = await generated('label-left');
    const number = String(entry.expected.invoiceNumber);
    const reader = createDocumentReader({ size: 1 });
    try {
      for (const mode of DEGRADE_MODES) {
        const d = await degradeDocument(pdf, mode, `21/${entry.file}`);
        const r = await reader.read(new Uint8Array(d.bytes), 'invoice');
        expect(r.fileType, mode).toBe('jpeg');
        expect(r.pages.map((p) => p.source)).toEqual(['ocr']);
        const text = r.pages[0]!.words.map((w) => w.text).join(' ');
        expect(text.replace(/\s+/g, ''), mode).toContain(number.replace(/\s+/g, ''));
      }
    } finally {
      await reader.close();
    }
  }, 120_000);
});
