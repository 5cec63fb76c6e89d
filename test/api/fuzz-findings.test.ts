import { request } from 'node:http';
import { connect } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeInvoicePdf, makeInvoicePdfWithCode, produceInvoice } from '../fixtures/invoice-documents.ts';
import { fileBytes, fuzzDocuments, type FileRecipe } from '../fuzz/files.ts';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';

// Issue 47: the 500s `npm run fuzz -- --requests 20000 --seed 4242 --keep-going` found, each replayed over HTTP.
// (The malformed session cookie has its own file: malformed-cookies.test.ts.)

let t: TestApp;
let apiKey: string;
const v1 = () => ({ 'x-api-key': apiKey });
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const form = (pdf: Buffer) => {
  const fd = new FormData();
  fd.set('file', new Blob([pdf], { type: 'application/pdf' }), 'invoice.pdf');
  return fd;
};

beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey } = await t.createPartner({ tier: 'embed' }));
  // Rows in the search index, so a search reaches the HNSW scans.
  const res = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: v1(), body: form(await makeInvoicePdf(produceInvoice)) });
  expect(res.status).toBe(201);
});
afterAll(() => t?.close());

describe('a PDF whose text layer carries control characters, through the REST uploads', () => {
  // `~` is where the text layer carries the control character.
  const spec = {
    ...produceInvoice,
    number: 'NUL-0001',
    vendor: 'Green~Valley Produce~ Co.',
    lines: [{ description: 'Roma~tomatoes 25 lb', sku: 'GV-102', quantity: 2, unit: 'case', unitPrice: 28.75 }],
  };

  test.each([
    ['NUL', 0],
    ['BEL', 7],
    ['ESC', 0x1b],
  ])('%s, POST /api/v1/partner/invoices/upload: 201 processed, its text without it (NUL was refused by the database: a 500)', async (_, code) => {
    const pdf = await makeInvoicePdfWithCode({ ...spec, number: `NUL-${code}` }, code);
    const res = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: v1(), body: form(pdf) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'processed', vendorName: 'Green Valley Produce Co.', invoiceNumber: `NUL-${code}` });
    const read = await http(t.base, 'GET', `/api/v1/partner/invoices/${res.body.id}`, { headers: v1() });
    expect(read.body.lineItems.map((l: { description: string }) => l.description)).toEqual(['Roma tomatoes 25 lb']);
    expect(JSON.stringify(read.body)).not.toMatch(/\\u00[01][0-9a-f]|\\u007f/);
  });

  test('POST /api/partner/extract-invoice: 200 with the fields, none holding a control character', async () => {
    const res = await http(t.base, 'POST', '/api/partner/extract-invoice', {
      headers: { authorization: `Bearer ${apiKey}` },
      body: form(await makeInvoicePdfWithCode({ ...spec, number: 'NUL-9001' }, 0)),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, vendor: 'Green Valley Produce Co.', invoiceNumber: 'NUL-9001' });
    expect(CONTROL.test(JSON.stringify(res.body))).toBe(false);
  });

  test("the fuzzer's own counterexample (five bytes written over the seeded invoice at offset 889): not a 500", async () => {
    const pdf = await makeInvoicePdf(produceInvoice);
    Buffer.from([45, 90, 35, 138, 71]).copy(pdf, 889);
    for (const [url, headers] of [
      ['/api/partner/extract-invoice', { authorization: `Bearer ${apiKey}` }],
      ['/api/v1/partner/invoices/upload', v1()],
    ] as const) {
      const res = await http(t.base, 'POST', url, { headers, body: form(pdf) });
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
    }
  });
});

describe('search(relevantOnly: true) up to its largest limit', () => {
  // relevantOnly looks at three times `limit` candidates (at most 150) with ten times as many in hnsw.ef_search:
  // from limit 34 on that was over pgvector's maximum of 1,000 ("1500 is outside the valid range").
  test.each([33, 34, 50])('limit %i: results, no internal error', async (limit) => {
    const res = await gql(t.base, apiKey, 'query($l: Int) { search(query: "produce", limit: $l, relevantOnly: true) { totalResults results { type } } }', {
      l: limit,
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.search.totalResults).toBeGreaterThan(0);
  });

  test('limit 51 (past the maximum) is BAD_USER_INPUT', async () => {
    const res = await gql(t.base, apiKey, '{ search(query: "produce", limit: 51, relevantOnly: true) { totalResults } }');
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('a search index row with a zero vector (its text had no features)', () => {
  // Found by the CI fuzz run's rotating seed 20261207: pgvector's cosine with a zero vector is NaN, and the
  // similarity NaN failed GraphQL's Int ("Int cannot represent non-integer value: NaN"): a 500 on REST.
  test('REST and GraphQL search answer, that row at similarity 0', async () => {
    await sql`insert into search_documents (entity_type, entity_id, tenant_id, text, preview, embedder_id, embedding)
      select 'invoice', gen_random_uuid(), tenant_id, '···', '···', embedder_id, array_fill(0, array[vector_dims(embedding)])::real[]::vector
      from search_documents limit 1`.execute(t.database.db);
    const res = await gql(t.base, apiKey, '{ search(query: "produce", limit: 50) { results { preview similarity } } }');
    expect(res.body.errors).toBeUndefined();
    const zero = res.body.data.search.results.find((r: { preview: string }) => r.preview === '···');
    expect(zero?.similarity).toBe(0);
    const tenantId = (await gql(t.base, apiKey, '{ viewer { tenants { id } } }')).body.data.viewer.tenants[0].id;
    const rest = await http(t.base, 'POST', `/api/v1/partner/tenants/${tenantId}/search`, { headers: v1(), json: { query: 'coffee', type: 'invoice' } });
    expect(rest.status).toBe(200);
  });
});

/** A GET with the Host header as given (none when undefined): fetch always sends the URL's. */
function getWithHost(path: string, host: string | undefined, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.base}${path}`, { headers: { ...headers, ...(host === undefined ? {} : { host }) }, setHost: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The status of a raw request written as is (HTTP/1.0: the server closes the connection after answering). */
function statusOf10(raw: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(t.base).port), '127.0.0.1', () => socket.end(raw));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

describe('a text layer whose matrix a bit flip made NaN (CI, 7 Dec: seeds 1313 and 20261207)', () => {
  // The fuzzer's own recipe: the words of that item had no height, the learned scorers' features were NaN and the
  // invoice's confidence NaN, which the database refused (a 500).
  test('POST /api/v1/partner/invoices/upload: 201 with a confidence, the unplaceable words left out', async () => {
    const recipe: FileRecipe = {
      kind: 'control-text',
      code: 1,
      flips: [
        [56329567, 5],
        [181142916, 3],
        [101751709, 0],
      ],
    };
    const pdf = fileBytes(recipe, await fuzzDocuments()) as Buffer;
    const res = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: v1(), body: form(pdf) });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('processed');
    expect(res.body.extractionConfidence).toBeGreaterThanOrEqual(0);
    expect(res.body.extractionConfidence).toBeLessThanOrEqual(100);
  });
});

describe('the Host header (RFC 9112: a missing or invalid one is a 400)', () => {
  const viewer = `/graphql?query=${encodeURIComponent('{ viewer { keyPrefix } }')}`;

  // Apollo's Fastify integration built a URL from the host: "Invalid URL", a 500.
  test.each(['×', ' ', 'a b', '\u0085x', 'a%zz', 'x:99999'])('Host %j on /graphql (through Apollo): 400 with a message', async (host) => {
    const res = await getWithHost(viewer, host, { 'x-api-key': apiKey, 'apollo-require-preflight': 'true' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: 'the Host header is not a valid host name' });
  });

  test('no Host (HTTP/1.0; Node refuses HTTP/1.1 without one itself): 400, except the health probes', async () => {
    expect(await statusOf10(`GET ${viewer} HTTP/1.0\r\nx-api-key: ${apiKey}\r\napollo-require-preflight: true\r\n\r\n`)).toBe(400);
    expect(await statusOf10('GET /healthz HTTP/1.0\r\n\r\n')).toBe(200);
  });

  test.each(['127.0.0.1', 'localhost:4000', 'api.example.com', '[::1]:8080'])('Host %j: served', async (host) => {
    const res = await getWithHost(viewer, host, { 'x-api-key': apiKey, 'apollo-require-preflight': 'true' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data.viewer.keyPrefix).toBe(apiKey.slice(0, 11));
  });
});
