// Issue 13, point 5: two 780 KB PDFs of 2,000 blank pages held both workers until the 55 s timeout, and a one-page
// invoice behind them took 54 s. Now: pages and OCR are budgeted per document, blank pages are skipped before OCR,
// documents are read in slices, and the pool serves lanes (tenants) in turn. Real workers, generated files.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentReader } from '../../../src/extraction/reader.ts';
import type { DocumentReader, ReadResult } from '../../../src/extraction/reader.ts';
import type { PageText } from '../../../src/extraction/types.ts';
import { equipmentInvoice, makeInvoicePdf } from '../../fixtures/invoice-documents.ts';
import { makeBlankPdf, makeDrawnPdf, makeTextImagePng, makeTextPdf } from '../../fixtures/reading-fixtures.ts';

const LINES = ['GROCERY STORE 42', 'Milk 1.25', 'Bread 2.40', 'TOTAL 3.65'];
const EXPECTED_WORDS = ['GROCERY', 'STORE', '42', 'Milk', '1.25', 'Bread', '2.40', 'TOTAL', '3.65'];
const texts = (page: PageText): string => page.words.map((w) => w.text).join(' ');

let reader: DocumentReader;
let blank2000: Buffer;
let invoice: Buffer;
let scan: Buffer;

/** A PDF page that is only a scanned image of LINES. */
const scannedPage = (doc: PDFKit.PDFDocument) => void doc.image(scan, 36, 36, { width: 523 });

beforeAll(async () => {
  reader = createDocumentReader({ size: 2, warm: true });
  [blank2000, invoice, scan] = await Promise.all([makeBlankPdf(2000), makeInvoicePdf(equipmentInvoice), makeTextImagePng(LINES)]);
  // Both workers past their cold start (pdf.js, OCR engine), as in a running server.
  await Promise.all([reader.read(invoice, 'invoice'), reader.read(invoice, 'invoice')]);
});

afterAll(async () => {
  await reader?.close();
});

describe('a document cannot hold the reading pool', () => {
  it('reads a one-page invoice promptly while two 2,000-blank-page PDFs are in flight', async () => {
    expect(blank2000.length).toBeGreaterThan(700_000);
    const t0 = performance.now();
    const finished: Record<string, number> = {};
    const timed = (name: string, p: Promise<ReadResult>) => p.then((r) => ((finished[name] = performance.now() - t0), r));
    const large = [
      timed('blank A', reader.read(blank2000, 'invoice', { lane: 'tenant-a' })),
      timed('blank B', reader.read(blank2000, 'invoice', { lane: 'tenant-b' })),
    ];
    const small = await timed('invoice', reader.read(invoice, 'invoice', { lane: 'tenant-c' }));
    const [a, b] = await Promise.all(large);
    console.log(
      `one-page invoice read in ${Math.round(finished.invoice!)} ms; blank PDFs done in ${Math.round(finished['blank A']!)} and ${Math.round(finished['blank B']!)} ms`,
    );

    expect(texts(small.pages[0]!)).toContain(equipmentInvoice.number);
    expect(small.notes).toEqual([]);
    // Typically 100–400 ms on a loaded 2-core machine; before, 54 s.
    expect(finished.invoice!).toBeLessThan(2000);
    for (const r of [a!, b!]) {
      expect(r.pageCount).toBe(2000);
      expect(r.pages.map((p) => p.page)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(r.pages.every((p) => p.words.length === 0 && p.source === 'text-layer')).toBe(true);
      expect(r.notes).toEqual(['pages 51–2000 were not read (limit 50 pages per document)', '50 blank pages skipped']);
    }
    expect(Math.max(finished['blank A']!, finished['blank B']!)).toBeLessThan(10_000);
  });

  it('still OCRs a scanned page between a text page and a blank page', async () => {
    const pdf = await makeDrawnPdf([
      (doc) => void doc.font('Helvetica').fontSize(12).text('Invoice 7 page one of three', 72, 72),
      scannedPage,
      () => undefined,
    ]);
    // Under a budget no loaded machine reaches: what is read here is decided by the pages, not by the clock.
    const patient = createDocumentReader({ size: 1, limits: { budgetMs: 600_000 } });
    const r = await patient.read(pdf, 'receipt').finally(() => patient.close());
    expect(r.pageCount).toBe(3);
    expect(r.pages.map((p) => [p.page, p.source])).toEqual([
      [1, 'text-layer'],
      [2, 'ocr'],
      [3, 'text-layer'],
    ]);
    expect(texts(r.pages[0]!)).toBe('Invoice 7 page one of three');
    expect(texts(r.pages[1]!)).toBe(EXPECTED_WORDS.join(' '));
    expect(r.pages[2]!.words).toEqual([]);
    expect(r.notes).toEqual(['1 blank page skipped']);
  }, 120_000);
});

describe('budgets per document', () => {
  // The page limit, not the time budget: a budget no loaded machine reaches, so only the limit decides.
  it('OCRs at most maxOcrPages pages and says which were not', async () => {
    const limited = createDocumentReader({ size: 1, limits: { maxOcrPages: 1, budgetMs: 600_000 } });
    try {
      const r = await limited.read(await makeDrawnPdf([scannedPage, () => undefined, scannedPage, scannedPage]), 'receipt');
      expect(r.pages.map((p) => p.source)).toEqual(['ocr', 'text-layer', 'text-layer', 'text-layer']);
      expect(texts(r.pages[0]!)).toBe(EXPECTED_WORDS.join(' '));
      // The blank page 2 did not use up the one OCR'd page.
      expect(r.notes).toEqual(["pages 3–4 were not OCR'd (limit 1 OCR'd pages per document)", '1 blank page skipped']);
    } finally {
      await limited.close();
    }
  }, 120_000);

  it("keeps one of the OCR'd pages for the last page, where the totals are", async () => {
    const limited = createDocumentReader({ size: 1, limits: { maxOcrPages: 2, budgetMs: 600_000 } });
    try {
      const r = await limited.read(await makeDrawnPdf([scannedPage, scannedPage, scannedPage, scannedPage]), 'receipt');
      expect(r.pages.map((p) => p.source)).toEqual(['ocr', 'text-layer', 'text-layer', 'ocr']);
      expect(texts(r.pages[3]!)).toBe(EXPECTED_WORDS.join(' '));
      expect(r.notes).toEqual(["pages 2–3 were not OCR'd (limit 2 OCR'd pages per document)"]);
    } finally {
      await limited.close();
    }
  }, 120_000);

  it('once the time budget is used up, reads only the last page and returns what was read', async () => {
    const limited = createDocumentReader({ size: 1, limits: { budgetMs: 300 } });
    try {
      // One OCR'd page takes far longer than 300 ms, so the budget is spent after the first.
      const r = await limited.read(await makeDrawnPdf([scannedPage, scannedPage, scannedPage, scannedPage]), 'receipt');
      expect(r.pageCount).toBe(4);
      expect(r.pages.map((p) => [p.page, p.source])).toEqual([
        [1, 'ocr'],
        [4, 'ocr'],
      ]);
      expect(texts(r.pages[1]!)).toBe(EXPECTED_WORDS.join(' '));
      expect(r.notes).toEqual(['pages 2–3 were not read (limit 0.3 s of reading per document; the last page was read)']);
    } finally {
      await limited.close();
    }
  });
});

describe('fair queue', () => {
  it('serves lanes in turn, and documents within a lane in turn', async () => {
    // One worker and one page per slice make the order exact. Four documents also exceed what a worker keeps
    // open, so slices reopen documents as they alternate.
    const single = createDocumentReader({ size: 1, sliceMs: 0 });
    try {
      // Long enough for a text layer (short ones are OCR'd as if scanned).
      const lines = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `document ${tag}, page ${i + 1} of ${n}`);
      const pdf = (tag: string, n: number) => makeTextPdf(lines(tag, n).map((text) => [{ text, x: 72, y: 72 }]));
      const docs = { a1: await pdf('a1', 8), a2: await pdf('a2', 8), a3: await pdf('a3', 1), b: await pdf('b', 1) };
      const order: string[] = [];
      const read = (name: keyof typeof docs, lane: string) => single.read(docs[name], 'invoice', { lane }).then((r) => (order.push(name), r));
      const [a1, a2] = await Promise.all([read('a1', 'a'), read('a2', 'a'), read('a3', 'a'), read('b', 'b')]);
      // First in first out would give a1, a2, a3, b. Turns: a1 (page 1), a2 (page 1), b — lane b's only document —
      // then a3, whose one page comes before the second pages of a1 and a2.
      expect(order).toEqual(['b', 'a3', 'a1', 'a2']);
      // Slices, on whichever turn and after any reopen, add up to the whole document in order.
      expect(a1!.pages.map(texts)).toEqual(lines('a1', 8));
      expect(a2!.pages.map(texts)).toEqual(lines('a2', 8));
    } finally {
      await single.close();
    }
  });
});
