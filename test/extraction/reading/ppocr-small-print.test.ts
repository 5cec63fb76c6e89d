// PP-OCR on an invoice's small print as a 150 dpi scan hands it over: 10 pt serif lines, slightly blurred, JPEG.
// Recognition crops keep nearly the segment's proportions by default; squeezed to 0.8 (what receipts use) such
// print runs together and loses letters ("Mrlot", "23-12-018").

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PREPROCESS, type OcrEngine } from '../../../src/extraction/ocr.ts';
import { createPpOcrEngine } from '../../../src/extraction/ppocr/engine.ts';
import { createDocumentReader, RECEIPT_PREPROCESS } from '../../../src/extraction/reader.ts';

const ROWS = ['Orange juice, not from concentrate', 'House red wine, Merlot', 'Batch 89709, best before 23-12-2018.'];

async function smallPrint(): Promise<Buffer> {
  const text = ROWS.map((r, i) => `<text x="40" y="${50 + i * 34}" font-family="Liberation Serif" font-size="19" fill="#333">${r}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${60 + ROWS.length * 34}"><rect width="100%" height="100%" fill="#f2f2f0"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).blur(0.6).jpeg({ quality: 70 }).toBuffer();
}

let engine: OcrEngine;
beforeAll(async () => {
  engine = await createPpOcrEngine({ threads: 1 });
});
afterAll(async () => {
  await engine.terminate();
});

describe('PP-OCR small print', () => {
  it('reads 10 pt serif lines of a scan letter for letter with the default crop width', { timeout: 60_000 }, async () => {
    const { words } = await engine.recognizeImage(await smallPrint());
    // Letters and digits as printed; where a space after a comma falls is the word-break rules' business.
    const squash = (s: string) => s.replace(/\s+/g, '');
    const text = squash(words.map((w) => w.text).join(''));
    for (const row of ROWS) expect(text).toContain(squash(row));
  });
});

describe('crop width by kind through the reader', () => {
  it("reads a receipt at the receipts' width and a scanned invoice at the default, as the engine does", { timeout: 120_000 }, async () => {
    const image = await smallPrint();
    const text = (words: { text: string }[]) => words.map((w) => w.text).join(' ');
    // Receipts' large print is read squeezed (PreprocessOptions.recAspect).
    expect(RECEIPT_PREPROCESS.recAspect).toBeLessThan(DEFAULT_PREPROCESS.recAspect);
    const reader = createDocumentReader({ size: 1 });
    try {
      for (const [kind, aspect] of [
        ['receipt', RECEIPT_PREPROCESS.recAspect!],
        ['invoice', DEFAULT_PREPROCESS.recAspect],
      ] as const) {
        const read = await reader.read(image, kind);
        const direct = await engine.recognizeImage(image, { recAspect: aspect });
        expect(text(read.pages[0]!.words), kind).toBe(text(direct.words));
      }
    } finally {
      await reader.close();
    }
  });
});
