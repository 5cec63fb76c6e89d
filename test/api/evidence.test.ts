// Evidence for every value (issue 48, point 3) over real HTTP GraphQL: Invoice.evidence, LineItem.evidence and
// Receipt.evidence for an e-invoice PDF, a text PDF and a scan uploaded as an image. Each box must land on its printed
// value: for PDFs the text-layer characters inside the box spell it; for images the box is cut out of the uploaded
// image (with a small margin) and OCR'd by the engine's own OCR. REST bodies and webhook payloads gain nothing.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { degradeDocument } from '../../corpus/degrade/document.ts';
import { scanParams } from '../../corpus/degrade/scan.ts';
import { Rng } from '../../corpus/random.ts';
import { groupLines } from '../../src/extraction/fields/layout.ts';
import { loadOcrEngine } from '../../src/extraction/ocr-engine.ts';
import type { OcrEngine } from '../../src/extraction/ocr.ts';
import { openPdf } from '../../src/extraction/pdf-text.ts';
import { listEvents } from '../../src/platform/events/outbox.queries.ts';
import { einvoicePdf, kitchenSupplyEInvoice } from '../fixtures/einvoice-documents.ts';
import { CAFE_RECEIPT, equipmentInvoice, makeInvoicePdf, makeReceiptImage, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gqlData, http, startTestApp, type TestApp } from '../helpers/app.ts';
import { type Evidence, spells, wordsInBox } from '../helpers/evidence.ts';

let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
let ocr: OcrEngine;

const EVIDENCE = 'evidence { field value confidence page box { x y width height } source }';
const INVOICE = `query($id: UUID!) { invoice(id: $id) { id vendorName invoiceNumber total fieldConfidences { total } ${EVIDENCE}
  lineItems { description quantity unitPrice total ${EVIDENCE} } } }`;
const RECEIPT = `query($id: UUID!) { receipt(id: $id) { id merchantName total ${EVIDENCE} lineItems { description total ${EVIDENCE} } } }`;
type Line = { description: string; evidence: Evidence[] };
type Invoice = { id: string; total: number; fieldConfidences: { total: number }; evidence: Evidence[] | null; lineItems: Line[] };

async function upload(bytes: Buffer, name: string, kind: 'invoices' | 'receipts' = 'invoices') {
  const fd = new FormData();
  fd.append('file', new Blob([bytes]), name);
  const res = await http(t.base, 'POST', `/api/v1/partner/${kind}/upload`, { headers: { 'x-api-key': partner.apiKey }, body: fd });
  expect(res.status).toBe(201);
  // The REST contract's shape is exact: no evidence in the body.
  expect(JSON.stringify(res.body)).not.toMatch(/evidence/);
  return res.body.id as string;
}
const invoice = async (id: string) => (await gqlData<{ invoice: Invoice }>(t.base, partner.apiKey, INVOICE, { id })).invoice;
const everything = (i: { evidence: Evidence[] | null; lineItems: Line[] }) => [...(i.evidence ?? []), ...i.lineItems.flatMap((l) => l.evidence)];

/** Each boxed value's box holds the value in the PDF's text layer (the characters inside it spell it). */
async function onTextLayer(pdf: Buffer, evidence: Evidence[]): Promise<void> {
  const doc = await openPdf(new Uint8Array(pdf));
  try {
    for (const e of evidence.filter((x) => x.box)) {
      const p = await doc.readTextPage(e.page!);
      const inside = wordsInBox(p.words, p.width, p.height, e.box!);
      expect(spells(e, inside), `${e.field} ${e.value} → "${inside}"`).toBe(true);
    }
  } finally {
    await doc.close();
  }
}

/** Each boxed value's box, cut out of the uploaded image with a margin and OCR'd, shows the value. */
async function onImage(image: Buffer, evidence: Evidence[]): Promise<string[]> {
  const { width, height } = await sharp(image).metadata();
  const misses: string[] = [];
  for (const e of evidence.filter((x) => x.box)) {
    // A margin of a third of the box's height around it (glyphs reach a little past OCR's word boxes).
    const m = Math.max(4, (e.box!.height * height!) / 3);
    const left = Math.max(0, Math.floor(e.box!.x * width! - m));
    const top = Math.max(0, Math.floor(e.box!.y * height! - m));
    const w = Math.min(width! - left, Math.ceil(e.box!.width * width! + 2 * m));
    const h = Math.min(height! - top, Math.ceil(e.box!.height * height! + 2 * m));
    const crop = await sharp(image)
      .extract({ left, top, width: w, height: h })
      .extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' })
      .png()
      .toBuffer();
    const r = await ocr.recognizeImage(crop);
    const text = groupLines({ page: 1, width: r.width, height: r.height, words: r.words, source: 'ocr', ms: 0 })
      .map((l) => l.text)
      .join(' ');
    if (!spells(e, text, 0.2)) misses.push(`${e.field} ${e.value} → "${text}"`);
  }
  return misses;
}

beforeAll(async () => {
  t = await startTestApp();
  partner = await t.createPartner({ tier: 'storage' });
  ocr = (await loadOcrEngine()).engine;
}, 60_000);
afterAll(async () => {
  await ocr?.terminate();
  await t?.close();
});

describe('Invoice.evidence over GraphQL', () => {
  test('an e-invoice PDF: its values (source EINVOICE) boxed where the page prints them', async () => {
    const pdf = await einvoicePdf(kitchenSupplyEInvoice);
    const i = await invoice(await upload(pdf, 'rechnung.pdf'));
    expect(i.evidence!.map((e) => [e.field, e.source])).toEqual(
      ['vendorName', 'invoiceNumber', 'invoiceDate', 'dueDate', 'subtotal', 'tax', 'total', 'currency'].map((f) => [f, 'EINVOICE']),
    );
    const boxed = everything(i).filter((e) => e.box);
    // Every header value and the lines' descriptions, quantities, prices and amounts are printed; codes and units are not.
    expect(new Set(i.evidence!.filter((e) => e.box).map((e) => e.field)).size).toBe(8);
    for (const line of i.lineItems) expect(line.evidence.filter((e) => e.box).map((e) => e.field)).toEqual(['description', 'quantity', 'unitPrice', 'total']);
    expect(i.evidence!.find((e) => e.field === 'total')).toMatchObject({ value: String(i.total), page: 1, confidence: i.fieldConfidences.total });
    await onTextLayer(pdf, boxed);
  });

  test('a text PDF of two pages: every value and cell boxed on its page, source TEXT_LAYER', async () => {
    const pdf = await makeInvoicePdf(produceInvoice);
    const i = await invoice(await upload(pdf, 'produce.pdf'));
    const all = everything(i);
    expect(all).toHaveLength(8 + produceInvoice.lines.length * 6);
    for (const e of all) expect(e).toMatchObject({ source: 'TEXT_LAYER', page: expect.any(Number), box: expect.any(Object) });
    expect(i.evidence!.find((e) => e.field === 'total')!.page).toBe(2);
    expect(i.lineItems[0]!.evidence.find((e) => e.field === 'description')).toMatchObject({ value: 'Romaine lettuce case', page: 1 });
    await onTextLayer(pdf, all);
  });

  test('a scan uploaded as a JPEG, tilted 1.9°: the boxes land on the printed values in the image (source OCR)', async () => {
    const key = 'evidence-5';
    // The degradation turns this page by more than the 1° under which the reader leaves words as read.
    expect(Math.abs(scanParams(new Rng(`${key}/scan/1`)).skewDeg)).toBeGreaterThan(1.5);
    const scan = await degradeDocument(new Uint8Array(await makeInvoicePdf(equipmentInvoice)), 'scan', key);
    expect(scan.ext).toBe('jpg');
    const i = await invoice(await upload(scan.bytes, 'scan.jpg'));
    const boxed = everything(i).filter((e) => e.box);
    for (const e of everything(i)) expect(e.source).toBe('OCR');
    expect(i.evidence!.filter((e) => e.box).map((e) => e.field)).toEqual(expect.arrayContaining(['vendorName', 'invoiceNumber', 'invoiceDate', 'total']));
    expect(boxed.length).toBeGreaterThanOrEqual(18);
    expect(await onImage(scan.bytes, boxed)).toEqual([]);
  }, 120_000);
});

describe('Receipt.evidence over GraphQL', () => {
  test('a photographed receipt: merchant, date, totals and items boxed on the image', async () => {
    const image = await makeReceiptImage(CAFE_RECEIPT);
    const { receipt: r } = await gqlData(t.base, partner.apiKey, RECEIPT, { id: await upload(image, 'receipt.png', 'receipts') });
    const all = everything(r);
    expect(r.evidence.filter((e: Evidence) => e.box).map((e: Evidence) => e.field)).toEqual(expect.arrayContaining(['merchantName', 'receiptDate', 'total']));
    expect(r.lineItems.map((l: Line) => l.evidence.filter((e) => e.box).map((e) => e.field))).toEqual([
      ['description', 'total'],
      ['description', 'total'],
    ]);
    expect(await onImage(image, all)).toEqual([]);
  }, 60_000);
});

describe('evidence is kept with the record', () => {
  test('a correction says CORRECTION with no place; webhook payloads and REST reads carry no evidence', async () => {
    const id = await upload(await makeInvoicePdf(equipmentInvoice), 'equipment.pdf');
    const before = await invoice(id);
    await gqlData(t.base, partner.apiKey, 'mutation($id: UUID!) { correctInvoice(id: $id, input: { total: 1300.5 }) { id } }', { id });
    const after = await invoice(id);
    expect(after.evidence!.find((e) => e.field === 'total')).toEqual({
      field: 'total',
      value: '1300.5',
      confidence: 100,
      page: null,
      box: null,
      source: 'CORRECTION',
    });
    // The other fields keep where they were read.
    expect(after.evidence!.filter((e) => e.field !== 'total')).toEqual(before.evidence!.filter((e) => e.field !== 'total'));
    const get = await http(t.base, 'GET', `/api/v1/partner/invoices/${id}`, { headers: { 'x-api-key': partner.apiKey } });
    expect(JSON.stringify(get.body)).not.toMatch(/evidence/);
    const events = await listEvents(t.database.db, partner.tenantId);
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events.map((e) => e.payload))).not.toMatch(/evidence/);
  });

  test('an invoice recorded before evidence was kept answers null', async () => {
    const id = await upload(await makeInvoicePdf(equipmentInvoice), 'old.pdf');
    await t.database.db.updateTable('invoices').set({ evidence: null }).where('id', '=', id).execute();
    await t.database.db.updateTable('invoiceLineItems').set({ evidence: null }).where('invoiceId', '=', id).execute();
    const i = await invoice(id);
    expect(i.evidence).toBeNull();
    expect(i.lineItems.every((l) => l.evidence === null)).toBe(true);
  });
});
