import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type InvoiceSpec, makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gql, gqlData, http, onTestServer, startTestApp, type TestApp } from '../helpers/app.ts';

// Documents in the back office: a person corrects extracted fields (recorded with who and when, counted in the
// vendor's accuracy), uploads from a signed-in session, and opens the original through a short-lived signed link.

let clock = new Date('2026-11-20T15:00:00Z');
let t: TestApp;
let embed: { partnerId: string; tenantId: string; apiKey: string };
let tenantId: string;
const stores: Record<string, string> = {};
const ids: Record<string, string> = {};
const key = () => ({ 'x-api-key': embed.apiKey });
const spec = (vendor: string, number: string): InvoiceSpec => ({ vendor, number, date: '2026-11-05', taxRate: 0.1, lines: produceInvoice.lines.slice(0, 2) });
const CORRECT = `mutation($id: UUID!, $input: InvoiceCorrectionInput!) {
  correctInvoice(id: $id, input: $input) {
    vendorName total invoiceDate fieldConfidences { vendorName total }
    corrections { field previousValue value correctedBy correctedAt }
    vendor { name invoiceCount totalSpent extractionAccuracy { invoiceCount correctedInvoices correctedFields accuracyPercent } }
  }
}`;

async function upload(store: string, s: InvoiceSpec): Promise<string> {
  const fd = new FormData();
  fd.append('file', new Blob([await makeInvoicePdf(s)]), `${s.number}.pdf`);
  fd.append('tenantId', tenantId);
  fd.append('storeId', stores[store]!);
  const res = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: key(), body: fd });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function signIn(role: string, externalStoreId = 'hb-1'): Promise<string> {
  const res = await http(t.base, 'POST', `/api/v1/partner/tenants/${tenantId}/embed/auth`, {
    headers: key(),
    json: { email: `${role}@bistro.example`, name: `The ${role}`, role, externalStoreId },
  });
  const open = await fetch(onTestServer(t.base, res.body.data.embedUrl), { redirect: 'manual' });
  return open.headers.get('set-cookie')!.split(';')[0]!;
}

async function asSession<T = any>(cookie: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${t.base}/graphql`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: T; errors?: Array<{ message: string; extensions: { code: string } }> };
}

beforeAll(async () => {
  t = await startTestApp({ now: () => clock });
  embed = await t.createPartner({ tier: 'embed' });
  tenantId = (
    await http(t.base, 'POST', '/api/v1/partner/tenants', {
      headers: key(),
      json: { name: 'Harbor Street Bistro', email: 'o@harbor.example', maxLocations: 2 },
    })
  ).body.tenantId;
  for (const id of ['hb-1', 'hb-2']) {
    stores[id] = (
      await http(t.base, 'POST', `/api/v1/partner/tenants/${tenantId}/stores`, { headers: key(), json: { externalStoreId: id, name: id } })
    ).body.data.store.id;
  }
  ids.produce = await upload('hb-1', spec('Green Valley Produce Co.', 'GV-1'));
  ids.airport = await upload('hb-2', spec('Airport Seafood Supply Inc.', 'AS-1'));
}, 120_000);
afterAll(() => t?.close());

describe('correctInvoice', () => {
  test('fields change, each correction is recorded with who and when, and the vendor totals and accuracy follow', async () => {
    const { correctInvoice: c } = await gqlData(t.base, embed.apiKey, CORRECT, {
      id: ids.produce,
      input: { vendorName: 'Green Valley Farms', total: 200.5, invoiceDate: '2026-11-05' },
    });
    expect(c.vendorName).toBe('Green Valley Farms');
    expect(c.total).toBe(200.5);
    expect(c.fieldConfidences).toEqual({ vendorName: 100, total: 100 });
    // invoiceDate was already 2026-11-05: not a correction
    expect(c.corrections).toEqual([
      {
        field: 'vendorName',
        previousValue: 'Green Valley Produce Co.',
        value: 'Green Valley Farms',
        correctedBy: expect.stringMatching(/^API key pk_.{8}…$/),
        correctedAt: clock.toISOString(),
      },
      { field: 'total', previousValue: '206.25', value: '200.5', correctedBy: expect.any(String), correctedAt: clock.toISOString() },
    ]);
    expect(c.vendor).toEqual({
      name: 'Green Valley Farms',
      invoiceCount: 1,
      totalSpent: 200.5,
      extractionAccuracy: { invoiceCount: 1, correctedInvoices: 1, correctedFields: 2, accuracyPercent: 71.43 },
    });
    const { vendors } = await gqlData(t.base, embed.apiKey, `query($t: UUID) { vendors(tenantId: $t) { name invoiceCount totalSpent } }`, { t: tenantId });
    expect(vendors).toContainEqual({ name: 'Green Valley Produce Co.', invoiceCount: 0, totalSpent: 0 });
  });

  test.each([
    [{ total: 1.234 }, 'BAD_USER_INPUT', /total must be an amount with at most 2 decimals/],
    [{ invoiceDate: '2026-02-30' }, 'BAD_USER_INPUT', /invoiceDate/],
    [{ vendorName: 'x'.repeat(201) }, 'BAD_USER_INPUT', /vendorName/],
  ])('%j → %s', async (input, code, message) => {
    const res = await gql(t.base, embed.apiKey, CORRECT, { id: ids.produce, input });
    expect(res.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(message), extensions: { code } });
  });

  test('an unknown invoice is NOT_FOUND; a key without invoices:write is FORBIDDEN', async () => {
    const unknown = await gql(t.base, embed.apiKey, CORRECT, { id: '00000000-0000-4000-8000-000000000000', input: { total: 1 } });
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const { apiKey } = await t.app.services.partners.createApiKey({ partnerId: embed.partnerId, scopes: ['invoices:read'] });
    const refused = await gql(t.base, apiKey, CORRECT, { id: ids.produce, input: { total: 1 } });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  test('a store manager corrects and uploads for their own store only, as themselves', async () => {
    const cookie = await signIn('store_manager');
    const mine = await asSession(cookie, CORRECT, { id: ids.produce, input: { invoiceNumber: 'GV-1A' } });
    expect(mine.errors).toBeUndefined();
    expect(mine.data.correctInvoice.corrections.find((c: { field: string }) => c.field === 'invoiceNumber')).toMatchObject({
      field: 'invoiceNumber',
      value: 'GV-1A',
      correctedBy: 'The store_manager <store_manager@bistro.example>',
    });
    const other = await asSession(cookie, CORRECT, { id: ids.airport, input: { invoiceNumber: 'X' } });
    expect(other.errors?.[0]?.extensions.code).toBe('NOT_FOUND');

    const fd = new FormData();
    fd.append(
      'operations',
      JSON.stringify({ query: 'mutation($f: Upload!) { uploadInvoice(file: $f) { invoice { id storeId vendorName status } } }', variables: { f: null } }),
    );
    fd.append('map', JSON.stringify({ 0: ['variables.f'] }));
    fd.append('0', new Blob([await makeInvoicePdf(spec('Harbor Bakery LLC', 'HB-9'))]), 'HB-9.pdf');
    const res = await fetch(`${t.base}/graphql`, { method: 'POST', headers: { cookie, 'apollo-require-preflight': 'true' }, body: fd });
    const body = (await res.json()) as any;
    expect(body.errors).toBeUndefined();
    expect(body.data.uploadInvoice.invoice).toMatchObject({ storeId: stores['hb-1'], vendorName: 'Harbor Bakery LLC', status: 'processed' });
  });
});

describe('the original document through a short-lived link', () => {
  const ORIGINAL = `query($id: UUID!) { invoice(id: $id) { original { url expiresAt fileType mimeType pageCount fileName } } }`;

  test('an API key gets a signed link that works for 5 minutes; a changed or expired one is 403', async () => {
    const { invoice } = await gqlData(t.base, embed.apiKey, ORIGINAL, { id: ids.airport });
    expect(invoice.original).toMatchObject({
      fileType: 'pdf',
      mimeType: 'application/pdf',
      pageCount: 1,
      fileName: 'AS-1.pdf',
      expiresAt: '2026-11-20T15:05:00.000Z',
    });
    const url = onTestServer(t.base, invoice.original.url);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/pdf');
    expect(ok.headers.get('content-security-policy')).toContain('sandbox');
    expect(
      Buffer.from(await ok.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect((await fetch(url.replace(/signature=[^&]+/, 'signature=AAAA'))).status).toBe(403);
    expect((await fetch(url.replace(/expires=\d+/, (m) => `expires=${Number(m.slice(8)) + 60}`))).status).toBe(403);
    expect((await fetch(url.replace(/\/documents\/[^?]+/, '/documents/not-a-uuid'))).status).toBe(403);
    const issued = clock;
    clock = new Date(issued.getTime() + 5 * 60_000 + 1000);
    try {
      expect((await fetch(url)).status).toBe(403);
    } finally {
      clock = issued;
    }
  });

  test('a signed-in user’s link opens only in that user’s session', async () => {
    const cookie = await signIn('store_manager');
    const res = await asSession<{ invoice: { original: { url: string } } }>(cookie, ORIGINAL, { id: ids.produce });
    const url = onTestServer(t.base, res.data!.invoice.original.url);
    expect(url).toContain('holder=s%3A');
    expect((await fetch(url)).status).toBe(403);
    expect((await fetch(url, { headers: { cookie: await signIn('executive') } })).status).toBe(403);
    expect((await fetch(url, { headers: { cookie } })).status).toBe(200);
  });
});
