import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gql, http, insertVendor, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
const key = () => ({ 'x-api-key': partner.apiKey });

beforeAll(async () => {
  t = await startTestApp();
  partner = await t.createPartner();
});
afterAll(() => t?.close());

describe('GET /api/v1/partner/vendors', () => {
  test('an account without vendors gets 200 {"vendors":[]}', async () => {
    const res = await http(t.base, 'GET', '/api/v1/partner/vendors', { headers: key() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ vendors: [] });
  });

  test('lists the tenant vendors with contract fields, biggest spend first, and pages with limit/offset', async () => {
    const p = await t.createPartner();
    await insertVendor(t.database, p.tenantId, { name: 'Sysco', invoiceCount: 3, totalSpent: 1234.5 });
    await insertVendor(t.database, p.tenantId, { name: 'Acme Paper', invoiceCount: 1, totalSpent: 99.99 });
    await insertVendor(t.database, p.tenantId, { name: 'Blue Bottle', invoiceCount: 2, totalSpent: 500 });
    const all = await http(t.base, 'GET', '/api/v1/partner/vendors', { headers: { 'x-api-key': p.apiKey } });
    expect(all.status).toBe(200);
    expect(all.body.vendors.map((v: { name: string }) => v.name)).toEqual(['Sysco', 'Blue Bottle', 'Acme Paper']);
    expect(all.body.vendors[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Sysco',
      normalizedName: 'sysco',
      invoiceCount: 3,
      totalSpent: 1234.5,
    });
    const page = await http(t.base, 'GET', '/api/v1/partner/vendors?limit=1&offset=1', { headers: { 'x-api-key': p.apiKey } });
    expect(page.body.vendors.map((v: { name: string }) => v.name)).toEqual(['Blue Bottle']);
    // the first partner still sees none of them
    const other = await http(t.base, 'GET', '/api/v1/partner/vendors', { headers: key() });
    expect(other.body).toEqual({ vendors: [] });
  });

  test.each([
    ['limit=500', /limit must be an integer from 1 to 200/],
    ['limit=0', /limit must be an integer from 1 to 200/],
    ['limit=abc', /limit must be an integer \(got "abc"\)/],
    ['limit=1.5', /limit must be an integer/],
    ['offset=-1', /offset must be an integer of 0 or more/],
    ['limit=1&limit=2', /limit must be given once/],
  ])('?%s → 400 naming the field', async (qs, message) => {
    const res = await http(t.base, 'GET', `/api/v1/partner/vendors?${qs}`, { headers: key() });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  test('limit=200 is the maximum accepted', async () => {
    const res = await http(t.base, 'GET', '/api/v1/partner/vendors?limit=200', { headers: key() });
    expect(res.status).toBe(200);
  });

  test('no key, a malformed key, an unknown key and a Bearer-only call are 401 {"error"}', async () => {
    for (const headers of [{}, { 'x-api-key': 'nope' }, { 'x-api-key': `pk_${'A'.repeat(32)}` }, { authorization: `Bearer ${partner.apiKey}` }]) {
      const res = await http(t.base, 'GET', '/api/v1/partner/vendors', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.stringMatching(/API key/) });
    }
  });

  test('a revoked key is 401; a key without the read scope is 403 naming the scope', async () => {
    const { apiKey } = await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['invoices:read'] });
    const forbidden = await http(t.base, 'GET', '/api/v1/partner/vendors', { headers: { 'x-api-key': apiKey } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatch(/scope 'read'/);
    await t.app.services.partners.revokeApiKey(apiKey.slice(0, 11));
    const revoked = await http(t.base, 'GET', '/api/v1/partner/vendors', { headers: { 'x-api-key': apiKey } });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toMatch(/revoked/);
  });
});

describe('the same data through GraphQL', () => {
  test('vendors query returns what the REST route returns', async () => {
    const p = await t.createPartner();
    await insertVendor(t.database, p.tenantId, { name: 'Restaurant Depot', invoiceCount: 4, totalSpent: 310.25 });
    const rest = await http(t.base, 'GET', '/api/v1/partner/vendors', { headers: { 'x-api-key': p.apiKey } });
    const res = await gql(t.base, p.apiKey, '{ vendors { id name normalizedName invoiceCount totalSpent } }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ vendors: rest.body.vendors });
    expect(res.body.data!.vendors).toHaveLength(1);
  });

  test('range errors carry BAD_USER_INPUT and the field; another partner’s tenant is NOT_FOUND', async () => {
    const bad = await gql(t.base, partner.apiKey, '{ vendors(limit: 201) { id } }');
    expect(bad.body.errors?.[0]).toMatchObject({
      message: 'limit must be an integer from 1 to 200',
      extensions: { code: 'BAD_USER_INPUT', fields: { limit: 'must be an integer from 1 to 200' } },
    });
    const stranger = await t.createPartner();
    const res = await gql(t.base, partner.apiKey, 'query($t: UUID) { vendors(tenantId: $t) { id } }', { t: stranger.tenantId });
    expect(res.body.errors?.[0]).toMatchObject({ message: 'tenant not found', extensions: { code: 'NOT_FOUND' } });
    const own = await gql(t.base, partner.apiKey, 'query($t: UUID) { vendors(tenantId: $t) { id } }', { t: partner.tenantId });
    expect(own.body.data).toEqual({ vendors: [] });
  });
});
