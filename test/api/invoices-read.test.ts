import { randomUUID } from 'node:crypto';
import { newDocument } from '../fixtures/new-document.ts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DeliveredInvoice } from '../../src/extraction/types.ts';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
let invoiceId: string;

const extracted: DeliveredInvoice = {
  vendorName: 'Restaurant Depot',
  invoiceNumber: 'RD-20931',
  invoiceDate: '2026-10-02',
  dueDate: null,
  subtotal: 75.5,
  tax: 6.04,
  total: 81.54,
  currency: 'USD',
  lineItems: [
    { description: 'Chicken breast 40 lb', sku: 'CB40', quantity: 1, unit: 'case', unitPrice: 62, total: 62 },
    { description: 'Dish soap 1 gal', sku: null, quantity: 1, unit: null, unitPrice: 13.5, total: 13.5 },
  ],
  confidence: 88,
  fieldConfidences: { vendorName: 80, invoiceNumber: 90, invoiceDate: 90, total: 95 },
  pages: [1, 2],
  source: 'text',
};

beforeAll(async () => {
  t = await startTestApp();
  partner = await t.createPartner();
  const started = await t.app.services.invoices.start(partner.tenantId, newDocument({ sizeBytes: 10, pageCount: 2 }), null);
  await t.app.services.invoices.complete(started, [extracted]);
  invoiceId = started.id;
});
afterAll(() => t?.close());

test('GET /api/v1/partner/invoices/{id} returns the ExtractedInvoice with line items and categories', async () => {
  const res = await http(t.base, 'GET', `/api/v1/partner/invoices/${invoiceId}`, { headers: { 'x-api-key': partner.apiKey } });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    id: invoiceId,
    vendorName: 'Restaurant Depot',
    invoiceNumber: 'RD-20931',
    invoiceDate: '2026-10-02',
    dueDate: null,
    subtotal: 75.5,
    tax: 6.04,
    total: 81.54,
    currency: 'USD',
    extractionConfidence: 88,
    status: 'processed',
    error: null,
    source: 'text',
    duplicateOf: null,
    lineItems: [
      { description: 'Chicken breast 40 lb', sku: 'CB40', quantity: 1, unit: 'case', unitPrice: 62, total: 62, costCategory: 'food_cost' },
      { description: 'Dish soap 1 gal', sku: null, quantity: 1, unit: null, unitPrice: 13.5, total: 13.5, costCategory: 'supply_cost' },
    ],
    costCategories: ['food_cost', 'supply_cost'],
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
  });
  const viaGraphQL = await gql(t.base, partner.apiKey, 'query($id: UUID!) { invoice(id: $id) { id total lineItems { sku } costCategories } }', {
    id: invoiceId,
  });
  expect(viaGraphQL.body.data.invoice).toEqual({
    id: invoiceId,
    total: 81.54,
    lineItems: [{ sku: 'CB40' }, { sku: null }],
    costCategories: ['food_cost', 'supply_cost'],
  });
});

test('unknown ids and other partners’ invoices are 404; a malformed id is 400; no invoices:read is 403', async () => {
  const stranger = await t.createPartner();
  for (const [key, id] of [
    [partner.apiKey, randomUUID()],
    [stranger.apiKey, invoiceId],
  ] as const) {
    const res = await http(t.base, 'GET', `/api/v1/partner/invoices/${id}`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'invoice not found' });
  }
  const bad = await http(t.base, 'GET', '/api/v1/partner/invoices/not-a-uuid', { headers: { 'x-api-key': partner.apiKey } });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toMatch(/^id must be a UUID \(got "not-a-uuid"\)$/);
  const { apiKey } = await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['read'] });
  const forbidden = await http(t.base, 'GET', `/api/v1/partner/invoices/${invoiceId}`, { headers: { 'x-api-key': apiKey } });
  expect(forbidden.status).toBe(403);
  expect(forbidden.body.error).toMatch(/invoices:read/);
});
