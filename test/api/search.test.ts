import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { startApp } from '../../src/main.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { CAFE_RECEIPT, makeInvoicePdf, makeReceiptImage, paperGoodsInvoice, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
let stranger: { partnerId: string; tenantId: string; apiKey: string };
const ids: Record<string, string> = {};

async function upload(key: string, path: string, file: Buffer, name: string): Promise<any> {
  const fd = new FormData();
  fd.append('file', new Blob([file]), name);
  const res = await http(t.base, 'POST', path, { headers: { 'x-api-key': key }, body: fd });
  expect(res.status).toBe(201);
  return res.body;
}

const search = (key: string, qs: string) => http(t.base, 'GET', `/api/v1/partner/search?${qs}`, { headers: { 'x-api-key': key } });

beforeAll(async () => {
  t = await startTestApp();
  partner = await t.createPartner({ tier: 'storage' });
  stranger = await t.createPartner({ tier: 'storage' });
  ids.produce = (await upload(partner.apiKey, '/api/v1/partner/invoices/upload', await makeInvoicePdf(produceInvoice), 'p.pdf')).id;
  ids.paper = (await upload(partner.apiKey, '/api/v1/partner/invoices/upload', await makeInvoicePdf(paperGoodsInvoice), 'q.pdf')).id;
  ids.cafe = (await upload(partner.apiKey, '/api/v1/partner/receipts/upload', await makeReceiptImage(CAFE_RECEIPT), 'c.png')).id;
  // The stranger has a produce invoice too: it must never show up in the partner's results.
  ids.strangerProduce = (await upload(stranger.apiKey, '/api/v1/partner/invoices/upload', await makeInvoicePdf(produceInvoice), 'p.pdf')).id;
}, 120_000);
afterAll(() => t?.close());

describe('GET /api/v1/partner/search', () => {
  test('"fresh vegetables" ranks the produce invoice first (no shared words)', async () => {
    const res = await search(partner.apiKey, 'q=fresh%20vegetables');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.query).toBe('fresh vegetables');
    const first = res.body.data.results[0];
    expect(first).toMatchObject({ type: 'invoice', id: ids.produce, vendorName: 'Green Valley Produce Co.', merchantName: null, date: '2024-03-05' });
    expect(first.similarity).toBeGreaterThan(res.body.data.results.find((r: any) => r.id === ids.paper).similarity);
    expect(res.body.data.totalResults).toBe(res.body.data.results.length);
  });

  test('"espresso" ranks the coffee receipt first', async () => {
    const res = await search(partner.apiKey, 'q=espresso');
    expect(res.body.data.results[0]).toMatchObject({ type: 'receipt', id: ids.cafe, merchantName: 'BLUE HERON CAFE', total: 17.05 });
  });

  test('type filters; limit bounds results; vendors are searchable', async () => {
    const vendors = await search(partner.apiKey, 'q=produce%20supplier&type=vendor');
    expect(vendors.body.data.results.length).toBeGreaterThan(0);
    expect(vendors.body.data.results.every((r: any) => r.type === 'vendor')).toBe(true);
    expect(vendors.body.data.results[0].vendorName).toBe('Green Valley Produce Co.');
    const one = await search(partner.apiKey, 'q=packaging&limit=1');
    expect(one.body.data.results).toHaveLength(1);
  });

  test('relevantOnly (GraphQL): word matches first with their places in the preview; weak matches by meaning left out', async () => {
    const q = `query($q: String!) { search(query: $q, relevantOnly: true) { results { id similarity matchedTerms preview highlights { start length } } } }`;
    const napkins = (await gql(t.base, partner.apiKey, q, { q: 'Napkins' })).body.data.search.results;
    expect(napkins.map((r: any) => r.id)).toEqual(expect.arrayContaining([ids.produce, ids.paper]));
    expect(napkins.filter((r: any) => r.matchedTerms.length > 0).map((r: any) => r.matchedTerms)).toEqual(napkins.slice(0, 2).map(() => ['napkins']));
    const paper = napkins.find((r: any) => r.id === ids.paper);
    expect(paper.highlights.map((h: any) => paper.preview.slice(h.start, h.start + h.length))).toEqual(['napkins']);
    // Nothing in the tenant is about zebras: by meaning alone every document is far below the cut.
    const all = (await gql(t.base, partner.apiKey, `{ search(query: "zebra stripes", limit: 50) { results { similarity } } }`)).body.data.search.results;
    expect(all.length).toBeGreaterThan(0);
    expect((await gql(t.base, partner.apiKey, q, { q: 'zebra stripes' })).body.data.search.results).toEqual([]);
  });

  test('q shorter than 2 characters, limit 51 and an unknown type are 400', async () => {
    expect((await search(partner.apiKey, 'q=a')).status).toBe(400);
    expect((await search(partner.apiKey, 'q=%20a%20')).status).toBe(400);
    expect((await search(partner.apiKey, 'q=chicken&limit=51')).status).toBe(400);
    expect((await search(partner.apiKey, 'q=chicken&limit=0')).status).toBe(400);
    expect((await search(partner.apiKey, 'q=chicken&type=pizza')).status).toBe(400);
    expect((await search(partner.apiKey, '')).status).toBe(400);
  });

  test("another partner's documents never appear", async () => {
    const mine = await search(partner.apiKey, 'q=fresh%20vegetables&limit=50');
    expect(mine.body.data.results.map((r: any) => r.id)).not.toContain(ids.strangerProduce);
    const theirs = await search(stranger.apiKey, 'q=espresso&limit=50');
    expect(theirs.body.data.results.map((r: any) => r.id)).not.toContain(ids.cafe);
    expect(theirs.body.data.results.every((r: any) => r.id !== ids.produce && r.id !== ids.paper)).toBe(true);
  });

  test('the read scope is required', async () => {
    const { apiKey } = await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['invoices:read'] });
    expect((await search(apiKey, 'q=chicken')).status).toBe(403);
  });
});

describe('POST /api/v1/partner/tenants/{tenantId}/search', () => {
  test('searches the given tenant with the same result shape', async () => {
    const res = await http(t.base, 'POST', `/api/v1/partner/tenants/${partner.tenantId}/search`, {
      headers: { 'x-api-key': partner.apiKey },
      json: { query: 'disposable takeout packaging', type: 'invoice', limit: 5 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.results.every((r: any) => r.type === 'invoice')).toBe(true);
    expect(res.body.data.results[0]).toMatchObject({ type: 'invoice', id: ids.paper });
  });

  test('a foreign or unknown tenant is 404; a bad body is 400; search:read is required', async () => {
    const foreign = await http(t.base, 'POST', `/api/v1/partner/tenants/${stranger.tenantId}/search`, {
      headers: { 'x-api-key': partner.apiKey },
      json: { query: 'vegetables' },
    });
    expect(foreign).toMatchObject({ status: 404, body: { error: 'tenant not found' } });
    const unknown = await http(t.base, 'POST', `/api/v1/partner/tenants/${randomUUID()}/search`, {
      headers: { 'x-api-key': partner.apiKey },
      json: { query: 'vegetables' },
    });
    expect(unknown.status).toBe(404);
    const noQuery = await http(t.base, 'POST', `/api/v1/partner/tenants/${partner.tenantId}/search`, {
      headers: { 'x-api-key': partner.apiKey },
      json: { limit: 5 },
    });
    expect(noQuery.status).toBe(400);
    const badLimit = await http(t.base, 'POST', `/api/v1/partner/tenants/${partner.tenantId}/search`, {
      headers: { 'x-api-key': partner.apiKey },
      json: { query: 'veg', limit: 51 },
    });
    expect(badLimit.status).toBe(400);
    const { apiKey } = await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['read'] });
    const denied = await http(t.base, 'POST', `/api/v1/partner/tenants/${partner.tenantId}/search`, {
      headers: { 'x-api-key': apiKey },
      json: { query: 'veg' },
    });
    expect(denied.status).toBe(403);
  });
});

describe('vendors', () => {
  test('name variants collapse into one vendor with the right invoice count and spend; vendor(id) lists its invoices', async () => {
    const p = await t.createPartner({ tier: 'storage' });
    let expected = 0;
    for (const [i, name] of ['SYSCO CORPORATION', 'Sysco Corp.', 'sysco'].entries()) {
      const spec = { ...paperGoodsInvoice, vendor: name, number: `SY-${i}`, lines: paperGoodsInvoice.lines.slice(i, i + 2) };
      const body = await upload(p.apiKey, '/api/v1/partner/invoices/upload', await makeInvoicePdf(spec), 's.pdf');
      expect(body.vendorName).toBe(name);
      expected += body.total;
    }
    const res = await http(t.base, 'GET', '/api/v1/partner/vendors', { headers: { 'x-api-key': p.apiKey } });
    expect(res.body.vendors).toHaveLength(1);
    expect(res.body.vendors[0]).toMatchObject({ name: 'SYSCO CORPORATION', normalizedName: 'sysco', invoiceCount: 3 });
    expect(res.body.vendors[0].totalSpent).toBeCloseTo(expected, 2);
    const g = await gql(t.base, p.apiKey, 'query($id: UUID!) { vendor(id: $id) { name invoices(first: 10) { nodes { invoiceNumber vendor { id } } } } }', {
      id: res.body.vendors[0].id,
    });
    expect(g.body.data.vendor.invoices.nodes.map((n: any) => n.invoiceNumber)).toEqual(['SY-2', 'SY-1', 'SY-0']);
    const foreign = await gql(t.base, partner.apiKey, 'query($id: UUID!) { vendor(id: $id) { name } }', { id: res.body.vendors[0].id });
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('reindex', () => {
  test('re-embeds every entity with the current embedder and drops rows nothing owns any more', async () => {
    const db = t.database.db;
    await sql`update search_documents set embedder_id = 'openai:old-model'`.execute(db);
    await sql`insert into search_documents (entity_type, entity_id, tenant_id, text, preview, embedder_id, embedding)
      select 'invoice', gen_random_uuid(), tenant_id, text, preview, embedder_id, embedding from search_documents limit 1`.execute(db);
    // Stale rows are invisible to search until they are re-embedded.
    expect((await search(partner.apiKey, 'q=espresso')).body.data.results).toEqual([]);
    const entities = await sql<{ n: string }>`select (select count(*) from invoices where status = 'processed')
      + (select count(*) from receipts) + (select count(*) from vendors) as n`.execute(db);
    const progress: number[] = [];
    const result = await t.app.services.search.reindex((done) => progress.push(done));
    expect(result).toMatchObject({ indexed: Number(entities.rows[0]!.n), removed: 1, embedder: 'local:wink-sg-100d+ngram-256+legal-forms' });
    expect(progress.at(-1)).toBe(result.indexed);
    expect((await search(partner.apiKey, 'q=espresso')).body.data.results[0].id).toBe(ids.cafe);
  });

  test('at start, the embedded database re-embeds rows of another embedder in the background; PostgreSQL waits for admin reindex', async () => {
    const db = t.database.db;
    await sql`update search_documents set embedder_id = 'local:an-older-version'`.execute(db);
    const stale = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from search_documents where embedder_id = 'local:an-older-version'`.execute(db)).rows[0]!.n);
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'partner-api-test-')),
      NODE_ENV: 'test',
      EMBEDDINGS_CACHE_DIR: inject('wordVectorCacheDir'),
    });
    // A second server on the same database, as after an upgrade that changed the embedder.
    const upgraded = await startApp({ config, database: t.database });
    try {
      if (t.database.kind === 'pglite') {
        await vi.waitFor(async () => expect(await stale()).toBe(0), { timeout: 30_000, interval: 100 });
        expect((await search(partner.apiKey, 'q=espresso')).body.data.results[0].id).toBe(ids.cafe);
      } else {
        expect(await stale()).toBeGreaterThan(0);
        expect((await search(partner.apiKey, 'q=espresso')).body.data.results).toEqual([]);
        await upgraded.services.search.reindex();
        expect(await stale()).toBe(0);
      }
    } finally {
      await upgraded.close();
    }
  });

  test('a query without letters or digits finds nothing (and is not an error)', async () => {
    const res = await search(partner.apiKey, 'q=%21%21%21');
    expect(res.status).toBe(200);
    expect(res.body.data.results).toEqual([]);
  });
});
