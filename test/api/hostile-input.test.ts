import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { http, startTestApp, type TestApp } from '../helpers/app.ts';

// The inputs that gave 500s (issue 13): NUL in text fields reaching Postgres, multipart boundaries the parser
// cannot search for, half a surrogate pair. Each is a 400 with a message naming what is wrong. The fuzz test
// (test/fuzz) covers the rest.

let t: TestApp;
let apiKey: string;
let tenantId: string;

beforeAll(async () => {
  t = await startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' } });
  ({ apiKey } = await t.createPartner({ tier: 'embed' }));
  const tenant = await http(t.base, 'POST', '/api/v1/partner/tenants', {
    headers: { 'x-api-key': apiKey },
    json: { name: 'Bistro', email: 'owner@bistro.example', maxLocations: 3 },
  });
  tenantId = tenant.body.tenantId;
});
afterAll(() => t?.close());

const headers = () => ({ 'x-api-key': apiKey, authorization: `Bearer ${apiKey}` });
const tenantPath = (rest: string) => `/api/v1/partner/tenants/${tenantId}${rest}`;

describe('NUL in a text field is a 400 naming the field', () => {
  test.each([
    ['tenant name', '/api/v1/partner/tenants', () => ({ name: 'a\u0000b', email: 'x@y.co' }), 'name'],
    ['store externalStoreId', tenantPath('/stores'), () => ({ externalStoreId: 'a\u0000b', name: 'Store' }), 'externalStoreId'],
    [
      'embed externalStoreId',
      tenantPath('/embed/auth'),
      () => ({ email: 'm@b.co', name: 'M', role: 'executive', externalStoreId: 'a\u0000', page: 'dashboard' }),
      'externalStoreId',
    ],
    [
      'time-off reason',
      tenantPath('/scheduling/time-off'),
      () => ({ employeeId: '00000000-0000-4000-8000-000000000000', startDate: '2026-12-01', endDate: '2026-12-02', reason: 'a\u0000b' }),
      'reason',
    ],
    [
      'count notes',
      tenantPath('/inventory/counts'),
      () => ({ storeId: '00000000-0000-4000-8000-000000000000', itemId: '00000000-0000-4000-8000-000000000000', quantity: 1, notes: 'a\u0000b' }),
      'notes',
    ],
    ['adapter correlation_id', '/api/v1/partner/extract', () => ({ source_url: 'https://127.0.0.1/x.pdf', correlation_id: 'a\u0000b' }), 'correlation_id'],
  ])('%s', async (_name, url, body, field) => {
    const res = await http(t.base, 'POST', url, { headers: headers(), json: body() });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(field);
    expect(res.body.error).toMatch(/control characters \(found U\+0000\)/);
  });

  test.each([['/api/v1/partner/invoices/upload'], ['/api/v1/partner/receipts/upload'], ['/api/partner/extract-invoice'], ['/api/partner/extract-receipt']])(
    'an upload’s file name on %s',
    async (url) => {
      const form = new FormData();
      form.set('file', new Blob([Buffer.from('%PDF-1.4\n')], { type: 'application/pdf' }), 'a\u0000b.pdf');
      const res = await http(t.base, 'POST', url, { headers: headers(), body: form });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/file name must not contain control characters/);
    },
  );
});

describe('half of a surrogate pair is a 400 naming the field (it reached Postgres as bytes it refuses: a 500)', () => {
  test('in a GraphQL variable', async () => {
    const res = await http(t.base, 'POST', '/graphql', {
      headers: headers(),
      json: { query: 'mutation($n: String!) { deleteShapeProfile(name: $n) }', variables: { n: 'é\udfff' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', fields: { n: 'must be valid Unicode text (found an unpaired surrogate U+DFFF)' } },
    });
  });

  test('in a REST body, and a whole pair is text like any other', async () => {
    const res = await http(t.base, 'POST', '/api/v1/partner/tenants', { headers: headers(), json: { name: 'Caf\u00e9 \ud83d', email: 'x@y.co' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('name must be valid Unicode text (found an unpaired surrogate U+D83D)');
    expect(
      (await http(t.base, 'POST', '/api/v1/partner/tenants', { headers: headers(), json: { name: 'Caf\u00e9 \ud83d\ude00', email: 'x@y.co' } })).status,
    ).toBe(201);
  });
});

describe('a multipart boundary the parser cannot handle is a 400', () => {
  test.each([
    ['/api/v1/partner/invoices/upload'],
    ['/api/v1/partner/receipts/upload'],
    ['/api/partner/extract-invoice'],
    ['/api/partner/extract-receipt'],
    ['/graphql'],
  ])('%s', async (url) => {
    for (const length of [253, 5000]) {
      const boundary = 'b'.repeat(length);
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--${boundary}--\r\n`;
      const res = await http(t.base, 'POST', url, {
        headers: { ...headers(), 'apollo-require-preflight': 'true', 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/boundary is \d+ characters long/);
    }
  });
});

test('an HTML form field with NUL (the onboarding page) is a 400 naming it', async () => {
  const tenant = await http(t.base, 'POST', '/api/v1/partner/tenants', { headers: headers(), json: { name: 'Form test', email: 'f@b.co' } });
  const setup = tenant.body.setupUrl.replace(/^https?:\/\/[^/]+/, t.base);
  const res = await fetch(setup, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=a%00b' });
  expect(res.status).toBe(400);
  expect(await res.text()).toMatch(/form field \\"name\\" must not contain control characters/);
  // The link is still usable.
  expect((await fetch(setup)).status).toBe(200);
});
