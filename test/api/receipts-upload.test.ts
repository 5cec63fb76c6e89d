import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listEvents } from '../../src/platform/events/outbox.queries.ts';
import { CAFE_RECEIPT, makeReceiptImage } from '../fixtures/invoice-documents.ts';
import { toJpeg, toWebp } from '../fixtures/reading-fixtures.ts';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
let png: Buffer;

const RECEIPT = CAFE_RECEIPT;

function form(file: Buffer, fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  fd.append('file', new Blob([file]), 'receipt.img');
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

beforeAll(async () => {
  t = await startTestApp();
  partner = await t.createPartner({ tier: 'storage' });
  png = await makeReceiptImage(RECEIPT);
});
afterAll(() => t?.close());

describe('POST /api/v1/partner/receipts/upload', () => {
  test.each([
    ['PNG', (b: Buffer) => Promise.resolve(b)],
    ['JPEG', toJpeg],
    ['WEBP', toWebp],
  ])('a %s photo is OCR’d offline into merchant, date and total', async (_kind, convert) => {
    const res = await http(t.base, 'POST', '/api/v1/partner/receipts/upload', { headers: { 'x-api-key': partner.apiKey }, body: form(await convert(png)) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ merchantName: 'BLUE HERON CAFE', receiptDate: '2024-03-14', total: 17.05, useType: 'business' });
    expect(res.body.subtotal).toBe(15.75);
    expect(res.body.tax).toBe(1.3);
    expect(res.body.taxCategory).toBe('Meals');
    expect(res.body.paymentMethod).toMatchObject({ type: 'credit', cardBrand: 'Visa', last4: '4417' });
  });

  test('useType is kept; a wrong one is 400; receipt.processed is in the outbox', async () => {
    // The image was uploaded above: force records it afresh (not as a duplicate, whose event is receipt.duplicate).
    const res = await http(t.base, 'POST', '/api/v1/partner/receipts/upload', {
      headers: { 'x-api-key': partner.apiKey },
      body: form(png, { useType: 'personal', force: 'true' }),
    });
    expect(res.status).toBe(201);
    expect(res.body.useType).toBe('personal');
    const bad = await http(t.base, 'POST', '/api/v1/partner/receipts/upload', {
      headers: { 'x-api-key': partner.apiKey },
      body: form(png, { useType: 'fun' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('useType must be one of business, personal, mixed (got "fun")');
    const events = await listEvents(t.database.db, partner.tenantId);
    expect(events.filter((e) => e.subjectId === res.body.id).map((e) => e.type)).toEqual(['receipt.processed']);
  });

  test('not an image is 400; the receipts:write scope is required', async () => {
    const txt = await http(t.base, 'POST', '/api/v1/partner/receipts/upload', {
      headers: { 'x-api-key': partner.apiKey },
      body: form(Buffer.from('TOTAL 5.00')),
    });
    expect(txt.status).toBe(400);
    const { apiKey } = await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['invoices:write'] });
    const denied = await http(t.base, 'POST', '/api/v1/partner/receipts/upload', { headers: { 'x-api-key': apiKey }, body: form(png) });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatch(/receipts:write/);
  });

  test('legacy extract-receipt mirrors extract-invoice', async () => {
    const res = await http(t.base, 'POST', '/api/partner/extract-receipt', { headers: { authorization: `Bearer ${partner.apiKey}` }, body: form(png) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, merchant: 'BLUE HERON CAFE', receiptDate: '2024-03-14', total: 17.05 });
    expect(res.body.documentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(res.body.fieldConfidences).sort()).toEqual(['merchant', 'receiptDate', 'total']);
  });

  test('GraphQL receipt(id) reads it back; another partner gets NOT_FOUND', async () => {
    const up = await http(t.base, 'POST', '/api/v1/partner/receipts/upload', { headers: { 'x-api-key': partner.apiKey }, body: form(png) });
    const q = 'query($id: UUID!) { receipt(id: $id) { id merchantName total lineItems { description total costCategory } fieldConfidences { total } } }';
    const mine = await gql(t.base, partner.apiKey, q, { id: up.body.id });
    expect(mine.body.data.receipt).toMatchObject({ id: up.body.id, merchantName: 'BLUE HERON CAFE', total: 17.05 });
    expect(mine.body.data.receipt.fieldConfidences.total).toBeGreaterThan(0);
    const stranger = await t.createPartner();
    const theirs = await gql(t.base, stranger.apiKey, q, { id: up.body.id });
    expect(theirs.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const unknown = await gql(t.base, partner.apiKey, q, { id: randomUUID() });
    expect(unknown.body.errors?.[0]?.message).toBe('receipt not found');
  });
});
