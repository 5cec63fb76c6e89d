import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { paintsSomething } from '../../../src/extraction/blank-page.ts';
import { openPdf } from '../../../src/extraction/pdf-text.ts';
import { UnreadableDocumentError } from '../../../src/extraction/types.ts';
import { makeBlankPdf, makeCorruptPdf, makeDrawnPdf, makeScannedPdf, makeTextImagePng, makeTextPdf } from '../../fixtures/reading-fixtures.ts';

describe('PDF text layer', () => {
  it('yields each page’s words in reading order with top-left coordinates in points', async () => {
    const pdf = await makeTextPdf([
      [
        // Drawn out of order on purpose: reading order comes from positions, not from the content stream.
        { text: 'Total due: 104.90 EUR', x: 72, y: 500 },
        { text: 'INVOICE F-2024-001', x: 72, y: 72, size: 20 },
        { text: 'Date 31/01/2024', x: 400, y: 80 },
        { text: 'Widget  x3   28.00', x: 72, y: 300 },
      ],
      [{ text: 'Page two says hello', x: 100, y: 700 }],
    ]);
    const doc = await openPdf(new Uint8Array(pdf));
    expect(doc.numPages).toBe(2);
    const p1 = await doc.readTextPage(1);
    const p2 = await doc.readTextPage(2);
    await doc.close();

    expect(p1.needsOcr).toBe(false);
    expect(p1.width).toBeCloseTo(595.28, 0);
    expect(p1.height).toBeCloseTo(841.89, 0);
    expect(p1.words.map((w) => w.text)).toEqual(['INVOICE', 'F-2024-001', 'Date', '31/01/2024', 'Widget', 'x3', '28.00', 'Total', 'due:', '104.90', 'EUR']);
    const byText = new Map(p1.words.map((w) => [w.text, w]));
    const invoice = byText.get('INVOICE')!;
    // pdfkit puts the top of the line box at y; the glyph box starts a little below it.
    expect(invoice.x).toBeCloseTo(72, 0);
    expect(invoice.y).toBeGreaterThan(68);
    expect(invoice.y).toBeLessThan(80);
    expect(invoice.height).toBeGreaterThan(14);
    expect(invoice.height).toBeLessThan(26);
    // Helvetica 20 pt "INVOICE" is ≈ 78 pt wide; width is shared out by characters, so allow slack.
    expect(invoice.width).toBeGreaterThan(50);
    expect(invoice.width).toBeLessThan(110);
    expect(invoice.confidence).toBe(100);
    const total = byText.get('Total')!;
    expect(total.y).toBeGreaterThan(495);
    expect(total.y).toBeLessThan(510);
    // Words on one line share a baseline band and advance left to right.
    const [t, d, amount, eur] = ['Total', 'due:', '104.90', 'EUR'].map((s) => byText.get(s)!);
    expect(d!.x).toBeGreaterThan(t!.x + t!.width);
    expect(amount!.x).toBeGreaterThan(d!.x + d!.width);
    expect(eur!.x).toBeGreaterThan(amount!.x + amount!.width);
    expect(Math.abs(eur!.y - t!.y)).toBeLessThan(1);
    expect(byText.get('Date')!.x).toBeCloseTo(400, 0);

    expect(p2.page).toBe(2);
    expect(p2.words.map((w) => w.text)).toEqual(['Page', 'two', 'says', 'hello']);
    expect(p2.words[0]!.x).toBeCloseTo(100, 0);
    expect(p2.words[0]!.y).toBeGreaterThan(695);
    expect(p2.words[0]!.y).toBeLessThan(712);
  });

  it('flags a page with no text layer as needing OCR', async () => {
    const pdf = await makeTextPdf([[{ text: 'p.1', x: 500, y: 800, size: 8 }]]);
    const doc = await openPdf(new Uint8Array(pdf));
    const p1 = await doc.readTextPage(1);
    await doc.close();
    expect(p1.needsOcr).toBe(true);
  });

  it('tells blank pages from pages that carry marks, without calling a scanned page blank', async () => {
    const blank = async (pdf: Buffer): Promise<boolean[]> => {
      const doc = await openPdf(new Uint8Array(pdf));
      try {
        return await Promise.all(Array.from({ length: doc.numPages }, (_, i) => doc.isBlankPage(i + 1)));
      } finally {
        await doc.close();
      }
    };
    // Nothing painted at all (the operator list check).
    expect(await blank(await makeBlankPdf(2))).toEqual([true, true]);
    // A scanned receipt, faint (its text is light grey) and small (40 px type drawn at 5 pt).
    const faintScan = await sharp(await makeTextImagePng(['GROCERY STORE 42', 'TOTAL 3.65']))
      .linear(0.4, 153)
      .png()
      .toBuffer();
    const pages = await makeDrawnPdf([
      // A white box over the whole page: painted, but no ink (the low-resolution render check).
      (doc) => void doc.rect(0, 0, 595.28, 841.89).fill('#ffffff'),
      // One thin pale-grey rule: ink.
      (doc) => void doc.moveTo(72, 400).lineTo(300, 400).lineWidth(0.5).stroke('#aaaaaa'),
      (doc) => void doc.image(faintScan, 200, 300, { width: 120 }),
    ]);
    expect(await blank(pages)).toEqual([true, false, false]);
    expect(await blank(await makeScannedPdf(await makeTextImagePng(['TOTAL 3.65'])))).toEqual([false]);
  });

  it('renders a scanned page the same after the ink check kept its decoded image, and again once released', async () => {
    const pdf = await makeScannedPdf(await makeTextImagePng(['GROCERY STORE 42', 'TOTAL 3.65']));
    const render = async (checkFirst: boolean) => {
      const doc = await openPdf(new Uint8Array(pdf));
      try {
        if (checkFirst) expect(await doc.isBlankPage(1)).toBe(false);
        const pixels = await doc.renderPixels(1, 150, 1000);
        await doc.releasePage(1);
        // Released: the page renders again from the document (a fresh decoding), to the same pixels.
        const again = await doc.renderPixels(1, 150, 1000);
        return [pixels!, again!];
      } finally {
        await doc.close();
      }
    };
    const [alone] = await render(false);
    const [afterCheck, afterRelease] = await render(true);
    expect(alone!.channels).toBe(4);
    expect(alone!.width * alone!.height * 4).toBe(alone!.pixels.length);
    expect(Buffer.from(afterCheck!.pixels).equals(Buffer.from(alone!.pixels))).toBe(true);
    expect(Buffer.from(afterRelease!.pixels).equals(Buffer.from(alone!.pixels))).toBe(true);
    // Not a white page: the scan's text is in the render.
    expect(alone!.pixels.some((v, i) => i % 4 !== 3 && v < 128)).toBe(true);
  });

  it('counts only operators that mark the page as painting, and any operator it does not know', async () => {
    const { OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const paints = (...ops: Array<[number, unknown?]>) =>
      paintsSomething(
        OPS,
        ops.map((o) => o[0]),
        ops.map((o) => o[1] ?? null),
      );
    // What pdfkit writes on a blank page, and a clipping path.
    expect(paints([OPS.transform, [1, 0, 0, -1, 0, 841.89]])).toBe(false);
    expect(paints([OPS.save], [OPS.constructPath, [OPS.endPath, [null], null]], [OPS.clip], [OPS.restore])).toBe(false);
    expect(paints([OPS.constructPath, [OPS.fill, [null], null]])).toBe(true);
    expect(paints([OPS.beginText], [OPS.showText, [[]]], [OPS.endText])).toBe(true);
    expect(paints([OPS.paintImageXObject, ['img', 10, 10]])).toBe(true);
    expect(paints([OPS.shadingFill, ['sh']])).toBe(true);
    expect(paints([9999])).toBe(true);
  });

  it('rejects an encrypted PDF with UnreadableDocumentError', async () => {
    const pdf = await makeTextPdf([[{ text: 'secret', x: 72, y: 72 }]], { userPassword: 'hunter2' });
    const err = await openPdf(new Uint8Array(pdf)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UnreadableDocumentError);
    expect((err as Error).message).toMatch(/password|encrypt/i);
  });

  it('rejects a corrupt PDF with UnreadableDocumentError', async () => {
    const err = await openPdf(new Uint8Array(makeCorruptPdf())).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UnreadableDocumentError);
    expect((err as Error).message).toMatch(/corrupt|invalid|parse|read/i);
  });
});
