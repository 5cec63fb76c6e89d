import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { insertTenant } from '../../src/modules/tenants/tenants.queries.ts';
import { equipmentInvoice, makeInvoicePdf, paperGoodsInvoice, produceInvoice } from '../fixtures/invoice-documents.ts';
import { makeCorruptPdf } from '../fixtures/reading-fixtures.ts';
import { gql, gqlUpload, http, startTestApp, type TestApp } from '../helpers/app.ts';

// Metering: every processed document is one usage record at the partner's price (0.50 USD on the Extraction API
// tier, 0.85 on Extraction + Storage, a custom price on Platform Embed); failed documents are not charged.

let t: TestApp;
const clock = new Date('2026-11-15T12:00:00Z');
let pdfs: { produce: Buffer; equipment: Buffer; paper: Buffer; twoVendors: Buffer };

function form(file: Buffer, fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append('file', new Blob([file]), 'invoice.pdf');
  return fd;
}

const USAGE = `query($period: String) { usage(period: $period) { period { start end } currency documents pages amount
  byTenant { tenantId tenantName documents pages amount } byKind { kind documents amount } byChannel { channel documents amount } } }`;

beforeAll(async () => {
  t = await startTestApp({ now: () => clock });
  pdfs = {
    produce: await makeInvoicePdf(produceInvoice),
    equipment: await makeInvoicePdf(equipmentInvoice),
    paper: await makeInvoicePdf(paperGoodsInvoice),
    // Other invoice numbers than the single files: its parts are no duplicates of them (duplicates are not charged).
    twoVendors: await makeInvoicePdf({ ...produceInvoice, number: 'INV-20432' }, { ...equipmentInvoice, number: 'SRE-5568' }),
  };
});
afterAll(() => t?.close());

describe('usage and billing', () => {
  test('Extraction + Storage: v1, legacy and GraphQL uploads are metered at 0.85 per document, per tenant and channel; failures are free', async () => {
    const p = await t.createPartner({ tier: 'storage', legacyPlan: 'professional' });
    const v1 = { 'x-api-key': p.apiKey };
    expect((await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: v1, body: form(pdfs.produce) })).status).toBe(201);
    // one file split into two invoices is one document
    const split = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: v1, body: form(pdfs.twoVendors) });
    expect(split.body.splitInvoices).toHaveLength(1);
    const failed = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: v1, body: form(makeCorruptPdf()) });
    expect(failed.body.status).toBe('failed');
    const legacy = await http(t.base, 'POST', '/api/partner/extract-invoice', { headers: { authorization: `Bearer ${p.apiKey}` }, body: form(pdfs.equipment) });
    expect(legacy.status).toBe(200);
    const viaGql = await gqlUpload(t.base, p.apiKey, `mutation($file: Upload!) { uploadInvoice(file: $file) { invoice { status } } }`, { file: pdfs.paper });
    expect(viaGql.body.data.uploadInvoice.invoice.status).toBe('processed');

    const usage = (await gql(t.base, p.apiKey, USAGE)).body.data!.usage;
    expect(usage).toMatchObject({
      period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
      currency: 'USD',
      documents: 4,
      pages: 7, // produce 2 + the two-vendor file 3 + equipment 1 + paper goods 1
      amount: 3.4,
      byKind: [{ kind: 'invoice', documents: 4, amount: 3.4 }],
    });
    expect(usage.byTenant).toEqual([{ tenantId: p.tenantId, tenantName: expect.any(String), documents: 4, pages: 7, amount: 3.4 }]);
    expect(Object.fromEntries(usage.byChannel.map((c: { channel: string; documents: number }) => [c.channel, c.documents]))).toEqual({
      v1: 2,
      legacy: 1,
      graphql: 1,
    });

    const legacyUsage = await http(t.base, 'GET', '/api/partner/usage', { headers: { authorization: `Bearer ${p.apiKey}` } });
    expect(legacyUsage.body).toMatchObject({
      success: true,
      plan: 'professional',
      usage: { requests: 2, documents: 4 },
      limits: { perMinute: 60, perMonth: 10_000 },
      remaining: { perMinute: 58, perMonth: 9_998 },
    });
    // another month has nothing
    expect((await gql(t.base, p.apiKey, USAGE, { period: '2026-10' })).body.data!.usage).toMatchObject({ documents: 0, amount: 0, byTenant: [] });
    expect((await gql(t.base, p.apiKey, USAGE, { period: '2026-13' })).body.errors?.[0]?.message).toBe('period must be a month YYYY-MM (got "2026-13")');
  });

  test('Extraction API tier at 0.50; Platform Embed at its custom price, per sub-tenant', async () => {
    const basic = await t.createPartner({ tier: 'extraction' });
    await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: { 'x-api-key': basic.apiKey }, body: form(pdfs.produce) });
    expect((await gql(t.base, basic.apiKey, USAGE)).body.data!.usage).toMatchObject({ documents: 1, amount: 0.5 });

    const embed = await t.createPartner({ tier: 'embed' });
    await t.app.services.partners.setPrice({ partnerId: embed.partnerId, price: 0.3 });
    await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: { 'x-api-key': embed.apiKey }, body: form(pdfs.produce) });
    const second = await insertTenant(t.database.db, embed.partnerId, { name: 'Second brand' });
    const res = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', {
      headers: { 'x-api-key': embed.apiKey },
      body: form(pdfs.paper, { tenantId: second.id }),
    });
    expect(res.status).toBe(201);
    const usage = (await gql(t.base, embed.apiKey, USAGE)).body.data!.usage;
    expect(usage).toMatchObject({ documents: 2, amount: 0.6 });
    expect(usage.byTenant).toEqual([
      { tenantId: embed.tenantId, tenantName: expect.any(String), documents: 1, pages: 2, amount: 0.3 },
      { tenantId: second.id, tenantName: 'Second brand', documents: 1, pages: 1, amount: 0.3 },
    ]);
    // partners never see each other's usage
    expect((await gql(t.base, basic.apiKey, USAGE)).body.data!.usage.documents).toBe(1);
  });
});
