import { type Client, createClient } from 'graphql-ws';
import { getIntrospectionQuery, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { buildSchema } from '../../src/app/schema.ts';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';

// The guard of src/graphql/limits.ts on every way in: /graphql (POST and GET), graphql-ws, the REST routes' stored
// operations. DESIGN §9's defaults: depth 10, aliases 30, tokens 5,000, cost 10,000.

let t: TestApp;
let apiKey: string;
let tenantId: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey, tenantId } = await t.createPartner({ tier: 'embed' }));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
});

/** vendors { invoices { nodes { vendor { invoices { … } } } } } nested `levels` times. */
function nestedVendorQuery(levels: number): string {
  let inner = 'id';
  for (let i = 0; i < levels; i++) inner = `invoices(first: 100) { nodes { vendor { ${inner} } } }`;
  return `{ vendors(limit: 200) { ${inner} } }`;
}

const tooComplex = (body: any) => body.errors?.[0]?.extensions?.code;

describe('/graphql refuses operations over the limits with 400 QUERY_TOO_COMPLEX', () => {
  test.each([
    ['the nested vendor query at depth 6', nestedVendorQuery(6), /depth limit of 10 exceeded/],
    ['depth 200', `{ viewer { ${'tenants { '.repeat(199)}id${' }'.repeat(199)} } }`, /depth limit/],
    // A thousand aliases are past the token limit before anything counts them.
    [
      '1,000 aliases',
      `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: invoices(first: 100) { nodes { id } }`).join(' ')} }`,
      /Token limit of 5000 exceeded/,
    ],
    ['31 aliases', `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: viewer { name }`).join(' ')} }`, /Aliases limit of 30 exceeded, found 31/],
    ['one field selected 1,200 times (quadratic to merge)', `{ ${'viewer { name } '.repeat(1200)} }`, /selected too often/],
    [
      'a few repeats at each of three levels',
      `{ ${Array(5)
        .fill(
          `viewer { ${Array(5)
            .fill(`tenants { ${Array(5).fill('stores { id }').join(' ')} }`)
            .join(' ')} }`,
        )
        .join(' ')} }`,
      /selected too often/,
    ],
    ['a 400 KB document', `{ viewer { name ${' __typename'.repeat(36_000)} } }`, /Token limit of 5000 exceeded/],
    // Under the token limit, yet deep enough to exhaust the recursive parser's stack (fuzzer: a 4500 over graphql-ws).
    ['a list literal nested 4,900 deep', `mutation { createEmployee(input: ${'['.repeat(4900)}${']'.repeat(4900)}) { id } }`, /nested too deeply/],
    [
      'a cost over 10,000',
      '{ invoices(first: 100) { nodes { vendor { invoices(first: 100) { nodes { id } } } } } }',
      /query cost \d+ is over the limit of 10000/,
    ],
    [
      'aliased lists that add up',
      `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: invoices(first: 100) { nodes { lineItems { description } } }`).join(' ')} }`,
      /query cost/,
    ],
  ])('%s', async (_name, query, message) => {
    const res = await gql(t.base, apiKey, query);
    expect(res.status).toBe(400);
    expect(tooComplex(res.body)).toBe('QUERY_TOO_COMPLEX');
    expect(res.body.errors![0]!.message).toMatch(message);
    expect(res.body.data).toBeUndefined();
  });

  test('a 1 MB request body is refused while it is read (400 PAYLOAD_TOO_LARGE)', async () => {
    const res = await gql(t.base, apiKey, `{ viewer { name ${' __typename'.repeat(100_000)} } }`);
    expect(res.status).toBe(400);
    expect(res.body.errors![0]).toMatchObject({ extensions: { code: 'PAYLOAD_TOO_LARGE' }, message: expect.stringMatching(/larger than 512 KB/) });
  });

  test('the same limits over GET', async () => {
    const res = await http(t.base, 'GET', `/graphql?query=${encodeURIComponent(nestedVendorQuery(6))}`, { headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(400);
    expect(tooComplex(res.body)).toBe('QUERY_TOO_COMPLEX');
  });

  test('the cost follows the variables: first: 100 is refused where first: 5 is not', async () => {
    const query = 'query($n: Int) { invoices(first: $n) { nodes { vendor { invoices(first: $n) { nodes { id } } } } } }';
    expect((await gql(t.base, apiKey, query, { n: 100 })).status).toBe(400);
    const small = await gql(t.base, apiKey, query, { n: 5 });
    expect(small.status).toBe(200);
    expect(small.body.data.invoices.nodes).toEqual([]);
  });

  test('ordinary queries and the full introspection query pass', async () => {
    const list = await gql(
      t.base,
      apiKey,
      '{ invoices(first: 100) { nodes { id vendorName lineItems { description costCategory } vendor { name } } } vendors(limit: 200) { id name } }',
    );
    expect(list.status).toBe(200);
    expect(list.body.errors).toBeUndefined();
    const introspection = await gql(t.base, apiKey, getIntrospectionQuery());
    expect(introspection.status).toBe(200);
    expect(introspection.body.data.__schema.types.length).toBeGreaterThan(50);
  });

  test('a subscription sent over HTTP is a 400 pointing at graphql-ws', async () => {
    const res = await gql(t.base, apiKey, 'subscription { serverTime }');
    expect(res.status).toBe(400);
    expect(res.body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(res.body.errors![0]!.message).toMatch(/graphql-ws/);
  });
});

describe('text input: NUL and other control characters are a 400 naming the field', () => {
  test('in a variable', async () => {
    const res = await gql(t.base, apiKey, 'mutation($name: String!) { createTenant(input: { name: $name, email: "a@b.co" }) { tenantId } }', {
      name: 'a\u0000b',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', fields: { name: expect.stringMatching(/U\+0000/) } } });
  });

  test('in an input object variable and in a string literal', async () => {
    const nested = await gql(t.base, apiKey, 'mutation($input: CreateTenantInput!) { createTenant(input: $input) { tenantId } }', {
      input: { name: 'ok', email: 'a@b.co\u0007' },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.errors![0]!.extensions!.fields).toHaveProperty(['input.email']);
    const literal = await gql(t.base, apiKey, 'mutation { createTenant(input: { name: "a\\u0000b", email: "a@b.co" }) { tenantId } }');
    expect(literal.status).toBe(400);
    expect(literal.body.errors![0]!.extensions!.fields).toHaveProperty(['input.name']);
  });

  test('tab, newline and carriage return are text like any other', async () => {
    const res = await gql(t.base, apiKey, 'mutation($name: String!) { createTenant(input: { name: $name, email: "a@b.co" }) { tenantId } }', {
      name: 'Line one\r\n\tLine two',
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
  });

  test('on REST: the body field is named', async () => {
    const res = await http(t.base, 'POST', '/api/v1/partner/tenants', { headers: { 'x-api-key': apiKey }, json: { name: 'a\u0000b', email: 'a@b.co' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^name must not contain control characters/);
    const store = await http(t.base, 'POST', `/api/v1/partner/tenants/${tenantId}/stores`, {
      headers: { 'x-api-key': apiKey },
      json: { externalStoreId: 'x\u0000', name: 'Store', timezone: 'America/Chicago' },
    });
    expect(store.status).toBe(400);
    expect(store.body.error).toMatch(/externalStoreId/);
  });

  test('in an uploaded file name', async () => {
    const form = new FormData();
    form.set('file', new Blob([Buffer.from('%PDF-1.4\n')], { type: 'application/pdf' }), 'inv\u0001oice.pdf');
    const res = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: { 'x-api-key': apiKey }, body: form });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/file name must not contain control characters/);
  });
});

describe('graphql-ws: the same guard, and the connection stays open', () => {
  function connect(): Client {
    const c = createClient({ url: `${t.base.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey }, retryAttempts: 0 });
    clients.push(c);
    return c;
  }
  async function first(c: Client, query: string, variables?: Record<string, unknown>, operationName?: string): Promise<any> {
    for await (const result of c.iterate({ query, variables, ...(operationName ? { operationName } : {}) })) return result;
    return undefined;
  }
  // graphql-ws hands an operation's refusal to the subscriber as the iterator's error.
  async function refusal(c: Client, query: string, variables?: Record<string, unknown>, operationName?: string): Promise<any> {
    try {
      await first(c, query, variables, operationName);
    } catch (errors) {
      return (errors as any[])[0];
    }
    throw new Error('the operation was not refused');
  }

  test('depth, aliases, cost, text and syntax', async () => {
    const c = connect();
    expect(await refusal(c, nestedVendorQuery(6))).toMatchObject({ extensions: { code: 'QUERY_TOO_COMPLEX' } });
    expect(await refusal(c, `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: viewer { name }`).join(' ')} }`)).toMatchObject({
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
    expect(await refusal(c, 'query($n: Int) { invoices(first: $n) { nodes { vendor { invoices(first: $n) { nodes { id } } } } } }', { n: 100 })).toMatchObject({
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
    expect(await refusal(c, 'query($q: String!) { search(query: $q) { totalResults } }', { q: 'x\u0000y' })).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', fields: { q: expect.any(String) } },
    });
    expect((await refusal(c, '{ viewer { ')).message).toMatch(/Syntax Error/);
    expect(await refusal(c, `mutation { createEmployee(input: ${'['.repeat(4900)}${']'.repeat(4900)}) { id } }`)).toMatchObject({
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
    const ok = await first(c, '{ viewer { name } }');
    expect(ok.data.viewer.name).toBeTruthy();
  });

  test('a document that does not parse, validate or name its operation: the codes /graphql gives', async () => {
    const c = connect();
    expect(await refusal(c, '{ viewer { ')).toMatchObject({ extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    expect(await refusal(c, '{ viewer { nope } }')).toMatchObject({
      message: expect.stringMatching(/^Cannot query field "nope" on type "Viewer"/),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(await refusal(c, '{ viewer { name } }', undefined, 'Nope')).toEqual({
      message: 'Unknown operation named "Nope".',
      extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
    });
    expect(await refusal(c, 'query A { viewer { name } } query B { viewer { tier } }')).toEqual({
      message: 'Must provide operation name if query contains multiple operations.',
      extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
    });
    const named = await first(c, 'query A { viewer { name } } query B { viewer { tier } }', undefined, 'B');
    expect(named.data.viewer.tier).toBe('embed');
  });
});

describe('REST routes: their stored operations are costed with the request’s variables', () => {
  test('the largest lists the routes allow stay within the limit', async () => {
    const vendors = await http(t.base, 'GET', '/api/v1/partner/vendors?limit=200', { headers: { 'x-api-key': apiKey } });
    expect(vendors.status).toBe(200);
  });

  test('a page size past its maximum is that parameter’s 400, however large', async () => {
    for (const [route, message] of [
      ['/api/v1/partner/search?q=coffee&limit=1000', /limit must be an integer from 1 to 50/],
      ['/api/v1/partner/vendors?limit=100000', /limit must be an integer from 1 to 200/],
      [`/api/v1/partner/tenants/${tenantId}/search`, /limit must be an integer from 1 to 50/],
    ] as const) {
      const post = route.endsWith('/search');
      const res = await http(t.base, post ? 'POST' : 'GET', route, {
        headers: { 'x-api-key': apiKey },
        ...(post ? { json: { query: 'coffee', limit: 100000 } } : {}),
      });
      expect(res.status, route).toBe(400);
      expect(res.body.error, route).toMatch(message);
    }
  });
});

describe('a page size past its maximum is costed at that maximum: the field refuses it, not the cost limit', () => {
  test('over /graphql, BAD_USER_INPUT naming the argument', async () => {
    for (const [query, message] of [
      ['{ invoices(first: 100000) { nodes { id } } }', /first must be an integer from 1 to 100/],
      ['{ vendors(limit: 1000000) { id name } }', /limit must be an integer from 1 to 200/],
      ['{ search(query: "coffee", limit: 5000) { results { id } } }', /limit must be an integer from 1 to 50/],
    ] as const) {
      const res = await gql(t.base, apiKey, query);
      expect(res.body.errors?.[0]?.extensions?.code, query).toBe('BAD_USER_INPUT');
      expect(res.body.errors?.[0]?.message, query).toMatch(message);
    }
  });

  test('every page-size argument of the schema declares its maximum', () => {
    const undeclared: string[] = [];
    const schema = buildSchema();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        for (const arg of field.args) {
          if ((arg.name === 'first' || arg.name === 'limit') && !arg.astNode?.directives?.some((d) => d.name.value === 'maxItems')) {
            undeclared.push(`${type.name}.${field.name}(${arg.name})`);
          }
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  test('what is over the cost limit even at the maxima is still refused for its cost', async () => {
    const res = await gql(t.base, apiKey, '{ invoices(first: 100000) { nodes { vendor { invoices(first: 100000) { nodes { id } } } } } }');
    expect(res.status).toBe(400);
    expect(tooComplex(res.body)).toBe('QUERY_TOO_COMPLEX');
  });
});
