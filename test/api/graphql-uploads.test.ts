import { newDocument } from '../fixtures/new-document.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DeliveredInvoice } from '../../src/extraction/types.ts';
import { CAFE_RECEIPT, equipmentInvoice, invoicePages, invoiceTotals, makeInvoicePdf, paperGoodsInvoice } from '../fixtures/invoice-documents.ts';
import { makeTextPdf } from '../fixtures/reading-fixtures.ts';
import { gql, gqlData, gqlUpload, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
const statements: string[] = [];

const UPLOAD = `mutation($file: Upload!) { uploadInvoice(file: $file) {
  invoice { id vendorName total status vendor { name invoiceCount } lineItems { description costCategory } }
  splitInvoices { id } invoices { id } } }`;

const multipartGql = (key: string, query: string, files: Record<string, Buffer>, headers?: Record<string, string>) =>
  gqlUpload(t.base, key, query, files, { headers });

function fields(i: number, vendor: string): DeliveredInvoice {
  return {
    vendorName: vendor,
    invoiceNumber: `N-${i}`,
    invoiceDate: `2024-01-${String((i % 28) + 1).padStart(2, '0')}`,
    dueDate: null,
    subtotal: 10,
    tax: 1,
    total: 11,
    currency: 'USD',
    lineItems: [
      { description: 'Chicken thighs', sku: null, quantity: 1, unit: null, unitPrice: 6, total: 6 },
      { description: 'Paper towels', sku: null, quantity: 1, unit: null, unitPrice: 4, total: 4 },
    ],
    confidence: 80,
    fieldConfidences: {},
    pages: [1],
    source: 'text',
  };
}

beforeAll(async () => {
  t = await startTestApp({ onQuery: (sql) => statements.push(sql) });
  partner = await t.createPartner({ tier: 'storage' });
  for (let i = 0; i < 50; i++) {
    const started = await t.app.services.invoices.start(partner.tenantId, newDocument(), null);
    await t.app.services.invoices.complete(started, [fields(i, ['Sysco', 'US Foods', 'Restaurant Depot'][i % 3]!)]);
  }
});
afterAll(() => t?.close());

describe('uploads over the GraphQL multipart request spec', () => {
  test('uploadInvoice extracts the file; vendor and line items resolve', async () => {
    const res = await multipartGql(partner.apiKey, UPLOAD, { file: await makeInvoicePdf(equipmentInvoice) });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const up = res.body.data.uploadInvoice;
    expect(up.invoice).toMatchObject({ vendorName: 'Summit Restaurant Equipment LLC', total: invoiceTotals(equipmentInvoice).total, status: 'processed' });
    expect(up.invoice.vendor).toEqual({ name: 'Summit Restaurant Equipment LLC', invoiceCount: 1 });
    expect(up.invoice.lineItems).toHaveLength(2);
    expect(up.splitInvoices).toEqual([]);
    expect(up.invoices.map((i: any) => i.id)).toEqual([up.invoice.id]);
  });

  test('without a preflight header the multipart POST is refused (CSRF prevention)', async () => {
    const res = await multipartGql(partner.apiKey, UPLOAD, { file: await makeInvoicePdf(equipmentInvoice) }, {});
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/Apollo-Require-Preflight/i);
  });

  test('a malformed multipart request is 400 with a message; a literal for Upload is a validation error', async () => {
    const fd = new FormData();
    fd.append('operations', '{not json');
    fd.append('map', '{}');
    const res = await fetch(`${t.base}/graphql`, { method: 'POST', headers: { 'x-api-key': partner.apiKey, 'apollo-require-preflight': 'true' }, body: fd });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toMatch(/operations.*JSON/);
    const literal = await gql(t.base, partner.apiKey, 'mutation { uploadInvoice(file: "x") { invoice { id } } }');
    expect(literal.body.errors?.[0]?.message).toMatch(/multipart/);
  });
});

describe('invoices connection', () => {
  test('pages newest first with first/after, without repeats or gaps', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res: { body: any } = await gql(
        t.base,
        partner.apiKey,
        'query($after: String) { invoices(first: 20, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }',
        { after },
      );
      const conn: any = res.body.data.invoices;
      seen.push(...conn.nodes.map((n: any) => n.id));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(51);
    expect(new Set(seen).size).toBe(51);
  });

  test("a cursor naming another partner's invoice or tenant positions nothing: the page is empty", async () => {
    const stranger = await t.createPartner({ tier: 'storage' });
    const started = await t.app.services.invoices.start(stranger.tenantId, newDocument(), null);
    await t.app.services.invoices.complete(started, [fields(99, 'Elsewhere Ltd')]);
    // Newer than every invoice of `partner`: read as a position, it would put all of them on the page.
    const foreign = Buffer.from(`after:${started.id}`).toString('base64url');
    const q = 'query($after: String) { invoices(first: 5, after: $after) { nodes { id } } }';
    expect((await gqlData(t.base, partner.apiKey, q, { after: foreign })).invoices.nodes).toEqual([]);
    const own = (await gqlData(t.base, partner.apiKey, 'query { invoices(first: 1) { pageInfo { endCursor } } }')).invoices.pageInfo.endCursor;
    expect((await gqlData(t.base, partner.apiKey, q, { after: own })).invoices.nodes).toHaveLength(5);
    // The same for the tenants list: the stranger's tenant is newer than the partner's.
    const foreignTenant = Buffer.from(`after:${stranger.tenantId}`).toString('base64url');
    const tenants = 'query($after: String) { tenants(first: 5, after: $after) { nodes { id } } }';
    expect((await gqlData(t.base, partner.apiKey, tenants, { after: foreignTenant })).tenants.nodes).toEqual([]);
  });

  test('filters by status, vendor name, date range and store; bad arguments are BAD_USER_INPUT', async () => {
    const q = 'query($f: InvoiceFilter, $first: Int) { invoices(first: $first, filter: $f) { nodes { vendorName invoiceDate status } } }';
    const sysco = await gql(t.base, partner.apiKey, q, { f: { vendorName: 'SYSCO' }, first: 100 });
    expect(sysco.body.data!.invoices.nodes).toHaveLength(17);
    const range = await gql(t.base, partner.apiKey, q, { f: { dateFrom: '2024-01-01', dateTo: '2024-01-02' }, first: 100 });
    expect(range.body.data!.invoices.nodes.map((n: any) => n.invoiceDate).sort()).toEqual(['2024-01-01', '2024-01-01', '2024-01-02', '2024-01-02']);
    const failed = await gql(t.base, partner.apiKey, q, { f: { status: 'failed' } });
    expect(failed.body.data!.invoices.nodes).toEqual([]);
    const tooMany = await gql(t.base, partner.apiKey, q, { first: 101 });
    expect(tooMany.body.errors?.[0]).toMatchObject({ message: 'first must be an integer from 1 to 100', extensions: { code: 'BAD_USER_INPUT' } });
    const badCursor = await gql(t.base, partner.apiKey, 'query { invoices(after: "bogus") { nodes { id } } }');
    expect(badCursor.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  test('50 invoices with line items, categories, vendors and notes cost a constant number of SQL statements (no N+1)', async () => {
    statements.length = 0;
    const res = await gql(
      t.base,
      partner.apiKey,
      `query { invoices(first: 50) { nodes {
      id vendorName lineItems { description costCategory } costCategories vendor { name totalSpent } notes } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data!.invoices.nodes;
    expect(nodes).toHaveLength(50);
    expect(nodes.every((n: any) => n.lineItems.length > 0 && n.vendor?.name === n.vendorName && n.notes.length === 0)).toBe(true);
    // auth (key lookup), tenants of the partner (list + loaders), the page, line items, vendors and notes (a batch each).
    // The event dispatcher and the webhook delivery loop poll their tables in the background: not part of the request.
    // (their transactions' begin/commit included).
    const background = /outbox_events|webhook_deliveries|^\s*(begin|commit|rollback)\b/i;
    const counted = statements.filter((s) => !background.test(s));
    expect(counted.length, counted.join('\n')).toBeLessThanOrEqual(7);
  });
});

describe('notes', () => {
  test('say what reading left out of the document, on the upload and on later reads', async () => {
    const withBlankPages = await makeTextPdf([...invoicePages(paperGoodsInvoice), [], []]);
    const up = await multipartGql(partner.apiKey, 'mutation($file: Upload!) { uploadInvoice(file: $file) { invoice { id status notes } } }', {
      file: withBlankPages,
    });
    expect(up.body.errors).toBeUndefined();
    const { invoice } = (up.body.data as any).uploadInvoice;
    expect(invoice).toMatchObject({ status: 'processed', notes: ['2 blank pages skipped'] });
    const read = await gqlData(t.base, partner.apiKey, 'query($id: UUID!) { invoice(id: $id) { notes } }', { id: invoice.id });
    expect(read.invoice.notes).toEqual(['2 blank pages skipped']);

    const receiptPdf = await makeTextPdf([CAFE_RECEIPT.map((text, i) => ({ text, x: 72, y: 72 + i * 16 })), []]);
    const receiptUpload = await multipartGql(partner.apiKey, 'mutation($file: Upload!) { uploadReceipt(file: $file) { id total notes } }', {
      file: receiptPdf,
    });
    expect(receiptUpload.body.errors).toBeUndefined();
    const receipt = (receiptUpload.body.data as any).uploadReceipt;
    expect(receipt).toMatchObject({ total: 17.05, notes: ['1 blank page skipped'] });
    const again = await gqlData(t.base, partner.apiKey, 'query($id: UUID!) { receipt(id: $id) { notes } }', { id: receipt.id });
    expect(again.receipt.notes).toEqual(['1 blank page skipped']);
  });
});
