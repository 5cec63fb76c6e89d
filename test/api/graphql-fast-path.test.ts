import { ApolloServer } from '@apollo/server';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { http, startTestApp, type TestApp } from '../helpers/app.ts';

// /graphql answers a validated query or mutation that runs without errors itself (src/platform/http/graphql-fast-path.ts)
// and hands everything else to Apollo Server. Each request here is sent twice: as is, and with `"extensions": {}` in
// the body, which Apollo alone serves; the two answers must be the same bytes with the same status and content type.

let t: TestApp;
let partner: { apiKey: string; tenantId: string };
let otherTenant: string;

beforeAll(async () => {
  t = await startTestApp();
  partner = await t.createPartner({ tier: 'embed' });
  otherTenant = (await t.createPartner()).tenantId;
});
afterAll(() => t?.close());
afterEach(() => vi.restoreAllMocks());

interface Sent {
  status: number;
  contentType: string | null;
  body: string;
  viaApollo: boolean;
}

/** POSTs the body as JSON; `viaApollo` tells whether Apollo Server's HTTP pipeline answered. */
async function post(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Sent> {
  const spy = vi.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
  try {
    const res = await fetch(`${t.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': partner.apiKey, ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text(), viaApollo: spy.mock.calls.length > 0 };
  } finally {
    spy.mockRestore();
  }
}

/** The answer with the rate limit's `remaining` and `reset` (they move between two requests) and correlation ids blanked. */
function comparable(sent: Sent): Omit<Sent, 'viaApollo'> {
  const body = sent.body
    .replace(/"remaining":\d+/g, '"remaining":0')
    .replace(/"reset":\d+/g, '"reset":0')
    .replace(/correlation id [0-9a-f-]+/g, 'correlation id x');
  return { status: sent.status, contentType: sent.contentType, body: body.replace(/"correlationId":"[0-9a-f-]+"/g, '"correlationId":"x"') };
}

/** Sends the request both ways and expects the same answer; returns the fast one. */
async function bothWays(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Sent> {
  const fast = await post(body, headers);
  const apollo = await post({ ...body, extensions: {} }, headers);
  expect(apollo.viaApollo).toBe(true);
  expect(comparable(fast)).toEqual(comparable(apollo));
  return fast;
}

const ITEMS = 'query Items($t: UUID) { inventoryItems(tenantId: $t) { id name category unit defaultCost parLevel createdAt } }';

describe('/graphql without Apollo for operations that run cleanly', () => {
  test('a query and a mutation without errors: the same bytes as Apollo, and Apollo does not see them', async () => {
    const created = await bothWays({
      query: `mutation Add($t: UUID, $n: String!) { createInventoryItem(tenantId: $t, input: { name: $n, category: food_cost, unit: "case", defaultCost: 32.5 }) { name unit } }`,
      variables: { t: partner.tenantId, n: 'Romaine lettuce' },
    });
    expect(created.viaApollo).toBe(false);
    expect(JSON.parse(created.body)).toEqual({ data: { createInventoryItem: { name: 'Romaine lettuce', unit: 'case' } } });
    // Twice: a client document is compiled when it comes back a second time.
    for (let i = 0; i < 2; i++) {
      const read = await bothWays({ query: ITEMS, variables: { t: partner.tenantId }, operationName: 'Items' });
      expect(read.viaApollo).toBe(false);
      expect(read.status).toBe(200);
      expect(read.contentType).toBe('application/json; charset=utf-8');
      expect(JSON.parse(read.body).data.inventoryItems).toHaveLength(2);
    }
  });

  test('a limited key: extensions.rateLimit as Apollo adds it', async () => {
    const limited = await t.createPartner({ tier: 'extraction' });
    const sent = await bothWays({ query: '{ viewer { name } }' }, { 'x-api-key': limited.apiKey });
    expect(sent.viaApollo).toBe(false);
    expect(JSON.parse(sent.body).extensions).toEqual({
      rateLimit: { policy: 'extraction', limit: 1000, remaining: expect.any(Number), reset: expect.any(Number) },
    });
  });

  test.each([
    ['no Accept header', {}],
    ['*/*', { accept: '*/*' }],
    ['application/json', { accept: 'application/json' }],
    ['a browser-like list', { accept: 'text/html, application/xhtml+xml, */*;q=0.8' }],
  ])('Accept %s: answered without Apollo, as Apollo would', async (_name, headers) => {
    const sent = await bothWays({ query: '{ viewer { name tier } }' }, headers);
    expect(sent.viaApollo).toBe(false);
  });

  test.each([
    ['the GraphQL response type', { accept: 'application/graphql-response+json' }],
    ['JSON refused', { accept: 'application/json;q=0, */*' }],
    ['nothing JSON', { accept: 'text/html' }],
  ])('Accept %s: Apollo negotiates', async (_name, headers) => {
    const sent = await bothWays({ query: '{ viewer { name } }' }, headers);
    expect(sent.viaApollo).toBe(true);
  });

  test('errors are formatted by Apollo, from the result already computed', async () => {
    const missing = await bothWays({ query: ITEMS, variables: { t: otherTenant } });
    expect(missing.viaApollo).toBe(true);
    expect(JSON.parse(missing.body).errors[0].extensions.code).toBe('NOT_FOUND');
    const badVariable = await bothWays({ query: ITEMS, variables: { t: 'not-a-uuid' } });
    expect(badVariable.viaApollo).toBe(true);
    expect(JSON.parse(badVariable.body).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const invalid = await bothWays({ query: '{ viewer { nope } }' });
    expect(invalid.status).toBe(400);
  });

  test('an operation name the document does not hold is a 400 naming it, never the document’s one operation', async () => {
    for (const query of ['{ viewer { name } }', 'query A { viewer { name } }', 'query A { viewer { name } } query B { viewer { tier } }']) {
      const sent = await bothWays({ query, operationName: 'Nope' });
      expect(sent.status, query).toBe(400);
      expect(JSON.parse(sent.body).errors[0], query).toMatchObject({
        message: 'Unknown operation named "Nope".',
        extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
      });
    }
  });

  test('a mutation that partly fails runs once: Apollo answers with its result', async () => {
    const name = `Once ${Date.now()}`;
    const sent = await post({
      query: `mutation($t: UUID, $o: UUID, $n: String!) {
        a: createInventoryItem(tenantId: $t, input: { name: $n, category: food_cost, unit: "kg" }) { name }
        b: createInventoryItem(tenantId: $o, input: { name: $n, category: food_cost, unit: "kg" }) { name }
      }`,
      variables: { t: partner.tenantId, o: otherTenant, n: name },
    });
    expect(sent.viaApollo).toBe(true);
    const body = JSON.parse(sent.body);
    expect(body.data).toBeNull();
    expect(body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['NOT_FOUND']);
    const rows = await t.database.db.selectFrom('inventoryItems').select('id').where('name', '=', name).execute();
    expect(rows).toHaveLength(1);
  });

  test('bodies Apollo refuses or reads specially still reach it', async () => {
    for (const body of [
      { query: '{ viewer { name } }', variables: 'x' },
      { query: '{ viewer { name } }', operationName: 3 },
    ]) {
      const sent = await post(body);
      expect(sent.viaApollo).toBe(true);
      expect(sent.status).toBe(400);
    }
    const res = await http(t.base, 'POST', '/graphql', { headers: { 'x-api-key': partner.apiKey }, json: [{ query: '{ viewer { name } }' }] });
    expect(res.status).toBe(400);
  });
});
