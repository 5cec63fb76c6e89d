import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';

// Issue 47: the 500s `npm run fuzz -- --requests 20000 --seed 4242 --keep-going` found, each replayed over HTTP.
// (The malformed session cookie has its own file: malformed-cookies.test.ts.)

let t: TestApp;
let apiKey: string;
const v1 = () => ({ 'x-api-key': apiKey });

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
