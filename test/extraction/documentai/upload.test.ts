import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listEvents } from '../../../src/platform/events/outbox.queries.ts';
import { COST_CATEGORIES } from '../../../src/extraction/categories.ts';
import { CAFE_RECEIPT, makeInvoicePdf, makeReceiptImage, produceInvoice } from '../../fixtures/invoice-documents.ts';
import { toJpeg } from '../../fixtures/reading-fixtures.ts';
import { http, startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  EXPENSE_RESPONSE,
  type FakeDocumentAi,
  INVOICE_RESPONSE,
  recordConnections,
  recordUnhandledRejections,
  startFakeDocumentAi,
} from './fake-documentai.ts';

// The whole service started with EXTRACTOR=documentai, its Document AI endpoint a loopback server answering with
// the recorded responses: uploads carry Document AI's values, failures are recorded, nothing leaves the machine.

let server: FakeDocumentAi;
let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
let pdf: Buffer;
let jpeg: Buffer;
let connections: ReturnType<typeof recordConnections>;
let unhandled: ReturnType<typeof recordUnhandledRejections>;

function form(file: Buffer, name: string): FormData {
  const fd = new FormData();
  fd.append('file', new Blob([file]), name);
  return fd;
}
const v1 = () => ({ 'x-api-key': partner.apiKey });
const uploadInvoice = () => http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: v1(), body: form(pdf, 'invoice.pdf') });

beforeAll(async () => {
  connections = recordConnections();
  unhandled = recordUnhandledRejections();
  server = await startFakeDocumentAi();
  server.respond('inv0001', INVOICE_RESPONSE);
  server.respond('exp0002', EXPENSE_RESPONSE);
  t = await startTestApp({
    env: {
      EXTRACTOR: 'documentai',
      DOCUMENTAI_PROJECT: 'test-project',
      DOCUMENTAI_LOCATION: 'us',
      DOCUMENTAI_INVOICE_PROCESSOR: 'inv0001',
      DOCUMENTAI_EXPENSE_PROCESSOR: 'exp0002',
      DOCUMENTAI_API_ENDPOINT: server.endpoint,
    },
  });
  partner = await t.createPartner({ tier: 'storage' });
  pdf = await makeInvoicePdf(produceInvoice);
  jpeg = await toJpeg(await makeReceiptImage(CAFE_RECEIPT));
});
afterAll(async () => {
  await t?.close();
  await server?.close();
  connections?.stop();
  unhandled?.stop();
  expect(unhandled.reasons).toEqual([]);
  expect(connections.nonLoopback()).toEqual([]);
});

describe('EXTRACTOR=documentai', () => {
  test('starting the service contacts nothing: the client is built on the first upload', () => {
    expect(server.calls).toEqual([]);
  });

  test('POST /api/v1/partner/invoices/upload: 201 with the Invoice Parser’s values, line items categorised as the local path does', async () => {
    const res = await uploadInvoice();
    expect(res.status).toBe(201);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.processor).toBe('projects/test-project/locations/us/processors/inv0001');
    expect(server.calls[0]!.body.rawDocument).toEqual({ content: pdf.toString('base64'), mimeType: 'application/pdf' });
    expect(res.body).toMatchObject({
      vendorName: 'Green Valley Produce Co.',
      invoiceNumber: 'INV-20431',
      invoiceDate: '2024-03-05',
      dueDate: '2024-04-04',
      subtotal: 343.2,
      tax: 24.02,
      total: 367.22,
      currency: 'USD',
      status: 'processed',
      extractionConfidence: 98,
      splitInvoices: [],
    });
    expect(res.body.lineItems.map((l: any) => [l.sku, l.description, l.quantity, l.unit, l.unitPrice, l.total])).toEqual([
      ['PRD-1001', 'Romaine lettuce case', 4, 'case', 32.5, 130],
      ['MT-2040', 'Boneless chicken breast', 20, 'lb', 4.25, 85],
      ['PK-3310', 'Paper napkins 1/8 fold', 2, 'case', 38, 76],
      ['CL-0420', 'Dish soap concentrate', 3, 'gal', 12.4, 37.2],
      [null, 'Delivery fee', 1, 'ea', 15, 15],
    ]);
    for (const line of res.body.lineItems) expect(COST_CATEGORIES).toContain(line.costCategory);
    const byDescription = Object.fromEntries(res.body.lineItems.map((l: any) => [l.description, l.costCategory]));
    expect(byDescription).toMatchObject({
      'Boneless chicken breast': 'food_cost',
      'Paper napkins 1/8 fold': 'paper_packaging',
      'Dish soap concentrate': 'supply_cost',
      'Delivery fee': 'freight_delivery',
    });
    const got = await http(t.base, 'GET', `/api/v1/partner/invoices/${res.body.id}`, { headers: v1() });
    expect(got.body).toMatchObject({ id: res.body.id, status: 'processed', total: 367.22 });
  });

  test('the legacy extract-invoice response carries the per-field confidences', async () => {
    const res = await http(t.base, 'POST', '/api/partner/extract-invoice', {
      headers: { authorization: `Bearer ${partner.apiKey}` },
      body: form(pdf, 'invoice.pdf'),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, vendor: 'Green Valley Produce Co.', invoiceNumber: 'INV-20431', total: 367.22 });
    // The legacy body names its confidences after its own fields (vendor, not vendorName).
    expect(res.body.fieldConfidences).toEqual({ vendor: 98, invoiceNumber: 97, invoiceDate: 96, total: 99 });
  });

  test('POST /api/v1/partner/receipts/upload: 201 with the Expense Parser’s values', async () => {
    server.calls.length = 0;
    const res = await http(t.base, 'POST', '/api/v1/partner/receipts/upload', { headers: v1(), body: form(jpeg, 'receipt.jpg') });
    expect(res.status).toBe(201);
    expect(server.calls.map((c) => [c.processor, c.body.rawDocument?.mimeType])).toEqual([
      ['projects/test-project/locations/us/processors/exp0002', 'image/jpeg'],
    ]);
    expect(res.body).toMatchObject({
      merchantName: "LUIGI'S TRATTORIA",
      receiptDate: '2024-05-18',
      subtotal: 30.25,
      tax: 2.68,
      total: 38.93,
      paymentMethod: { type: 'credit', cardBrand: 'Visa', last4: '4417' },
      taxCategory: 'Meals',
    });
    expect(res.body.lineItems.map((l: any) => [l.description, l.quantity, l.total])).toEqual([
      ['Margherita pizza', 1, 14.5],
      ['Caesar salad', 1, 9.75],
      ['Sparkling water', 2, 6],
    ]);
    for (const line of res.body.lineItems) expect(COST_CATEGORIES).toContain(line.costCategory);
  });

  test.each([
    [500, /Google Document AI\) failed: INTERNAL; the upload can be retried/],
    [403, /Google Document AI\) failed: PERMISSION_DENIED/],
    [400, /rejected by the extraction service/],
  ])('Document AI answering %i: the invoice is recorded failed with the reason; the service stays up', async (status, reason) => {
    server.failNext(status);
    const res = await uploadInvoice();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'failed' });
    expect(res.body.error).toMatch(reason);
    const got = await http(t.base, 'GET', `/api/v1/partner/invoices/${res.body.id}`, { headers: v1() });
    expect(got.body).toMatchObject({ status: 'failed', error: res.body.error });
    const events = await listEvents(t.database.db, partner.tenantId);
    expect(events.filter((e) => e.subjectId === res.body.id).map((e) => e.type)).toEqual(['invoice.created', 'invoice.failed']);
    expect((await uploadInvoice()).body.status).toBe('processed');
  });

  test('Document AI failing on a receipt: 502 naming the service (no receipt is recorded)', async () => {
    server.failNext(500);
    // Not through `http()`: schema/openapi.yaml does not document 502 for this route yet (see the report).
    const res = await fetch(`${t.base}/api/v1/partner/receipts/upload`, { method: 'POST', headers: v1(), body: form(jpeg, 'receipt.jpg') });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: string }).error).toMatch(/Google Document AI\) failed: INTERNAL/);
    const health = await fetch(`${t.base}/healthz`);
    expect(health.status).toBe(200);
  });
});
