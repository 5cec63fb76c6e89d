import { randomUUID } from 'node:crypto';
import http_ from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CAFE_RECEIPT, equipmentInvoice, invoiceTotals, makeInvoicePdf, makeReceiptImage, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gql, gqlData, gqlUpload, http, startTestApp, type TestApp } from '../helpers/app.ts';

// Issue 18, point 4 (DESIGN §9 "Duplicate documents"): an upload that repeats a document the tenant has is recorded
// as its duplicate — over real HTTP, on a fresh database, with webhooks delivered to a loopback receiver.

let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
let pdf: Buffer;
let receiver: http_.Server;
let hookUrl: string;
const received: Array<{ path: string; type: string; data: { id: string; duplicateOf?: string | null } }> = [];

beforeAll(async () => {
  receiver = http_.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const event = JSON.parse(body) as { type: string; data: { id: string } };
      received.push({ path: req.url ?? '', ...event });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' } });
  partner = await t.createPartner({ tier: 'embed' });
  pdf = await makeInvoicePdf(produceInvoice);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await new Promise((r) => receiver?.close(r));
});

const key = (apiKey = partner.apiKey) => ({ 'x-api-key': apiKey });

function upload(file: Buffer, opts: { key?: string; force?: string; tenantId?: string; apiKey?: string } = {}) {
  const fd = new FormData();
  fd.append('file', new Blob([file]), 'invoice.pdf');
  if (opts.force !== undefined) fd.append('force', opts.force);
  if (opts.tenantId) fd.append('tenantId', opts.tenantId);
  return http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: { ...key(opts.apiKey), 'idempotency-key': opts.key }, body: fd });
}

async function newTenant(name: string): Promise<string> {
  const res = await http(t.base, 'POST', '/api/v1/partner/tenants', { headers: key(), json: { name, email: `owner@${randomUUID().slice(0, 8)}.example` } });
  expect(res.status).toBe(201);
  return res.body.tenantId as string;
}

async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const TENANT_VIEW = `query($t: UUID!) {
  all: invoices(first: 100, filter: { tenantId: $t, includeDuplicates: true }) { nodes { id duplicateOf } }
  originals: invoices(first: 100, filter: { tenantId: $t }) { nodes { id duplicateOf } }
  vendors(tenantId: $t) { name invoiceCount totalSpent invoices { nodes { id } } }
  spendReport(tenantId: $t, startDate: "2024-01-01", endDate: "2024-12-31") { total invoiceCount byVendor { invoiceCount total } }
}`;
type TenantView = {
  all: { nodes: Array<{ id: string; duplicateOf: string | null }> };
  originals: { nodes: Array<{ id: string; duplicateOf: string | null }> };
  vendors: Array<{ name: string; invoiceCount: number; totalSpent: number; invoices: { nodes: Array<{ id: string }> } }>;
  spendReport: { total: number; invoiceCount: number; byVendor: Array<{ invoiceCount: number; total: number }> };
};
const view = (tenantId: string) => gqlData<TenantView>(t.base, partner.apiKey, TENANT_VIEW, { t: tenantId });

describe('duplicate documents', () => {
  test('the same PDF 5 times with one Idempotency-Key is 1 invoice', async () => {
    const tenantId = await newTenant('Keyed Kitchen');
    const k = randomUUID();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await upload(pdf, { key: k, tenantId }));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers[0]!.body.duplicateOf).toBeNull();
    const v = await view(tenantId);
    expect(v.all.nodes).toHaveLength(1);
    expect(v.vendors.map((x) => [x.invoiceCount, x.totalSpent])).toEqual([[1, invoiceTotals(produceInvoice).total]]);
    // The same key with another body is still refused (Idempotency-Key, issue 18 point 3).
    const other = await upload(await makeInvoicePdf(equipmentInvoice), { key: k, tenantId });
    expect(other.status).toBe(409);
  }, 120_000);

  test('the same PDF 5 times without a key is 1 invoice + 4 duplicates, counted once, one invoice.processed webhook', async () => {
    const tenantId = await newTenant('Retrying Bistro');
    // Endpoints limited to this tenant (the GraphQL mutation takes a tenantId), so other tests' uploads stay out.
    const register = async (path: string, events: string[]) => {
      const res = await gqlData<{ registerWebhook: { id: string } }>(
        t.base,
        partner.apiKey,
        'mutation($u: String!, $e: [String!]!, $t: UUID) { registerWebhook(url: $u, events: $e, tenantId: $t) { id } }',
        { u: `${hookUrl}${path}`, e: events, t: tenantId },
      );
      return res.registerWebhook.id;
    };
    await register('/processed', ['invoice.processed']);
    await register('/asked', ['invoice.processed', 'invoice.duplicate']);

    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await upload(pdf, { tenantId }));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    const [first, ...again] = answers.map((a) => a.body as { id: string; duplicateOf: string | null; status: string; total: number });
    expect(first!.duplicateOf).toBeNull();
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(5);
    for (const d of again) expect([d.duplicateOf, d.status, d.total]).toEqual([first!.id, 'processed', first!.total]);

    const v = await view(tenantId);
    expect(v.originals.nodes.map((n) => n.id)).toEqual([first!.id]);
    expect(v.all.nodes).toHaveLength(5);
    expect(v.all.nodes.filter((n) => n.duplicateOf === first!.id)).toHaveLength(4);
    const { total } = invoiceTotals(produceInvoice);
    expect(v.vendors).toHaveLength(1);
    expect([v.vendors[0]!.invoiceCount, v.vendors[0]!.totalSpent]).toEqual([1, total]);
    expect(v.vendors[0]!.invoices.nodes.map((n) => n.id)).toEqual([first!.id]);
    expect([v.spendReport.total, v.spendReport.invoiceCount]).toEqual([total, 1]);
    expect(v.spendReport.byVendor.map((b) => [b.invoiceCount, b.total])).toEqual([[1, total]]);

    // Correcting a duplicate's total (issue 19's correctInvoice) leaves the vendor's totals alone: it counts in none.
    const corrected = await gqlData<{ correctInvoice: { total: number; duplicateOf: string | null } }>(
      t.base,
      partner.apiKey,
      'mutation($id: UUID!) { correctInvoice(id: $id, input: { total: 1.23 }) { total duplicateOf } }',
      { id: again[0]!.id },
    );
    expect(corrected.correctInvoice).toEqual({ total: 1.23, duplicateOf: first!.id });
    const after = await view(tenantId);
    expect([after.vendors[0]!.invoiceCount, after.vendors[0]!.totalSpent]).toEqual([1, total]);

    // One document charged: duplicates are free.
    const usage = await gqlData<{ usage: { byTenant: Array<{ tenantId: string; documents: number }> } }>(
      t.base,
      partner.apiKey,
      '{ usage { byTenant { tenantId documents } } }',
    );
    expect(usage.usage.byTenant.find((b) => b.tenantId === tenantId)?.documents).toBe(1);

    // GET of a duplicate names its original.
    const got = await http(t.base, 'GET', `/api/v1/partner/invoices/${again[0]!.id}`, { headers: key() });
    expect([got.status, got.body.duplicateOf]).toEqual([200, first!.id]);

    // Search finds the original only.
    const found = await gqlData<{ search: { results: Array<{ type: string; id: string }> } }>(
      t.base,
      partner.apiKey,
      'query($t: UUID) { search(query: "romaine lettuce produce", tenantId: $t, limit: 50) { results { type id } } }',
      { t: tenantId },
    );
    expect(found.search.results.filter((r) => r.type === 'invoice').map((r) => r.id)).toEqual([first!.id]);

    // Webhooks: one invoice.processed; the duplicates only to the endpoint that asked for invoice.duplicate.
    const asked = await until('4 invoice.duplicate deliveries', () => {
      const got = received.filter((r) => r.path === '/asked');
      return got.length >= 5 ? got : undefined;
    });
    expect(asked.filter((r) => r.type === 'invoice.processed').map((r) => r.data.id)).toEqual([first!.id]);
    expect(asked.filter((r) => r.type === 'invoice.duplicate').map((r) => [r.data.id, r.data.duplicateOf])).toEqual(again.map((d) => [d.id, first!.id]));
    const processed = received.filter((r) => r.path === '/processed');
    expect(processed.map((r) => [r.type, r.data.id])).toEqual([['invoice.processed', first!.id]]);
  }, 180_000);

  test('the same vendor, invoice number and total in another file is a duplicate; another total is not', async () => {
    const tenantId = await newTenant('Second Copy Diner');
    const original = await upload(pdf, { tenantId });
    // Other bytes (another address line), the number written another way.
    const copy = await upload(await makeInvoicePdf({ ...produceInvoice, address: 'PO Box 12, Springfield, IL 62701', number: 'inv-20431' }), { tenantId });
    expect([copy.status, copy.body.invoiceNumber, copy.body.duplicateOf]).toEqual([201, 'inv-20431', original.body.id]);
    const corrected = await upload(await makeInvoicePdf({ ...produceInvoice, lines: produceInvoice.lines.slice(1) }), { tenantId });
    expect([corrected.status, corrected.body.duplicateOf]).toEqual([201, null]);
    const v = await view(tenantId);
    expect(v.originals.nodes.map((n) => n.id).sort()).toEqual([original.body.id, corrected.body.id].sort());
    expect(v.vendors[0]!.invoiceCount).toBe(2);
  }, 120_000);

  test('force records a fresh invoice (REST form field and GraphQL argument); a bad force value is 400', async () => {
    const tenantId = await newTenant('Forced Grill');
    const original = await upload(pdf, { tenantId });
    const forced = await upload(pdf, { tenantId, force: 'true' });
    expect([forced.status, forced.body.duplicateOf]).toEqual([201, null]);
    const viaGraphql = await gqlUpload<{ uploadInvoice: { invoice: { id: string; duplicateOf: string | null } } }>(
      t.base,
      partner.apiKey,
      'mutation($f: Upload!, $t: UUID) { uploadInvoice(file: $f, tenantId: $t, force: true) { invoice { id duplicateOf } } }',
      { f: pdf },
      { variables: { t: tenantId } },
    );
    expect(viaGraphql.body.data!.uploadInvoice.invoice.duplicateOf).toBeNull();
    const notForced = await upload(pdf, { tenantId, force: 'false' });
    expect(notForced.body.duplicateOf).toBe(original.body.id);
    const v = await view(tenantId);
    expect(v.vendors[0]!.invoiceCount).toBe(3);
    expect(v.vendors[0]!.totalSpent).toBe(Math.round(3 * invoiceTotals(produceInvoice).total * 100) / 100);
    const bad = await upload(pdf, { tenantId, force: 'maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/force/);
  }, 120_000);

  test("another tenant's or partner's copy is no original of mine", async () => {
    const tenantId = await newTenant('Fresh Start Cafe');
    const mine = await upload(pdf, { tenantId });
    expect(mine.body.duplicateOf).toBeNull();
    const someone = await t.createPartner({ tier: 'storage' });
    const theirs = await upload(pdf, { apiKey: someone.apiKey });
    expect([theirs.status, theirs.body.duplicateOf]).toEqual([201, null]);
  }, 120_000);

  test('the same receipt image twice: the second is a duplicate, left out of lists; force records a fresh one', async () => {
    const image = await makeReceiptImage(CAFE_RECEIPT);
    const send = (force?: string) => {
      const fd = new FormData();
      fd.append('file', new Blob([image]), 'receipt.png');
      if (force) fd.append('force', force);
      return http(t.base, 'POST', '/api/v1/partner/receipts/upload', { headers: key(), body: fd });
    };
    const first = await send();
    const second = await send();
    const forced = await send('true');
    expect([first.status, second.status, forced.status]).toEqual([201, 201, 201]);
    expect([first.body.duplicateOf, second.body.duplicateOf, forced.body.duplicateOf]).toEqual([null, first.body.id, null]);
    const lists = await gql(
      t.base,
      partner.apiKey,
      '{ originals: receipts(first: 100) { nodes { id } } all: receipts(first: 100, filter: { includeDuplicates: true }) { nodes { id duplicateOf } } }',
    );
    const ids = (nodes: Array<{ id: string }>) => nodes.map((n) => n.id).sort();
    expect(ids(lists.body.data.originals.nodes)).toEqual([first.body.id, forced.body.id].sort());
    expect(ids(lists.body.data.all.nodes)).toEqual([first.body.id, second.body.id, forced.body.id].sort());
  }, 120_000);
});
