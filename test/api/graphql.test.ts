import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const VIEWER = '{ viewer { partnerId name tier legacyPlan scopes keyPrefix tenants { id name isDefault stores { id } } } }';

describe('viewer', () => {
  test('works with X-API-Key and with Authorization: Bearer', async () => {
    const p = await t.createPartner({ tier: 'embed', legacyPlan: 'professional', name: 'Viewer Co' });
    for (const via of ['x-api-key', 'bearer'] as const) {
      const res = await gql(t.base, p.apiKey, VIEWER, undefined, via);
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.viewer).toEqual({
        partnerId: p.partnerId,
        name: 'Viewer Co',
        tier: 'embed',
        legacyPlan: 'professional',
        scopes: expect.arrayContaining(['invoices:read', 'invoices:write', 'read', 'search:read', 'tenants:write']),
        keyPrefix: p.apiKey.slice(0, 11),
        tenants: [{ id: p.tenantId, name: 'Viewer Co', isDefault: true, stores: [] }],
      });
      expect(res.body.data.viewer.scopes).toHaveLength(11);
    }
  });

  test('tenant stores are loaded for every tenant in one batch', async () => {
    const p = await t.createPartner();
    await t.database.db
      .insertInto('stores')
      .values([
        { tenantId: p.tenantId, externalStoreId: 'S-1', name: 'Downtown' },
        { tenantId: p.tenantId, externalStoreId: 'S-2', name: null },
      ])
      .execute();
    const res = await gql(t.base, p.apiKey, '{ viewer { tenants { stores { externalStoreId name } } } }');
    expect(res.body.data.viewer.tenants[0].stores).toEqual([
      { externalStoreId: 'S-1', name: 'Downtown' },
      { externalStoreId: 'S-2', name: null },
    ]);
  });

  test('a scoped key shows only its scopes', async () => {
    const p = await t.createPartner();
    const { apiKey } = await t.app.services.partners.createApiKey({ partnerId: p.partnerId, scopes: ['read', 'invoices:read'] });
    const res = await gql(t.base, apiKey, '{ viewer { scopes } }');
    expect(res.body.data.viewer.scopes.sort()).toEqual(['invoices:read', 'read']);
  });
});

describe('authentication and errors on /graphql', () => {
  test('no key, a bad key: 401 with {error} and GraphQL errors[], even for introspection', async () => {
    for (const key of [undefined, 'pk_nope']) {
      for (const query of ['{ viewer { name } }', '{ __schema { queryType { name } } }']) {
        const res = await gql(t.base, key, query);
        expect(res.status).toBe(401);
        expect(res.body.error).toMatch(/API key/);
        expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      }
    }
  });

  test('introspection is on for authenticated callers and names the contract resources', async () => {
    const p = await t.createPartner();
    const res = await gql(t.base, p.apiKey, '{ __schema { types { name } } }');
    const names = res.body.data.__schema.types.map((x: { name: string }) => x.name);
    for (const type of [
      'Invoice',
      'LineItem',
      'Receipt',
      'Vendor',
      'SearchResult',
      'Tenant',
      'Store',
      'Webhook',
      'PaymentMethod',
      'CostCategory',
      'InventorySummary',
      'LaborReport',
      'TimeOffRequest',
    ]) {
      expect(names).toContain(type);
    }
  });

  test('an invalid query is rejected by validation (400, GRAPHQL_VALIDATION_FAILED), a bad UUID variable is BAD_USER_INPUT', async () => {
    const p = await t.createPartner();
    const invalid = await gql(t.base, p.apiKey, '{ viewer { noSuchField } }');
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const badVar = await gql(t.base, p.apiKey, 'query($t: UUID) { vendors(tenantId: $t) { id } }', { t: 'not-a-uuid' });
    expect(badVar.status).toBe(400);
    expect(badVar.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(badVar.body.errors?.[0]?.message).toMatch(/UUID/);
  });

  test('no stack traces in error responses', async () => {
    const p = await t.createPartner();
    const res = await gql(t.base, p.apiKey, '{ vendors(limit: 0) { id } }');
    expect(JSON.stringify(res.body)).not.toMatch(/stacktrace|at .*\.ts:\d+/);
  });
});

describe('service endpoints', () => {
  test('/healthz and /readyz are 200 without a key; unknown routes 404 in the family error shape', async () => {
    expect((await http(t.base, 'GET', '/healthz')).status).toBe(200);
    const ready = await http(t.base, 'GET', '/readyz');
    expect(ready).toMatchObject({ status: 200, body: { status: 'ready' } });
    const v1 = await fetch(`${t.base}/api/v1/partner/nope`);
    expect(v1.status).toBe(404);
    expect(await v1.json()).toEqual({ error: 'route not found: GET /api/v1/partner/nope' });
    const legacy = await fetch(`${t.base}/api/partner/nope`);
    expect(legacy.status).toBe(404);
    expect(await legacy.json()).toEqual({ success: false, error: 'route not found: GET /api/partner/nope' });
  });

  test('/openapi.json serves the OpenAPI 3.1 document, version 2.3.4', async () => {
    const res = await http(t.base, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    expect(res.body.info.version).toBe('2.3.4');
    expect(res.body.paths['/api/v1/partner/vendors']).toBeDefined();
  });

  test('the admin endpoint is not reachable without the lock-file token', async () => {
    const res = await http(t.base, 'POST', '/_admin/commands/create-partner', { json: { name: 'x', tier: 'embed' } });
    expect(res.status).toBe(404);
  });
});
