import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { assertMatchesContract, contractPaths, loadOpenApi } from '../helpers/openapi.ts';

const T = '/api/v1/partner/tenants/{tenantId}';

/** Every method + path the contract names (partner-api.md, "Endpoints"), plus the stores route it references. */
const CONTRACT_OPERATIONS: Array<[method: string, path: string]> = [
  ['POST', '/api/v1/partner/invoices/upload'],
  ['GET', '/api/v1/partner/invoices/{id}'],
  ['POST', '/api/v1/partner/receipts/upload'],
  ['GET', '/api/v1/partner/search'],
  ['POST', `${T}/search`],
  ['GET', '/api/v1/partner/vendors'],
  ['POST', '/api/v1/partner/webhooks'],
  ['POST', '/api/v1/partner/tenants'],
  ['POST', `${T}/stores`],
  ['POST', `${T}/embed/auth`],
  ['GET', `${T}/inventory/items`],
  ['GET', `${T}/inventory/counts/{storeId}`],
  ['POST', `${T}/inventory/counts`],
  ['GET', `${T}/inventory/summary`],
  ['GET', `${T}/scheduling/schedules`],
  ['GET', `${T}/scheduling/schedules/{scheduleId}`],
  ['GET', `${T}/scheduling/employees`],
  ['GET', `${T}/scheduling/time-off`],
  ['POST', `${T}/scheduling/time-off`],
  ['GET', `${T}/scheduling/labor-report`],
  ['POST', '/api/v1/partner/extract'],
  ['POST', '/api/partner/extract-invoice'],
  ['POST', '/api/partner/extract-receipt'],
  ['GET', '/api/partner/usage'],
];

const doc = loadOpenApi();
const operations = contractPaths().map(({ method, path }) => ({ method, path, op: doc.paths[path][method.toLowerCase()] }));

const uuid = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

describe('the OpenAPI document', () => {
  test('is a valid OpenAPI 3.1 description with info.version 2.3.4', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('2.3.4');
    expect(doc.info.title).toBe('Partner Document Extraction and Back-Office API');
  });

  test.each(CONTRACT_OPERATIONS)('documents %s %s', (method, path) => {
    expect(contractPaths()).toContainEqual({ method, path });
  });

  test('documents nothing beyond the contract list under /api', () => {
    const listed = new Set(CONTRACT_OPERATIONS.map(([m, p]) => `${m} ${p}`));
    expect(
      contractPaths()
        .map(({ method, path }) => `${method} ${path}`)
        .filter((k) => !listed.has(k)),
    ).toEqual([]);
  });

  test('operationIds are present and unique (webhooks included)', () => {
    const ids = [
      ...operations.map((o) => o.op.operationId),
      ...Object.values<Record<string, any>>(doc.webhooks ?? {}).flatMap((item) => Object.values<any>(item).map((op) => op.operationId)),
    ];
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.each(operations.map((o) => [o.method, o.path, o.op] as const))('%s %s has a summary, security, 401, 403 and 429', (_m, path, op) => {
    expect(op.summary).toBeTruthy();
    expect(Array.isArray(op.security) && op.security.length > 0).toBe(true);
    const scheme = path.startsWith('/api/partner/') || path === '/api/v1/partner/extract' ? 'bearer' : 'apiKey';
    expect(Object.keys(op.security[0])).toEqual([scheme]);
    for (const status of ['401', '403', '429']) expect(op.responses).toHaveProperty(status);
  });

  test('operations with a path id document 404', () => {
    for (const { method, path, op } of operations) {
      if (path.includes('{')) expect(op.responses, `${method} ${path}`).toHaveProperty('404');
    }
  });

  test('v1 errors use Error, legacy errors use LegacyError', () => {
    const v1 = doc.components.responses.Unauthorized.content['application/json'].schema.$ref;
    const legacy = doc.components.responses.LegacyUnauthorized.content['application/json'].schema.$ref;
    expect(v1).toBe('#/components/schemas/Error');
    expect(legacy).toBe('#/components/schemas/LegacyError');
    for (const { path, op } of operations) {
      const ref: string = op.responses['401'].$ref;
      expect(ref).toBe(path.startsWith('/api/partner/') ? '#/components/responses/LegacyUnauthorized' : '#/components/responses/Unauthorized');
    }
  });

  test('names the 19 cost categories and the 15 tax categories', () => {
    expect(doc.components.schemas.CostCategory.enum).toHaveLength(19);
    expect(doc.components.schemas.CostCategory.enum).toEqual(expect.arrayContaining(['food_cost', 'supply_cost', 'equipment']));
    expect(doc.components.schemas.TaxCategory.enum).toHaveLength(15);
    expect(doc.components.schemas.TaxCategory.enum).toEqual(expect.arrayContaining(['Meals', 'Supplies', 'Travel']));
  });

  test('describes one outgoing webhook per event kind with the Standard Webhooks headers', () => {
    const kinds = doc.components.schemas.WebhookEventType.enum;
    expect(Object.keys(doc.webhooks).sort()).toEqual([...kinds].sort());
    for (const item of Object.values<any>(doc.webhooks)) {
      const headers = item.post.parameters.map((p: { $ref: string }) => doc.components.parameters[p.$ref.split('/').pop()!].name);
      expect(headers).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    }
  });
});

describe('assertMatchesContract', () => {
  const vendor = { id: uuid, name: 'Sysco', normalizedName: 'sysco', invoiceCount: 3, totalSpent: 1234.5 };

  test('accepts a documented body', () => {
    expect(() => assertMatchesContract({ method: 'GET', url: '/api/v1/partner/vendors', status: 200, body: { vendors: [] } })).not.toThrow();
    expect(() =>
      assertMatchesContract({
        method: 'get',
        url: 'http://127.0.0.1:1234/api/v1/partner/vendors?limit=5',
        status: 200,
        body: { vendors: [vendor] },
        contentType: 'application/json; charset=utf-8',
      }),
    ).not.toThrow();
  });

  test('rejects a body missing required fields, naming method, URL, status and the failing path', () => {
    expect(() => assertMatchesContract({ method: 'GET', url: '/api/v1/partner/vendors', status: 200, body: { vendors: [{ id: 'x' }] } })).toThrow(
      /GET \/api\/v1\/partner\/vendors → 200[\s\S]*\/vendors\/0 must have required property 'name'[\s\S]*\/vendors\/0\/id must match format "uuid"/,
    );
  });

  test('rejects an undocumented status', () => {
    expect(() => assertMatchesContract({ method: 'GET', url: '/api/v1/partner/vendors', status: 418, body: { error: 'teapot' } })).toThrow(
      /GET \/api\/v1\/partner\/vendors → 418: status 418 is not documented/,
    );
  });

  test('rejects an unknown path and a method the path does not have', () => {
    expect(() => assertMatchesContract({ method: 'GET', url: '/api/v1/partner/nope', status: 200, body: {} })).toThrow(/no operation/);
    expect(() => assertMatchesContract({ method: 'DELETE', url: '/api/v1/partner/vendors', status: 200, body: {} })).toThrow(/no operation/);
  });

  test('v1 error bodies: 401 {error} passes; 429 needs retryAfter; legacy errors need success:false', () => {
    expect(() => assertMatchesContract({ method: 'GET', url: '/api/v1/partner/vendors', status: 401, body: { error: 'missing API key' } })).not.toThrow();
    expect(() => assertMatchesContract({ method: 'GET', url: '/api/v1/partner/vendors', status: 429, body: { error: 'x' } })).toThrow(
      /must have required property 'retryAfter'/,
    );
    expect(() =>
      assertMatchesContract({ method: 'GET', url: '/api/v1/partner/vendors', status: 429, body: { error: 'slow down', retryAfter: 12 } }),
    ).not.toThrow();
    expect(() => assertMatchesContract({ method: 'GET', url: '/api/partner/usage', status: 401, body: { error: 'x' } })).toThrow(/success/);
    expect(() => assertMatchesContract({ method: 'GET', url: '/api/partner/usage', status: 401, body: { success: false, error: 'x' } })).not.toThrow();
  });

  test('a 404 must say "… not found"', () => {
    const url = `/api/v1/partner/invoices/${uuid}`;
    expect(() => assertMatchesContract({ method: 'GET', url, status: 404, body: { error: 'invoice not found' } })).not.toThrow();
    expect(() => assertMatchesContract({ method: 'GET', url, status: 404, body: { error: 'nope' } })).toThrow(/must match pattern/);
  });

  test('rejects a non-JSON body where JSON is documented', () => {
    expect(() => assertMatchesContract({ method: 'GET', url: '/api/v1/partner/vendors', status: 200, body: 'ok', contentType: 'text/plain' })).toThrow(
      /content-type text\/plain/,
    );
  });

  test('prefers literal segments and resolves nested $refs (allOf, LineItem inside ExtractedInvoice)', () => {
    const invoice = {
      id: uuid,
      vendorName: 'Sysco',
      invoiceNumber: null,
      invoiceDate: '2026-01-31',
      dueDate: null,
      subtotal: 100,
      tax: 8.5,
      total: 108.5,
      currency: 'USD',
      extractionConfidence: 97.5,
      status: 'processed',
      lineItems: [{ description: 'Romaine', sku: null, quantity: 2, unit: null, unitPrice: 50, total: 100, costCategory: 'food_cost' }],
      costCategories: ['food_cost'],
      createdAt: '2026-02-01T10:00:00.000Z',
    };
    // /invoices/upload (POST) is chosen over /invoices/{id}; its 201 needs splitInvoices on top of ExtractedInvoice
    expect(() =>
      assertMatchesContract({ method: 'POST', url: '/api/v1/partner/invoices/upload', status: 201, body: { ...invoice, splitInvoices: [] } }),
    ).not.toThrow();
    expect(() => assertMatchesContract({ method: 'POST', url: '/api/v1/partner/invoices/upload', status: 201, body: invoice })).toThrow(/splitInvoices/);
    const badLine = { ...invoice, lineItems: [{ ...invoice.lineItems[0], costCategory: 'snacks' }], splitInvoices: [] };
    expect(() => assertMatchesContract({ method: 'POST', url: '/api/v1/partner/invoices/upload', status: 201, body: badLine })).toThrow(
      /\/lineItems\/0\/costCategory must be equal to one of the allowed values/,
    );
    expect(() => assertMatchesContract({ method: 'GET', url: `/api/v1/partner/invoices/${uuid}`, status: 200, body: invoice })).not.toThrow();
    expect(() => assertMatchesContract({ method: 'GET', url: `/api/v1/partner/invoices/${uuid}`, status: 200, body: { ...invoice, total: '108.50' } })).toThrow(
      /\/total must be number,null/,
    );
  });

  test('checks the decided shapes of the legacy usage and adapter responses', () => {
    const usage = {
      success: true,
      plan: 'enterprise',
      period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
      usage: { requests: 12, documents: 7 },
      limits: { perMinute: 300, perMonth: null },
      remaining: { perMinute: 299, perMonth: null },
    };
    expect(() => assertMatchesContract({ method: 'GET', url: '/api/partner/usage', status: 200, body: usage })).not.toThrow();
    expect(() => assertMatchesContract({ method: 'GET', url: '/api/partner/usage', status: 200, body: { ...usage, remaining: 5 } })).toThrow(
      /\/remaining must be object/,
    );
    const adapter = { correlation_id: 'abc', cache_hit: true, profile: 'default', data: { anything: 1 } };
    expect(() => assertMatchesContract({ method: 'POST', url: '/api/v1/partner/extract', status: 200, body: adapter })).not.toThrow();
    expect(() =>
      assertMatchesContract({ method: 'POST', url: '/api/v1/partner/extract', status: 409, body: { error: 'correlation_id reused with a different body' } }),
    ).not.toThrow();
  });
});
