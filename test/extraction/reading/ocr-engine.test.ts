// Which OCR engine reads: PP-OCRv4 by default, tesseract.js when ONNX Runtime or the models cannot load — said in
// the status the pool reports and in /readyz — and the PP-OCR pipeline's own steps on synthetic input.

import { afterAll, describe, expect, it } from 'vitest';
import { loadOcrEngine } from '../../../src/extraction/ocr-engine.ts';
import { detectSegments } from '../../../src/extraction/ppocr/detect.ts';
import { createDocumentReader } from '../../../src/extraction/reader.ts';
import { http, startTestApp, type TestApp } from '../../helpers/app.ts';
import { makeTextImagePng, makeTextPdf } from '../../fixtures/reading-fixtures.ts';

const MISSING = '/nonexistent/ppocr-models';
let app: TestApp | undefined;

afterAll(async () => {
  await app?.close();
});

describe('OCR engine choice', () => {
  it('falls back to tesseract.js, with the reason, when PP-OCR cannot load', async () => {
    const { engine, status } = await loadOcrEngine({ engine: 'ppocr', modelDir: MISSING });
    try {
      expect(engine.name).toBe('tesseract');
      expect(status).toMatchObject({ engine: 'tesseract', fallbackReason: expect.stringMatching(/PP-OCR could not load .*tesseract/) });
    } finally {
      await engine.terminate();
    }
  });

  it('reads with the fallback in the worker pool and reports it once loaded', async () => {
    const seen: string[] = [];
    const reader = createDocumentReader({ size: 1, ocr: { modelDir: MISSING }, onOcrStatus: (s) => seen.push(s.engine) });
    try {
      expect(await reader.pool.ocrStatus()).toMatchObject({ engine: 'tesseract', fallbackReason: expect.any(String) });
      const read = await reader.read(await makeTextImagePng(['TOTAL 3.65']), 'receipt');
      expect(read.pages[0]!.words.map((w) => w.text)).toEqual(['TOTAL', '3.65']);
      expect(seen).toEqual(['tesseract']);
    } finally {
      await reader.close();
    }
  });

  it('is loaded when a page needs it: a worker that read only text-layer PDFs holds no OCR engine', async () => {
    const seen: string[] = [];
    const reader = createDocumentReader({ size: 1, ocr: { engine: 'tesseract' }, onOcrStatus: (s) => seen.push(s.engine) });
    try {
      const pdf = await makeTextPdf([[{ text: 'INVOICE 1001 from Acme Paper Goods', x: 50, y: 50 }], [{ text: 'TOTAL DUE 3.65 by 1 December', x: 50, y: 50 }]]);
      const read = await reader.read(pdf, 'invoice');
      expect(read.pages.map((p) => p.source)).toEqual(['text-layer', 'text-layer']);
      expect(reader.pool.workers).toBe(1);
      expect(reader.pool.ocrEngine).toBeNull();
      const photo = await reader.read(await makeTextImagePng(['TOTAL 3.65']), 'receipt');
      expect(photo.pages[0]!.words.map((w) => w.text)).toEqual(['TOTAL', '3.65']);
      expect(reader.pool.ocrEngine).toBe('tesseract');
      expect(seen).toEqual(['tesseract']);
    } finally {
      await reader.close();
    }
  });

  it('runs PP-OCR by default and tesseract.js when asked', async () => {
    const reader = createDocumentReader({ size: 1, ocr: { engine: 'tesseract' } });
    try {
      expect(await reader.pool.ocrStatus()).toEqual({ engine: 'tesseract', fallbackReason: null });
    } finally {
      await reader.close();
    }
    const { engine, status } = await loadOcrEngine();
    await engine.terminate();
    expect(status).toEqual({ engine: 'ppocr', fallbackReason: null });
  });

  it('/readyz stays ready and names the fallback engine and why', { timeout: 90_000 }, async () => {
    app = await startTestApp({ env: { OCR_MODEL_DIR: MISSING } });
    // The reading workers report their engine once loaded (seconds on a busy machine): "loading" and ready until then.
    let res = await http(app.base, 'GET', '/readyz');
    const engine = () => (res.body as { components?: { ocr?: { engine?: string } } }).components?.ocr?.engine;
    for (const until = Date.now() + 60_000; engine() === 'loading' && Date.now() < until;) {
      expect(res).toMatchObject({ status: 200, body: { status: 'ready' } });
      await new Promise((r) => setTimeout(r, 200));
      res = await http(app.base, 'GET', '/readyz');
    }
    expect(res).toMatchObject({
      status: 200,
      body: { status: 'ready', components: { ocr: { engine: 'tesseract', fallbackReason: expect.stringMatching(/PP-OCR could not load/) } } },
    });
  });
});

describe('PP-OCR detection post-processing', () => {
  it('finds a tilted text bar as one rotated segment, unclipped', () => {
    const w = 200;
    const h = 100;
    const prob = new Float32Array(w * h);
    const tilt = Math.tan((5 * Math.PI) / 180);
    for (let x = 40; x < 160; x++) for (let y = 0; y < 8; y++) prob[Math.round(45 + (x - 40) * tilt + y) * w + x] = 0.9;
    const [seg, ...rest] = detectSegments(prob, w, h);
    expect(rest).toEqual([]);
    expect(seg!.angle).toBeCloseTo((5 * Math.PI) / 180, 1);
    expect(seg!.w).toBeGreaterThan(120);
    expect(seg!.h).toBeGreaterThan(8);
    expect(seg!.pad).toBeGreaterThan(0);
  });

  it('drops faint blobs and specks', () => {
    const w = 50;
    const prob = new Float32Array(w * w);
    for (let x = 5; x < 30; x++) for (let y = 5; y < 10; y++) prob[y * w + x] = 0.4; // above the pixel threshold, below the box threshold
    prob[40 * w + 40] = 0.99;
    expect(detectSegments(prob, w, w)).toEqual([]);
  });
});
