import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listEvents } from '../../src/platform/events/outbox.queries.ts';
import { COST_CATEGORIES } from '../../src/extraction/categories.ts';
import { equipmentInvoice, invoiceTotals, makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { makeCorruptPdf, makeTextPdf } from '../fixtures/reading-fixtures.ts';
import { http, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
let multiPagePdf: Buffer;

const v1 = (key: string) => ({ 'x-api-key': key });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function form(file: Buffer | string | null, name = 'invoice.pdf', fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  if (file !== null) fd.append('file', new Blob([file]), name);
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

const upload = (key: string, fd: FormData) => http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: v1(key), body: fd });

beforeAll(async () => {
  t = await startTestApp();
  partner = await t.createPartner({ tier: 'storage' });
  multiPagePdf = await makeInvoicePdf(produceInvoice);
});
afterAll(() => t?.close());

describe('POST /api/v1/partner/invoices/upload', () => {
  let uploaded: Record<string, any>;

  test('extracts a multi-page PDF invoice: 201 with every field typed and correct, categories from the 19', async () => {
    const res = await upload(partner.apiKey, form(multiPagePdf));
    expect(res.status).toBe(201);
    uploaded = res.body;
    const totals = invoiceTotals(produceInvoice);
    expect(res.body).toMatchObject({
      vendorName: 'Green Valley Produce Co.',
      invoiceNumber: 'INV-20431',
      invoiceDate: '2024-03-05',
      dueDate: '2024-04-04',
      subtotal: totals.subtotal,
      tax: totals.tax,
      total: totals.total,
      currency: 'USD',
      status: 'processed',
      splitInvoices: [],
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(res.body.createdAt))).toBe(false);
    expect(res.body.extractionConfidence).toBeGreaterThan(50);
    expect(res.body.extractionConfidence).toBeLessThanOrEqual(100);
    // Both pages' rows, in order, with quantities, units, prices and categories.
    expect(res.body.lineItems.map((l: any) => [l.description, l.quantity, l.unit, l.unitPrice, l.total])).toEqual(
      produceInvoice.lines.map((l) => [l.description, l.quantity, l.unit, l.unitPrice, Math.round(l.quantity * l.unitPrice * 100) / 100]),
    );
    expect(res.body.lineItems.map((l: any) => l.sku)).toEqual(produceInvoice.lines.map((l) => l.sku));
    for (const line of res.body.lineItems) expect(COST_CATEGORIES).toContain(line.costCategory);
    const byDescription = Object.fromEntries(res.body.lineItems.map((l: any) => [l.description, l.costCategory]));
    expect(byDescription['Boneless chicken breast']).toBe('food_cost');
    expect(byDescription['Paper napkins 1/8 fold']).toBe('paper_packaging');
    expect(byDescription['Dish soap concentrate']).toBe('supply_cost');
    expect(byDescription['Orange juice 1 gal']).toBe('nonalcoholic_beverage_cost');
    expect(byDescription['Delivery fee']).toBe('freight_delivery');
    expect(res.body.costCategories).toEqual([...new Set(res.body.lineItems.map((l: any) => l.costCategory))]);
  });

  test('GET returns the same record', async () => {
    const res = await http(t.base, 'GET', `/api/v1/partner/invoices/${uploaded.id}`, { headers: v1(partner.apiKey) });
    expect(res.status).toBe(200);
    const { splitInvoices: _, ...invoice } = uploaded;
    expect(res.body).toEqual(invoice);
  });

  test('a two-vendor PDF is split into two invoice records', async () => {
    const res = await upload(partner.apiKey, form(await makeInvoicePdf(equipmentInvoice, { ...produceInvoice, linesPerPage: undefined })));
    expect(res.status).toBe(201);
    expect(res.body.vendorName).toBe('Summit Restaurant Equipment LLC');
    expect(res.body.total).toBe(invoiceTotals(equipmentInvoice).total);
    expect(res.body.costCategories).toContain('equipment');
    expect(res.body.splitInvoices).toHaveLength(1);
    const second = res.body.splitInvoices[0];
    expect(second).toMatchObject({
      vendorName: 'Green Valley Produce Co.',
      invoiceNumber: 'INV-20431',
      total: invoiceTotals(produceInvoice).total,
      status: 'processed',
    });
    expect(second.id).not.toBe(res.body.id);
    const got = await http(t.base, 'GET', `/api/v1/partner/invoices/${second.id}`, { headers: v1(partner.apiKey) });
    expect(got.body.vendorName).toBe('Green Valley Produce Co.');
  });

  test('every state change is in the outbox: created → vendor.created (new vendors only) → processed', async () => {
    const events = await listEvents(t.database.db, partner.tenantId);
    const ofFirst = events.filter((e) => e.subjectId === uploaded.id).map((e) => e.type);
    expect(ofFirst).toEqual(['invoice.created', 'invoice.processed']);
    const vendorEvents = events.filter((e) => e.type === 'vendor.created').map((e) => (e.payload as any).name);
    expect(vendorEvents.sort()).toEqual(['Green Valley Produce Co.', 'Summit Restaurant Equipment LLC']);
    const processed = events.find((e) => e.subjectId === uploaded.id && e.type === 'invoice.processed')!;
    expect((processed.payload as any).total).toBe(uploaded.total);
  });

  test('a corrupt PDF ends as a failed record with the reason; GET shows it; the server stays up', async () => {
    const res = await upload(partner.apiKey, form(makeCorruptPdf()));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatch(/corrupt|damaged|could not be read|invalid/i);
    expect(res.body.lineItems).toEqual([]);
    const got = await http(t.base, 'GET', `/api/v1/partner/invoices/${res.body.id}`, { headers: v1(partner.apiKey) });
    expect(got.body).toMatchObject({ status: 'failed', error: res.body.error });
    const events = await listEvents(t.database.db, partner.tenantId);
    expect(events.filter((e) => e.subjectId === res.body.id).map((e) => e.type)).toEqual(['invoice.created', 'invoice.failed']);
    expect((await http(t.base, 'GET', '/healthz')).status).toBe(200);
  });

  test('an encrypted PDF ends failed, naming the password protection', async () => {
    const locked = await makeTextPdf([[{ text: 'Invoice 1', x: 50, y: 50 }]], { userPassword: 'secret' });
    const res = await upload(partner.apiKey, form(locked));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'failed' });
    expect(res.body.error).toMatch(/password|encrypt/i);
  });

  test.each([
    ['a .txt renamed .pdf', Buffer.from('Invoice 42\nTotal: 10.00\n'), /^file is not a supported document: unsupported file type.*PDF/i],
    ['an empty file', Buffer.alloc(0), /^file is not a supported document: the file is empty$/],
    ['a GIF image', Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64)]), /GIF/],
  ])('%s is 400 with a message and no record', async (_name, bytes, message) => {
    const before = await t.database.db
      .selectFrom('invoices')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await upload(partner.apiKey, form(bytes));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    const after = await t.database.db
      .selectFrom('invoices')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  test('a 26 MB file is 400 (v1) and 413 (legacy); the server stays up', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(26 * 1024 * 1024, 0x20)]);
    const res = await upload(partner.apiKey, form(big));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/25 MB/);
    const legacy = await http(t.base, 'POST', '/api/partner/extract-invoice', { headers: bearer(partner.apiKey), body: form(big) });
    expect(legacy.status).toBe(413);
    expect(legacy.body).toMatchObject({ success: false });
    expect((await http(t.base, 'GET', '/healthz')).status).toBe(200);
  });

  test('bad requests: no file part, a JSON body, a text field named file, a bad storeId', async () => {
    const noFile = await upload(partner.apiKey, form(null, undefined, { storeId: randomUUID() }));
    expect(noFile.status).toBe(400);
    expect(noFile.body.error).toMatch(/file is required/);
    const json = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: v1(partner.apiKey), json: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatch(/multipart/);
    const textField = new FormData();
    textField.append('file', 'not a file');
    expect((await upload(partner.apiKey, textField)).status).toBe(400);
    const badStore = await upload(partner.apiKey, form(multiPagePdf, undefined, { storeId: 'nope' }));
    expect(badStore.status).toBe(400);
    expect(badStore.body.error).toMatch(/storeId/);
  });

  test("a store of another tenant and another partner's tenant are 404; tenantId needs Platform Embed", async () => {
    const unknownStore = await upload(partner.apiKey, form(multiPagePdf, undefined, { storeId: randomUUID() }));
    expect(unknownStore).toMatchObject({ status: 404, body: { error: 'store not found' } });
    const notEmbed = await upload(partner.apiKey, form(multiPagePdf, undefined, { tenantId: partner.tenantId }));
    expect(notEmbed.status).toBe(403);
    expect(notEmbed.body.error).toMatch(/Platform Embed/);
    const embed = await t.createPartner({ tier: 'embed' });
    const other = await upload(embed.apiKey, form(multiPagePdf, undefined, { tenantId: partner.tenantId }));
    expect(other).toMatchObject({ status: 404, body: { error: 'tenant not found' } });
  });

  test('scopes: uploading needs invoices:write, reading needs invoices:read; no key is 401', async () => {
    const { apiKey: readOnly } = await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['invoices:read'] });
    const denied = await upload(readOnly, form(multiPagePdf));
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatch(/invoices:write/);
    const { apiKey: writeOnly } = await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['invoices:write'] });
    const get = await http(t.base, 'GET', `/api/v1/partner/invoices/${uploaded.id}`, { headers: v1(writeOnly) });
    expect(get.status).toBe(403);
    const anonymous = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { body: form(multiPagePdf) });
    expect(anonymous.status).toBe(401);
  });

  test("unknown ids and another partner's invoice are 404", async () => {
    const stranger = await t.createPartner();
    const theirs = await http(t.base, 'GET', `/api/v1/partner/invoices/${uploaded.id}`, { headers: v1(stranger.apiKey) });
    expect(theirs).toMatchObject({ status: 404, body: { error: 'invoice not found' } });
    const unknown = await http(t.base, 'GET', `/api/v1/partner/invoices/${randomUUID()}`, { headers: v1(partner.apiKey) });
    expect(unknown.status).toBe(404);
  });

  test('the file is kept for the Storage tier and not for the Extraction tier', async () => {
    const doc = await t.database.db
      .selectFrom('documents')
      .innerJoin('invoices', 'invoices.documentId', 'documents.id')
      .select(['documents.blobKey', 'documents.pageCount', 'documents.sizeBytes'])
      .where('invoices.id', '=', uploaded.id)
      .executeTakeFirstOrThrow();
    expect(doc.blobKey).toMatch(new RegExp(`^${partner.tenantId}/invoices/.+\\.pdf$`));
    expect(doc.pageCount).toBe(2);
    expect(doc.sizeBytes).toBe(multiPagePdf.length);
    expect(await t.app.blobs.get(doc.blobKey!)).toEqual(multiPagePdf);

    const basic = await t.createPartner({ tier: 'extraction' });
    const res = await upload(basic.apiKey, form(multiPagePdf));
    expect(res.status).toBe(201);
    const basicDoc = await t.database.db
      .selectFrom('documents')
      .innerJoin('invoices', 'invoices.documentId', 'documents.id')
      .select('documents.blobKey')
      .where('invoices.id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(basicDoc.blobKey).toBeNull();
  });
});

describe('POST /api/partner/extract-invoice (legacy)', () => {
  test('returns the legacy shape: vendor, documentId, lineTotal, fieldConfidences', async () => {
    const basic = await t.createPartner({ tier: 'extraction', legacyPlan: 'professional' });
    const res = await http(t.base, 'POST', '/api/partner/extract-invoice', {
      headers: bearer(basic.apiKey),
      body: form(multiPagePdf, 'x.pdf', { store: 'true' }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      vendor: 'Green Valley Produce Co.',
      invoiceNumber: 'INV-20431',
      invoiceDate: '2024-03-05',
      dueDate: '2024-04-04',
      total: invoiceTotals(produceInvoice).total,
    });
    expect(res.body.lineItems[0]).toEqual({ description: 'Romaine lettuce case', quantity: 4, unit: 'case', unitPrice: 32.5, lineTotal: 130 });
    expect(Object.keys(res.body.fieldConfidences).sort()).toEqual(['invoiceDate', 'invoiceNumber', 'total', 'vendor']);
    for (const v of Object.values(res.body.fieldConfidences)) expect(v).toBeGreaterThan(0);
    expect(res.body).not.toHaveProperty('vendorName');
    // store=true keeps the file even on the Extraction tier; documentId is the invoice's id.
    const doc = await t.database.db
      .selectFrom('documents')
      .innerJoin('invoices', 'invoices.documentId', 'documents.id')
      .select('documents.blobKey')
      .where('invoices.id', '=', res.body.documentId)
      .executeTakeFirstOrThrow();
    expect(doc.blobKey).not.toBeNull();
  });

  test('legacy errors: X-API-Key is not accepted, bad files are 400 with success false', async () => {
    const wrongHeader = await http(t.base, 'POST', '/api/partner/extract-invoice', { headers: v1(partner.apiKey), body: form(multiPagePdf) });
    expect(wrongHeader.status).toBe(401);
    const txt = await http(t.base, 'POST', '/api/partner/extract-invoice', { headers: bearer(partner.apiKey), body: form(Buffer.from('hello'), 'a.pdf') });
    expect(txt).toMatchObject({ status: 400, body: { success: false } });
    const corrupt = await http(t.base, 'POST', '/api/partner/extract-invoice', { headers: bearer(partner.apiKey), body: form(makeCorruptPdf()) });
    expect(corrupt).toMatchObject({ status: 400, body: { success: false } });
    const badStore = await http(t.base, 'POST', '/api/partner/extract-invoice', {
      headers: bearer(partner.apiKey),
      body: form(multiPagePdf, 'a.pdf', { store: 'maybe' }),
    });
    expect(badStore.status).toBe(400);
    expect(badStore.body.error).toMatch(/store/);
  });
});
