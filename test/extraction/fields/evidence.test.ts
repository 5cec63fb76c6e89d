// Evidence from the text engine: every value's page, box (fractions of the page) and source, from the candidate the
// rules chose; values worked out rather than read have no place; an OCR'd page's skew is turned back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalise, spanBox } from '../../../src/extraction/fields/evidence.ts';
import { extractInvoiceFields } from '../../../src/extraction/fields/invoice.ts';
import { groupLines } from '../../../src/extraction/fields/layout.ts';
import { extractReceiptFields } from '../../../src/extraction/fields/receipt.ts';
import { deliverInvoices } from '../../../src/extraction/local.extractor.ts';
import { deskewWords } from '../../../src/extraction/ppocr/deskew.ts';
import { createDocumentReader, type DocumentReader } from '../../../src/extraction/reader.ts';
import type { FieldEvidence, PageText, Word } from '../../../src/extraction/types.ts';
import { spells, wordsInBox } from '../../helpers/evidence.ts';
import { makeInvoicePdf, produceInvoice } from '../../fixtures/invoice-documents.ts';
import { page } from './helpers.ts';

const row = (cells: [string, number][]) => cells.reduce((s, [t, col]) => s.padEnd(col) + t, '');
const table = (cells: string[]) => row(cells.map((c, i) => [c, [0, 32, 38, 44, 56][i]!] as [string, number]));

/** A one-page invoice set out in columns; its tax is printed nowhere and its due date comes from payment terms. */
const invoicePage = page([
  'Brenner Feinkost GmbH',
  'Lindenweg 4, 70565 Stuttgart',
  '',
  'INVOICE',
  'Invoice No.:   RE-2024-117',
  'Invoice date:   05.03.2024',
  '',
  table(['Description', 'Qty', 'Unit', 'Unit price', 'Amount']),
  table(['Olive oil extra virgin', '4', 'l', '9,50', '38,00']),
  table(['Parmesan 24 months,', '2', 'kg', '31,00', '62,00']),
  'finely grated',
  '',
  row([
    ['Net amount', 36],
    ['100,00 EUR', 56],
  ]),
  row([
    ['Total', 36],
    ['119,00 EUR', 56],
  ]),
  'Payment terms: net 30 days',
]);

const byField = (evidence: FieldEvidence[]) => Object.fromEntries(evidence.map((e) => [e.field, e]));
const inBox = (p: PageText, e: FieldEvidence) => wordsInBox(p.words, p.width, p.height, e.box!);

describe('evidence of an invoice read from its text', () => {
  const [invoice] = extractInvoiceFields([invoicePage]);
  const evidence = invoice!.evidence!;

  it('boxes each read header field on the words it was read from, with its confidence and source', () => {
    const f = byField(evidence.fields);
    expect(Object.keys(f)).toEqual(['vendorName', 'invoiceNumber', 'invoiceDate', 'dueDate', 'subtotal', 'tax', 'total', 'currency']);
    expect(inBox(invoicePage, f.vendorName!)).toBe('Brenner Feinkost GmbH');
    expect(inBox(invoicePage, f.invoiceNumber!)).toBe('RE-2024-117');
    expect(inBox(invoicePage, f.invoiceDate!)).toBe('05.03.2024');
    expect(inBox(invoicePage, f.subtotal!)).toBe('100,00');
    expect(inBox(invoicePage, f.total!)).toBe('119,00');
    expect(inBox(invoicePage, f.currency!)).toBe('EUR');
    // The box of the number is the word's own box, as fractions of the page.
    const word = invoicePage.words.find((w) => w.text === 'RE-2024-117')!;
    expect(f.invoiceNumber!.box!.x).toBeCloseTo(word.x / invoicePage.width, 3);
    expect(f.invoiceNumber!.box!.width).toBeCloseTo(word.width / invoicePage.width, 3);
    expect(f.invoiceNumber).toMatchObject({ value: 'RE-2024-117', page: 1, source: 'TEXT_LAYER', confidence: invoice!.fieldConfidences.invoiceNumber });
    expect(f.total).toMatchObject({ value: '119', confidence: invoice!.fieldConfidences.total });
  });

  it('gives values worked out rather than read no place: a tax from net and total, a due date from payment terms', () => {
    const f = byField(evidence.fields);
    expect(invoice).toMatchObject({ tax: 19, dueDate: '2024-04-04' });
    expect(f.tax).toMatchObject({ value: '19', page: null, box: null, source: 'TEXT_LAYER' });
    expect(f.dueDate).toMatchObject({ value: '2024-04-04', page: null, box: null });
  });

  it('boxes each cell of each line item, a description over two lines as one box over both', () => {
    expect(evidence.lineItems).toHaveLength(invoice!.lineItems.length);
    const [first, second] = evidence.lineItems.map(byField);
    expect(inBox(invoicePage, first!.quantity!)).toBe('4');
    expect(inBox(invoicePage, first!.unitPrice!)).toBe('9,50');
    expect(inBox(invoicePage, first!.total!)).toBe('38,00');
    expect(inBox(invoicePage, second!.total!)).toBe('62,00');
    expect(invoice!.lineItems[1]!.description).toContain('grated');
    expect(inBox(invoicePage, second!.description!)).toBe('Parmesan 24 months, finely grated');
    for (const e of evidence.lineItems.flat()) expect(e.confidence).toBe(invoice!.fieldConfidences.lineItems);
  });
});

describe('evidence of a receipt', () => {
  const slip = page(
    ['CORNER DELI LTD', '12 Main Street', 'Date: 14/03/2024 12:41', 'Coffee   3.50', 'Bagel   4.25', 'TOTAL   7.75', 'CASH   10.00', 'CHANGE   2.25'],
    {
      source: 'ocr',
    },
  );
  const receipt = extractReceiptFields([slip]);

  it('boxes the merchant, the date, the total and each item on an OCR page, source OCR', () => {
    const f = byField(receipt.evidence!.fields);
    expect(inBox(slip, f.merchantName!)).toBe('CORNER DELI LTD');
    expect(inBox(slip, f.receiptDate!)).toBe('14/03/2024');
    expect(inBox(slip, f.total!)).toBe('7.75');
    expect(f.total).toMatchObject({ value: '7.75', page: 1, source: 'OCR' });
    expect(receipt.evidence!.lineItems.map((cells) => cells.map((e) => inBox(slip, e)))).toEqual([
      ['Coffee', '3.50'],
      ['Bagel', '4.25'],
    ]);
  });
});

describe('an OCR page read tilted', () => {
  it('turns boxes back by the skew the reader levelled the words by, onto the image as it is', () => {
    const [W, H, angle] = [1200, 900, (3 * Math.PI) / 180];
    // A word as printed on the tilted image (its upright box there), then as the reader hands it over: levelled.
    const printed: Word = { text: '1,234.50', x: 900, y: 700, width: 120, height: 26, confidence: 90 };
    const [levelled] = deskewWords([printed], angle, W, H);
    const ocrPage: PageText = { page: 1, width: W, height: H, words: [levelled!], source: 'ocr', ms: 1, skew: angle };
    const [line] = groupLines(ocrPage);
    const box = normalise(ocrPage, spanBox(line!, 0, line!.text.length)!);
    // Its centre lands on the printed word's centre, and the box covers the printed word.
    expect((box.x + box.width / 2) * W).toBeCloseTo(printed.x + printed.width / 2, 0);
    expect((box.y + box.height / 2) * H).toBeCloseTo(printed.y + printed.height / 2, 0);
    expect(box.width * W).toBeGreaterThanOrEqual(printed.width - 1);
    // Without the skew the box would be off by about 15 px at this distance from the centre.
    const unturned = normalise({ ...ocrPage, skew: undefined }, spanBox(line!, 0, line!.text.length)!);
    expect(Math.abs((unturned.y + unturned.height / 2) * H - (printed.y + printed.height / 2))).toBeGreaterThan(10);
  });
});

describe('evidence of a text PDF, read by the reader', () => {
  let reader: DocumentReader;
  beforeAll(() => {
    reader = createDocumentReader({ size: 1 });
  });
  afterAll(() => reader.close());

  it('puts every value on the page that prints it: the text-layer words in each box spell the value', async () => {
    const read = await reader.read(new Uint8Array(await makeInvoicePdf(produceInvoice)), 'invoice');
    const [invoice] = deliverInvoices(read).invoices;
    const all = [...invoice!.evidence!.fields, ...invoice!.evidence!.lineItems.flat()];
    expect(all.length).toBe(8 + produceInvoice.lines.length * 6);
    for (const e of all) {
      const p = read.pages.find((x) => x.page === e.page)!;
      expect(e.box, `${e.field} ${e.value}`).not.toBeNull();
      expect(spells(e, wordsInBox(p.words, p.width, p.height, e.box!)), `${e.field} ${e.value}: ${wordsInBox(p.words, p.width, p.height, e.box!)}`).toBe(true);
    }
    // The totals are on page 2 (five lines per page), the number on page 1.
    expect(byField(invoice!.evidence!.fields).total!.page).toBe(2);
    expect(byField(invoice!.evidence!.fields).invoiceNumber!.page).toBe(1);
  });
});
