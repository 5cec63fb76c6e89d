import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CAFE_RECEIPT, invoiceTotals, makeInvoicePdf, makeReceiptImage, produceInvoice } from '../fixtures/invoice-documents.ts';
import { startFakeGcs, type FakeGcs } from '../helpers/gcs-server.ts';
import { gql, http as call, startTestApp, type TestApp } from '../helpers/app.ts';
import { selfSignedCert } from '../helpers/tls.ts';

// POST /api/v1/partner/extract end to end: documents come from a loopback HTTPS server with a self-signed
// certificate (pre-signed-style URLs), a loopback S3-compatible server (the real AWS SDK, SigV4-signed) and the
// loopback GCS-protocol server; nothing leaves loopback. Every REST response is checked against openapi.yaml.

const MB = 1024 * 1024;
const PRESIGN = 'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20261123%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Expires=300&X-Amz-Signature=0f1e2d3c';

let t: TestApp; // loopback sources allowed, the self-signed CA trusted, S3 and GCS endpoints on loopback
let strict: TestApp; // production rules
let source: https.Server;
let sourceBase: string;
let s3: http.Server;
let gcs: FakeGcs;
let pdf: Buffer;
let receiptPng: Buffer;
/** Requests per path (query excluded) the HTTPS source server saw. */
const hits = new Map<string, number>();
const queries: string[] = [];
/** Paths that answer 503 this many more times before serving the PDF. */
const flaky = new Map<string, number>();
const s3Requests: Array<{ method: string; url: string; authorization: string }> = [];
const s3Objects = new Map<string, Buffer>();

// Every outgoing connection of this process (the app runs in it) is watched: none may leave loopback.
const offLoopback: string[] = [];
let connections = 0;
const isLoopback = (host: string) => /^(127\.|::1$|::ffff:127\.|localhost$)/.test(host);
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  const options = (typeof args[0] === 'object' && args[0] !== null ? args[0] : { host: typeof args[1] === 'string' ? args[1] : 'localhost' }) as {
    host?: string;
    path?: string;
  };
  connections++;
  if (!options.path && !isLoopback(String(options.host ?? 'localhost'))) offLoopback.push(String(options.host));
  this.once('lookup', (err: Error | null, address: string) => {
    if (!err && address && !isLoopback(address)) offLoopback.push(address);
  });
  return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;

/** The HTTPS "bucket": PDFs under /bucket/, redirects, failures and oversized bodies. */
function serveSource(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'https://127.0.0.1');
  hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
  queries.push(url.search);
  const left = flaky.get(url.pathname) ?? 0;
  if (left > 0) {
    flaky.set(url.pathname, left - 1);
    return void res.writeHead(503, { 'content-type': 'text/plain' }).end('slow down');
  }
  const p = url.pathname;
  if (p.startsWith('/bucket/') && p.endsWith('.pdf')) {
    // A slow source, so that concurrent requests really overlap the first one.
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length }).end(pdf), 100);
    return;
  }
  if (p === '/bucket/receipt.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(receiptPng);
  if (p === '/bucket/notes.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('just some text, not a document');
  if (p === '/redirect') return void res.writeHead(302, { location: `/bucket/redirected.pdf?${PRESIGN}` }).end();
  if (p === '/redirect-private') return void res.writeHead(302, { location: 'https://10.0.0.1/internal/secret.pdf' }).end();
  if (p === '/redirect-metadata') return void res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
  if (p === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
  if (p === '/big-declared') {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': 26 * MB });
    return void res.end(Buffer.alloc(1024));
  }
  if (p === '/big-streamed') {
    // No Content-Length: only counting the bytes can stop it.
    res.writeHead(200, { 'content-type': 'application/pdf' });
    const chunk = Buffer.alloc(MB, 0x20);
    let sent = 0;
    const more = () => {
      while (sent < 30 && !res.destroyed) {
        sent++;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('error', () => {});
    return more();
  }
  res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
}

/** An S3-compatible endpoint answering path-style GET /bucket/key as S3 does. */
function serveS3(req: IncomingMessage, res: ServerResponse): void {
  s3Requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: String(req.headers.authorization ?? '') });
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const key = decodeURIComponent(url.pathname.slice(1));
  const body = s3Objects.get(key);
  if (req.method !== 'GET' || !body) {
    const xml = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>';
    return void res.writeHead(404, { 'content-type': 'application/xml', 'x-amz-request-id': 'TEST404' }).end(xml);
  }
  res
    .writeHead(200, {
      'content-type': 'application/pdf',
      'content-length': body.length,
      etag: '"0123456789abcdef"',
      'last-modified': new Date().toUTCString(),
      'accept-ranges': 'bytes',
      'x-amz-request-id': 'TEST200',
    })
    .end(body);
}

const listen = async (server: http.Server | https.Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
};

const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });
const extract = (app: TestApp, apiKey: string, json: unknown) => call(app.base, 'POST', '/api/v1/partner/extract', { headers: bearer(apiKey), json });
const url = (p: string) => `${sourceBase}${p}?${PRESIGN}`;

async function usage(apiKey: string) {
  const res = await gql(t.base, apiKey, '{ usage { documents pages amount byChannel { channel documents } } }');
  expect(res.body.errors).toBeUndefined();
  return res.body.data!.usage as { documents: number; pages: number; amount: number; byChannel: Array<{ channel: string; documents: number }> };
}

const SET_PROFILE = `mutation($name: String!, $spec: JSONObject!, $isDefault: Boolean) {
  setShapeProfile(name: $name, spec: $spec, isDefault: $isDefault) { name isDefault spec } }`;

async function saveProfile(apiKey: string, name: string, spec: unknown, isDefault?: boolean) {
  const res = await gql(t.base, apiKey, SET_PROFILE, { name, spec, isDefault });
  expect(res.body.errors).toBeUndefined();
  return res.body.data!.setShapeProfile;
}

// The partner's ERP shape: renamed, nested, formatted, one list mapped line by line.
const ERP_SPEC = {
  supplier: 'vendorName',
  'invoice.number': 'invoiceNumber',
  'invoice.date': { path: 'invoiceDate', date: 'MM/DD/YYYY' },
  'invoice.due': { path: 'dueDate', date: 'D MMM YYYY' },
  'amounts.total_cents': { path: 'total', as: 'cents' },
  'amounts.tax': { path: 'tax', as: 'string' },
  'amounts.subtotal': { path: 'subtotal', decimals: 0 },
  'amounts.tip': { path: 'tip', default: 0 },
  currency: { path: 'currency', default: 'USD' },
  origin: { const: 'partner-api' },
  skus: 'lineItems[].sku',
  lines: {
    path: 'lineItems',
    each: {
      text: 'description',
      qty: 'quantity',
      unit_price: { path: 'unitPrice', as: 'string' },
      amount_cents: { path: 'total', as: 'cents' },
      category: 'costCategory',
    },
  },
};

const totals = invoiceTotals(produceInvoice);
const cents = (n: number) => Math.round(n * 100);
const CATEGORY: Record<string, string> = {
  'Boneless chicken breast': 'food_cost',
  'Paper napkins 1/8 fold': 'paper_packaging',
  'Dish soap concentrate': 'supply_cost',
  'Orange juice 1 gal': 'nonalcoholic_beverage_cost',
  'Delivery fee': 'freight_delivery',
};

function expectErpShape(data: Record<string, any>): void {
  expect(data).toMatchObject({
    supplier: 'Green Valley Produce Co.',
    invoice: { number: 'INV-20431', date: '03/05/2024', due: '4 Apr 2024' },
    amounts: { total_cents: cents(totals.total), tax: totals.tax.toFixed(2), subtotal: Math.round(totals.subtotal), tip: 0 },
    currency: 'USD',
    origin: 'partner-api',
    skus: produceInvoice.lines.map((l) => l.sku),
  });
  // In the order the profile lists them (the spec is kept as written).
  expect(Object.keys(data)).toEqual(['supplier', 'invoice', 'amounts', 'currency', 'origin', 'skus', 'lines']);
  expect(Object.keys(data.amounts)).toEqual(['total_cents', 'tax', 'subtotal', 'tip']);
  expect(data.lines.map((l: any) => [l.text, l.qty, l.unit_price, l.amount_cents])).toEqual(
    produceInvoice.lines.map((l) => [l.description, l.quantity, l.unitPrice.toFixed(2), cents(l.quantity * l.unitPrice)]),
  );
  for (const [text, category] of Object.entries(CATEGORY)) expect(data.lines.find((l: any) => l.text === text).category).toBe(category);
}

beforeAll(async () => {
  [pdf, receiptPng] = await Promise.all([makeInvoicePdf(produceInvoice), makeReceiptImage(CAFE_RECEIPT)]);
  const tls = selfSignedCert();
  source = https.createServer({ key: tls.key, cert: tls.cert }, serveSource);
  s3 = http.createServer(serveS3);
  const [sourcePort, s3Port, fakeGcs] = await Promise.all([listen(source), listen(s3), startFakeGcs('adapter-gcs')]);
  gcs = fakeGcs;
  sourceBase = `https://127.0.0.1:${sourcePort}`;
  [t, strict] = await Promise.all([
    startTestApp({
      env: {
        OUTBOUND_ALLOW_LOOPBACK: '1',
        S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        S3_FORCE_PATH_STYLE: '1',
        S3_REGION: 'eu-west-1',
        AWS_ACCESS_KEY_ID: 'AKIAADAPTERTEST',
        AWS_SECRET_ACCESS_KEY: 'adapter-test-secret',
        GCS_API_ENDPOINT: gcs.endpoint,
      },
      webhooks: { ca: tls.cert },
    }),
    startTestApp(),
  ]);
});
afterAll(async () => {
  net.Socket.prototype.connect = connect;
  await Promise.all([t?.close(), strict?.close(), gcs?.close()]);
  for (const server of [source, s3]) {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  }
});

describe('POST /api/v1/partner/extract: a pre-signed HTTPS URL, shaped by a profile', () => {
  let partner: { apiKey: string; partnerId: string };
  let first: Record<string, any>;

  beforeAll(async () => {
    partner = await t.createPartner({ tier: 'storage' });
    await saveProfile(partner.apiKey, 'erp', ERP_SPEC);
  });

  test('the document is fetched (query string and all), extracted, categorised and shaped exactly', async () => {
    const res = await extract(t, partner.apiKey, { source_url: url('/bucket/inv.pdf'), correlation_id: 'order-1001', profile: 'erp' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ correlation_id: 'order-1001', cache_hit: false, profile: 'erp', split_documents: [] });
    expectErpShape(res.body.data);
    expect(hits.get('/bucket/inv.pdf')).toBe(1);
    expect(queries).toContain(`?${PRESIGN}`);
    first = res.body;
    expect(await usage(partner.apiKey)).toMatchObject({ documents: 1, pages: 2, byChannel: [{ channel: 'adapter', documents: 1 }] });
  });

  test('the same correlation_id and body again: the remembered result, not fetched, not charged', async () => {
    const res = await extract(t, partner.apiKey, {
      profile: 'erp',
      correlation_id: 'order-1001',
      source_url: url('/bucket/inv.pdf'),
      document_type: 'invoice',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...first, cache_hit: true });
    expect(JSON.stringify(res.body.data)).toBe(JSON.stringify(first.data)); // byte for byte, field order included
    expect(hits.get('/bucket/inv.pdf')).toBe(1);
    expect((await usage(partner.apiKey)).documents).toBe(1);
  });

  test('the same correlation_id with a different body is 409 naming what differs', async () => {
    const other = await extract(t, partner.apiKey, { source_url: url('/bucket/other.pdf'), correlation_id: 'order-1001', profile: 'erp' });
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('correlation_id "order-1001" was already used for a different request (different source_url) in the last 24 hours');
    const shaped = await extract(t, partner.apiKey, {
      source_url: url('/bucket/inv.pdf'),
      correlation_id: 'order-1001',
      profile: 'default',
      document_type: 'receipt',
    });
    expect(shaped.status).toBe(409);
    expect(shaped.body.error).toMatch(/\(different document_type, profile\)/);
    expect(hits.get('/bucket/other.pdf')).toBeUndefined();
    // correlation ids are per partner: another partner's same id is a new request
    const stranger = await t.createPartner();
    const theirs = await extract(t, stranger.apiKey, { source_url: url('/bucket/other.pdf'), correlation_id: 'order-1001' });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ cache_hit: false, profile: 'default' });
  });

  test('after 24 hours the id is new again: extracted and charged once more', async () => {
    await sql`update adapter_requests set created_at = now() - interval '25 hours' where correlation_id = 'order-1001' and partner_id = ${partner.partnerId}`.execute(
      t.database.db,
    );
    const res = await extract(t, partner.apiKey, { source_url: url('/bucket/inv.pdf'), correlation_id: 'order-1001', profile: 'erp' });
    expect(res.status).toBe(200);
    expect(res.body.cache_hit).toBe(false);
    expect(res.body.data).toEqual(first.data);
    expect(hits.get('/bucket/inv.pdf')).toBe(2);
    expect((await usage(partner.apiKey)).documents).toBe(2);
  });

  test('50 concurrent requests with one correlation_id: fetched and extracted once, charged once, one answer', async () => {
    const p = await t.createPartner({ tier: 'storage' });
    await saveProfile(p.apiKey, 'erp', ERP_SPEC);
    const body = { source_url: url('/bucket/burst.pdf'), correlation_id: 'burst-7', profile: 'erp' };
    const answers = await Promise.all(Array.from({ length: 50 }, () => extract(t, p.apiKey, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => !a.body.cache_hit)).toHaveLength(1);
    for (const a of answers) expect(a.body.data).toEqual(answers[0]!.body.data);
    expectErpShape(answers[0]!.body.data);
    expect(hits.get('/bucket/burst.pdf')).toBe(1);
    expect(await usage(p.apiKey)).toMatchObject({ documents: 1, byChannel: [{ channel: 'adapter', documents: 1 }] });
  });

  test('a failed attempt is not remembered: the same id is retried, and charged only when it succeeds', async () => {
    const p = await t.createPartner({ tier: 'storage' });
    flaky.set('/bucket/flaky.pdf', 1);
    const body = { source_url: url('/bucket/flaky.pdf'), correlation_id: 'retry-me' };
    const failed = await extract(t, p.apiKey, body);
    expect(failed.status).toBe(502);
    expect(failed.body.error).toBe(`source_url could not be fetched: ${sourceBase}/bucket/flaky.pdf?… answered HTTP 503`);
    expect((await usage(p.apiKey)).documents).toBe(0);
    const retried = await extract(t, p.apiKey, body);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ correlation_id: 'retry-me', cache_hit: false, profile: 'default' });
    expect(hits.get('/bucket/flaky.pdf')).toBe(2);
    expect((await extract(t, p.apiKey, body)).body.cache_hit).toBe(true);
    expect((await usage(p.apiKey)).documents).toBe(1);
  });
});

describe('profiles', () => {
  test('without a saved profile the built-in default returns the extracted fields as they are', async () => {
    const p = await t.createPartner();
    const res = await extract(t, p.apiKey, { source_url: url('/bucket/plain.pdf') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ correlation_id: null, cache_hit: false, profile: 'default', split_documents: [] });
    expect(res.body.data).toMatchObject({
      documentType: 'invoice',
      pageCount: 2,
      vendorName: 'Green Valley Produce Co.',
      invoiceNumber: 'INV-20431',
      invoiceDate: '2024-03-05',
      dueDate: '2024-04-04',
      subtotal: totals.subtotal,
      tax: totals.tax,
      total: totals.total,
      currency: 'USD',
    });
    expect(res.body.data.lineItems).toHaveLength(produceInvoice.lines.length);
    expect(res.body.data.lineItems[0]).toEqual({
      description: 'Romaine lettuce case',
      sku: 'GV-101',
      quantity: 4,
      unit: 'case',
      unitPrice: 32.5,
      total: 130,
      costCategory: 'food_cost',
    });
    expect(res.body.data.costCategories).toEqual([...new Set(res.body.data.lineItems.map((l: any) => l.costCategory))]);
    expect(res.body.data.extractionConfidence).toBeGreaterThan(50);
  });

  test('the default profile applies when none is named; "default" names the built-in one; an unknown one is 404', async () => {
    const p = await t.createPartner();
    await saveProfile(p.apiKey, 'slim', { n: 'invoiceNumber' });
    expect(await saveProfile(p.apiKey, 'erp-lite', { number: 'invoiceNumber', total: { path: 'total', as: 'string' } }, true)).toMatchObject({
      isDefault: true,
    });
    const named = await extract(t, p.apiKey, { source_url: url('/bucket/plain.pdf') });
    expect(named.body).toMatchObject({ profile: 'erp-lite', data: { number: 'INV-20431', total: totals.total.toFixed(2) } });
    const builtIn = await extract(t, p.apiKey, { source_url: url('/bucket/plain.pdf'), profile: 'default' });
    expect(builtIn.body.data.vendorName).toBe('Green Valley Produce Co.');
    const unknown = await extract(t, p.apiKey, { source_url: url('/bucket/plain.pdf'), profile: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('shape profile "nope" not found');

    // Making another the default clears the first; the list shows both.
    await saveProfile(p.apiKey, 'slim', { n: 'invoiceNumber' }, true);
    const list = await gql(t.base, p.apiKey, '{ shapeProfiles { name isDefault spec } }');
    expect(list.body.data!.shapeProfiles).toEqual([
      { name: 'erp-lite', isDefault: false, spec: { number: 'invoiceNumber', total: { path: 'total', as: 'string' } } },
      { name: 'slim', isDefault: true, spec: { n: 'invoiceNumber' } },
    ]);
    // Replacing a profile keeps its default flag unless told.
    expect(await saveProfile(p.apiKey, 'slim', { invoice_no: 'invoiceNumber' })).toEqual({
      name: 'slim',
      isDefault: true,
      spec: { invoice_no: 'invoiceNumber' },
    });
    const del = await gql(t.base, p.apiKey, 'mutation { deleteShapeProfile(name: "slim") }');
    expect(del.body.data).toEqual({ deleteShapeProfile: true });
    const again = await gql(t.base, p.apiKey, 'mutation { deleteShapeProfile(name: "slim") }');
    expect(again.body.errors?.[0]).toMatchObject({ message: 'shape profile "slim" not found', extensions: { code: 'NOT_FOUND' } });
    // Profiles are per partner.
    const other = await t.createPartner();
    expect((await gql(t.base, other.apiKey, '{ shapeProfiles { name } }')).body.data).toEqual({ shapeProfiles: [] });
  });

  test('a bad spec is refused when saved, naming the output field', async () => {
    const p = await t.createPartner();
    const cases: Array<[unknown, RegExp]> = [
      [{ 'invoice.total': 'grandTotal' }, /^spec\.invoice\.total names an unknown source path "grandTotal"/],
      [{ when: { path: 'invoiceDate', date: 'MM/QQ' } }, /^spec\.when has a bad date format "MM\/QQ"/],
      [{ lines: { path: 'lineItems', each: { price: { path: 'unitPrice', as: 'euro' } } } }, /^spec\.lines\[\]\.price "as" must be one of/],
      [{}, /^spec must map at least one output field/],
    ];
    for (const [spec, message] of cases) {
      const res = await gql(t.base, p.apiKey, SET_PROFILE, { name: 'bad', spec });
      expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(res.body.errors?.[0]?.message).toMatch(message);
    }
    const reserved = await gql(t.base, p.apiKey, SET_PROFILE, { name: 'default', spec: { n: 'invoiceNumber' } });
    expect(reserved.body.errors?.[0]?.message).toMatch(/^name "default" is the built-in profile/);
    expect((await gql(t.base, p.apiKey, '{ shapeProfiles { name } }')).body.data).toEqual({ shapeProfiles: [] });
  });
});

describe('sources that are refused or fail', () => {
  let apiKey: string;
  let strictKey: string;
  beforeAll(async () => {
    apiKey = (await t.createPartner()).apiKey;
    strictKey = (await strict.createPartner()).apiKey;
  });

  test.each([
    ['https://10.0.0.1/bucket/inv.pdf', /^source_url must point to a public address: 10\.0\.0\.1 is a private address$/],
    ['https://169.254.169.254/latest/meta-data/', /^source_url must point to a public address: 169\.254\.169\.254 is a link-local address$/],
    ['https://[::1]/bucket/inv.pdf', /^source_url must point to a public address: \[::1\] is a loopback address$/],
    ['https://127.0.0.1:9/bucket/inv.pdf', /127\.0\.0\.1 is a loopback address/],
    ['http://93.184.215.14/inv.pdf', /^source_url must be an https:\/\/ URL/],
    ['not a url', /^source_url must be an absolute URL/],
  ])('%s → 400 naming the problem (production rules)', async (source_url, message) => {
    const res = await extract(strict, strictKey, { source_url, correlation_id: 'refused' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  test('a refused request is not remembered under its correlation_id', async () => {
    const res = await extract(strict, strictKey, { source_url: 'https://10.0.0.1/x.pdf', correlation_id: 'refused' });
    expect(res.status).toBe(400);
  });

  test('redirects are followed (the target re-checked); one to a private or metadata address is refused unfetched', async () => {
    const ok = await extract(t, apiKey, { source_url: url('/redirect') });
    expect(ok.status).toBe(200);
    expect(ok.body.data.invoiceNumber).toBe('INV-20431');
    expect(hits.get('/bucket/redirected.pdf')).toBe(1);

    const privateHop = await extract(t, apiKey, { source_url: url('/redirect-private') });
    expect(privateHop.status).toBe(400);
    expect(privateHop.body.error).toBe(
      'source_url redirects to https://10.0.0.1/internal/secret.pdf, which is refused: it must point to a public address: 10.0.0.1 is a private address',
    );
    const metadata = await extract(t, apiKey, { source_url: url('/redirect-metadata') });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error).toMatch(/^source_url redirects to http:\/\/169\.254\.169\.254\/latest\/meta-data\/, which is refused/);

    const loop = await extract(t, apiKey, { source_url: url('/loop') });
    expect(loop.status).toBe(502);
    expect(loop.body.error).toBe('source_url could not be fetched: more than 5 redirects');
    expect(hits.get('/loop')).toBe(6);
  });

  test('a missing object and an unreachable host are 502 with a clear message (no signature in it)', async () => {
    const missing = await extract(t, apiKey, { source_url: url('/bucket/missing.txt') });
    expect(missing.status).toBe(502);
    expect(missing.body.error).toBe(`source_url could not be fetched: ${sourceBase}/bucket/missing.txt?… answered HTTP 404`);
    expect(missing.body.error).not.toMatch(/Signature/);
    const closed = await extract(t, apiKey, { source_url: 'https://127.0.0.1:9/bucket/inv.pdf' });
    expect(closed.status).toBe(502);
    expect(closed.body.error).toMatch(/^source_url could not be fetched from https:\/\/127\.0\.0\.1:9\/bucket\/inv\.pdf: ECONNREFUSED/);
  });

  test('over 25 MB is 400, whether the size is declared or only counted; a non-document is 400', async () => {
    const declared = await extract(t, apiKey, { source_url: url('/big-declared') });
    expect(declared.status).toBe(400);
    expect(declared.body.error).toBe('source_url is larger than 25 MB (the most a document may be)');
    const streamed = await extract(t, apiKey, { source_url: url('/big-streamed') });
    expect(streamed.status).toBe(400);
    expect(streamed.body.error).toBe('source_url is larger than 25 MB (the most a document may be)');
    const text = await extract(t, apiKey, { source_url: url('/bucket/notes.txt') });
    expect(text.status).toBe(400);
    expect(text.body.error).toMatch(/^source_url is not a supported document: unsupported file type.*only PDF, JPEG, PNG or WEBP/);
  });

  test('the body: exactly one source, strings, a known document_type; Bearer auth with invoices:read', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^source_url or source_uri is required/],
      [{ source_url: url('/bucket/inv.pdf'), source_uri: 's3://b/k' }, /^give exactly one of source_url and source_uri/],
      [{ source_uri: 'ftp://b/k' }, /^source_uri must be s3:\/\/bucket\/key or gs:\/\/bucket\/key/],
      [{ source_url: 42 }, /^source_url must be a string/],
      [{ source_url: url('/bucket/inv.pdf'), document_type: 'statement' }, /^document_type must be invoice or receipt/],
      [{ source_url: url('/bucket/inv.pdf'), correlation_id: '' }, /^correlation_id must be 1 to 255 characters/],
      [{ source_url: url('/bucket/inv.pdf'), tenant_id: 'mine' }, /^tenant_id must be a UUID/],
      [[1, 2], /^request body must be a JSON object/],
    ];
    for (const [json, message] of cases) {
      const res = await extract(t, apiKey, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    const foreignTenant = await extract(t, apiKey, { source_url: url('/bucket/inv.pdf'), tenant_id: (await t.createPartner()).tenantId });
    expect(foreignTenant.status).toBe(404);
    expect(foreignTenant.body.error).toBe('tenant not found');

    const noKey = await call(t.base, 'POST', '/api/v1/partner/extract', { json: { source_url: url('/bucket/inv.pdf') } });
    expect(noKey.status).toBe(401);
    expect(noKey.body.error).toMatch(/Authorization: Bearer/);
    const xApiKey = await call(t.base, 'POST', '/api/v1/partner/extract', { headers: { 'x-api-key': apiKey }, json: { source_url: url('/bucket/inv.pdf') } });
    expect(xApiKey.status).toBe(401);
    const p = await t.createPartner();
    const { apiKey: readOnly } = await t.app.services.partners.createApiKey({ partnerId: p.partnerId, scopes: ['read', 'invoices:write'] });
    const forbidden = await extract(t, readOnly, { source_url: url('/bucket/inv.pdf') });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe("API key lacks the required scope 'invoices:read'");
  });
});

describe('object storage URIs', () => {
  test('s3://bucket/key through an S3-compatible endpoint, signed with SigV4', async () => {
    s3Objects.set('adapter-bucket/incoming/2026/inv 1.pdf', pdf);
    const p = await t.createPartner();
    const res = await extract(t, p.apiKey, { source_uri: 's3://adapter-bucket/incoming/2026/inv 1.pdf', correlation_id: 's3-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ correlation_id: 's3-1', cache_hit: false, data: { vendorName: 'Green Valley Produce Co.', total: totals.total } });
    const get = s3Requests.find((r) => r.url.startsWith('/adapter-bucket/incoming/2026/inv%201.pdf'));
    expect(get).toBeDefined();
    expect(get!.method).toBe('GET');
    expect(get!.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAADAPTERTEST\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect((await usage(p.apiKey)).documents).toBe(1);

    const missing = await extract(t, p.apiKey, { source_uri: 's3://adapter-bucket/nope.pdf' });
    expect(missing.status).toBe(502);
    expect(missing.body.error).toBe('source_uri s3://adapter-bucket/nope.pdf could not be fetched: NoSuchKey (HTTP 404)');
  });

  test('gs://bucket/key through the GCS JSON API', async () => {
    gcs.objects.set('scans/inv.pdf', { bytes: pdf, contentType: 'application/pdf' });
    const p = await t.createPartner();
    const res = await extract(t, p.apiKey, { source_uri: 'gs://adapter-gcs/scans/inv.pdf' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ vendorName: 'Green Valley Produce Co.', invoiceNumber: 'INV-20431' });
    expect(gcs.requests.some((r) => r.method === 'GET' && r.url.startsWith('/storage/v1/b/adapter-gcs/o/scans%2Finv.pdf'))).toBe(true);
    const missing = await extract(t, p.apiKey, { source_uri: 'gs://adapter-gcs/scans/missing.pdf' });
    expect(missing.status).toBe(502);
    expect(missing.body.error).toBe('source_uri gs://adapter-gcs/scans/missing.pdf could not be fetched: no such object (HTTP 404)');
    expect(await usage(p.apiKey)).toMatchObject({ documents: 1, byChannel: [{ channel: 'adapter', documents: 1 }] });
  });
});

describe('GraphQL adapterExtract', () => {
  test('the same operation the REST route runs: camelCase input, the same errors with codes', async () => {
    const p = await t.createPartner();
    const q = `mutation($input: AdapterExtractInput!) { adapterExtract(input: $input) { correlationId cacheHit profile data splitDocuments } }`;
    const input = { sourceUrl: url('/bucket/graphql.pdf'), correlationId: 'gql-1', documentType: 'invoice' };
    const res = await gql(t.base, p.apiKey, q, { input });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.adapterExtract).toMatchObject({
      correlationId: 'gql-1',
      cacheHit: false,
      profile: 'default',
      data: { invoiceNumber: 'INV-20431' },
      splitDocuments: [],
    });
    // The REST route with the same request finds it under the same correlation id.
    const rest = await extract(t, p.apiKey, { source_url: input.sourceUrl, correlation_id: 'gql-1' });
    expect(rest.body).toMatchObject({ correlation_id: 'gql-1', cache_hit: true });
    const refused = await gql(t.base, p.apiKey, q, { input: { sourceUrl: 'https://10.0.0.1/x.pdf' } });
    expect(refused.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/private address/), extensions: { code: 'BAD_USER_INPUT' } });
    const failed = await gql(t.base, p.apiKey, q, { input: { sourceUrl: url('/bucket/missing.txt') } });
    expect(failed.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM');
  });
});

describe('receipts', () => {
  test('document_type receipt: OCR, tax category and payment method, through a receipt profile', async () => {
    const p = await t.createPartner();
    await saveProfile(p.apiKey, 'expenses', {
      merchant: 'merchantName',
      date: { path: 'receiptDate', date: 'DD.MM.YYYY' },
      'amount.cents': { path: 'total', as: 'cents' },
      'amount.tax': { path: 'tax', as: 'string' },
      category: 'taxCategory',
      'card.type': 'paymentMethod.type',
      'card.last4': 'paymentMethod.last4',
      vendor: { path: 'vendorName', default: 'n/a' },
    });
    const res = await extract(t, p.apiKey, { source_url: url('/bucket/receipt.png'), document_type: 'receipt', profile: 'expenses', correlation_id: 'r-1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      correlation_id: 'r-1',
      cache_hit: false,
      profile: 'expenses',
      split_documents: [],
      data: {
        merchant: 'BLUE HERON CAFE',
        date: '14.03.2024',
        amount: { cents: 1705, tax: '1.30' },
        category: 'Meals',
        card: { type: 'credit', last4: '4417' },
        vendor: 'n/a',
      },
    });
    expect(await usage(p.apiKey)).toMatchObject({ documents: 1, byChannel: [{ channel: 'adapter', documents: 1 }] });
  }, 60_000);
});

test('no connection of this test run left loopback', () => {
  expect(connections).toBeGreaterThan(20); // the watch was on: the requests above connected through it
  expect(offLoopback).toEqual([]);
});
