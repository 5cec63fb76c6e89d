// E-invoices first (issue 14, point 5), over the API: where the values came from is on the record (`source`:
// REST "e-invoice" | "text" | "ocr", GraphQL e_invoice | text | ocr), in the webhook payload, and in the notes;
// an e-invoice XML file is accepted as an invoice upload (an extension) and refused as a receipt.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listEvents } from '../../src/platform/events/outbox.queries.ts';
import { ciiXml, einvoicePdf, einvoiceTotals, kitchenSupplyEInvoice as spec, ublXml } from '../fixtures/einvoice-documents.ts';
import { makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { makeTextImagePng } from '../fixtures/reading-fixtures.ts';
import { gqlData, gqlUpload, http, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
const totals = einvoiceTotals(spec);

function form(file: Buffer | string, name: string): FormData {
  const fd = new FormData();
  fd.append('file', new Blob([file]), name);
  return fd;
}
const upload = (file: Buffer | string, name: string, path = '/api/v1/partner/invoices/upload') =>
  http(t.base, 'POST', path, { headers: { 'x-api-key': partner.apiKey }, body: form(file, name) });

const INVOICE = `query($id: UUID!) { invoice(id: $id) { id source total notes fieldConfidences { total } } }`;

beforeAll(async () => {
  t = await startTestApp();
  partner = await t.createPartner({ tier: 'storage' });
});
afterAll(() => t?.close());

describe('source over REST and GraphQL', () => {
  test('a PDF with an embedded CII invoice: the e-invoice values, source "e-invoice" (REST) / e_invoice (GraphQL), in the webhook payload', async () => {
    const res = await upload(await einvoicePdf(spec), 'rechnung.pdf');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      source: 'e-invoice',
      status: 'processed',
      vendorName: spec.seller,
      invoiceNumber: spec.number,
      invoiceDate: spec.issueDate,
      dueDate: spec.dueDate,
      subtotal: totals.taxBasis,
      tax: totals.tax,
      // The grand total, not the 50.00 less that is due after the prepayment.
      total: totals.grandTotal,
      currency: 'EUR',
      splitInvoices: [],
    });
    expect(res.body.lineItems.map((l: any) => [l.description, l.sku, l.quantity, l.unit, l.unitPrice, l.total])).toEqual([
      ['Chef knife 21 cm', 'NK-210', 4, 'pc', 38.5, 154],
      ['Olive oil extra virgin', 'OO-5L', 6, 'l', 9, 54],
      ['Kitchen towels', null, 12, 'pack', 2.95, 35.4],
    ]);
    expect(res.body.extractionConfidence).toBeGreaterThanOrEqual(95);

    const get = await http(t.base, 'GET', `/api/v1/partner/invoices/${res.body.id}`, { headers: { 'x-api-key': partner.apiKey } });
    expect(get.body.source).toBe('e-invoice');

    const { invoice } = await gqlData(t.base, partner.apiKey, INVOICE, { id: res.body.id });
    expect(invoice).toMatchObject({ source: 'e_invoice', total: totals.grandTotal, fieldConfidences: { total: 99 } });
    expect(invoice.notes).toContain('values come from the e-invoice factur-x.xml (CII, urn:cen.eu:en16931:2017)');
    expect(invoice.notes).toContain(
      `the amount due is ${totals.due.toFixed(2)} (after prepayments or rounding); total is the invoice's grand total ${totals.grandTotal.toFixed(2)}`,
    );

    const processed = (await listEvents(t.database.db, partner.tenantId)).find((e) => e.type === 'invoice.processed' && e.subjectId === res.body.id);
    expect(processed?.payload).toMatchObject({ source: 'e-invoice', total: totals.grandTotal });
  });

  test('a PDF without one is read from its text layer: source "text"', async () => {
    const res = await upload(await makeInvoicePdf(produceInvoice), 'invoice.pdf');
    expect(res.status).toBe(201);
    expect(res.body.source).toBe('text');
    const { invoice } = await gqlData(t.base, partner.apiKey, INVOICE, { id: res.body.id });
    expect(invoice.source).toBe('text');
  });

  test('an image is OCR\'d: source "ocr"', async () => {
    const png = await makeTextImagePng(['ACME SUPPLY CO', 'Invoice Number: A-1001', 'Invoice Date: 2024-03-05', 'Total 120.00']);
    const res = await upload(png, 'photo.png');
    expect(res.body).toMatchObject({ status: 'processed', source: 'ocr' });
  });

  test('a broken e-invoice is left aside: the text is used and the notes say why', async () => {
    const res = await upload(await einvoicePdf(spec, { xml: ciiXml(spec).replace('</rsm:ExchangedDocument>', '') }), 'broken.pdf');
    expect(res.body).toMatchObject({ status: 'processed', source: 'text' });
    const { invoice } = await gqlData(t.base, partner.apiKey, INVOICE, { id: res.body.id });
    expect(invoice.notes).toContainEqual(expect.stringMatching(/^the e-invoice factur-x.xml could not be read \(it is not well-formed XML/));
  });

  test('GraphQL uploadInvoice returns the source', async () => {
    const res = await gqlUpload(t.base, partner.apiKey, 'mutation($f: Upload!) { uploadInvoice(file: $f) { invoice { source total } } }', {
      f: await einvoicePdf(spec),
    });
    expect(res.body.data?.uploadInvoice.invoice).toEqual({ source: 'e_invoice', total: totals.grandTotal });
  });
});

describe('an e-invoice XML file as the upload (extension)', () => {
  test('v1: a UBL invoice is read as it is; the file is kept as XML', async () => {
    const res = await upload(ublXml(spec), 'invoice.xml');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      source: 'e-invoice',
      status: 'processed',
      invoiceNumber: spec.number,
      total: totals.grandTotal,
      subtotal: totals.taxBasis,
    });
    expect(res.body.lineItems).toHaveLength(3);
    const doc = await t.database.db
      .selectFrom('documents')
      .innerJoin('invoices', 'invoices.documentId', 'documents.id')
      .select(['documents.fileType', 'documents.mimeType', 'documents.blobKey', 'documents.pageCount'])
      .where('invoices.id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(doc).toMatchObject({ fileType: 'xml', mimeType: 'application/xml', pageCount: 0 });
    expect(doc.blobKey).toMatch(/\.xml$/);
  });

  test('GraphQL uploadInvoice and the legacy extract-invoice take it too', async () => {
    const g = await gqlUpload(
      t.base,
      partner.apiKey,
      'mutation($f: Upload!) { uploadInvoice(file: $f) { invoice { source invoiceNumber } } }',
      { f: Buffer.from(ciiXml(spec)) },
      { ext: 'xml' },
    );
    expect(g.body.data?.uploadInvoice.invoice).toEqual({ source: 'e_invoice', invoiceNumber: spec.number });
    const old = await t.createPartner({ tier: 'extraction', legacyPlan: 'professional' });
    const legacy = await http(t.base, 'POST', '/api/partner/extract-invoice', {
      headers: { authorization: `Bearer ${old.apiKey}` },
      body: form(ciiXml(spec), 'invoice.xml'),
    });
    expect(legacy.status).toBe(200);
    expect(legacy.body).toMatchObject({ success: true, vendor: spec.seller, invoiceNumber: spec.number, total: totals.grandTotal });
    // The legacy shape is the contract's, word for word: no extra field.
    expect(legacy.body).not.toHaveProperty('source');
  });

  test('an XML file with a DOCTYPE (an XXE attempt) is recorded failed, naming why', async () => {
    const xml = ciiXml(spec)
      .replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>')
      .replace(spec.seller, '&xxe;');
    const res = await upload(xml, 'invoice.xml');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'failed',
      source: null,
      error: 'the e-invoice XML could not be read: document type definitions (DOCTYPE) are not allowed',
    });
  });

  test('other XML is 400, naming what is accepted', async () => {
    const res = await upload('<?xml version="1.0"?><order xmlns="urn:x"/>', 'order.xml');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/it looks like XML that is not a CII or UBL invoice.*or e-invoice XML files \(CII or UBL\)/);
  });

  test('receipts refuse it with a clear 400', async () => {
    const res = await http(t.base, 'POST', '/api/v1/partner/receipts/upload', {
      headers: { 'x-api-key': partner.apiKey },
      body: form(ciiXml(spec), 'receipt.xml'),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      'file is not a supported document: unsupported file type for a receipt (it is an e-invoice XML file, CII): e-invoices are accepted as invoices only; a receipt must be a PDF, JPEG, PNG or WEBP file',
    );
  });
});
