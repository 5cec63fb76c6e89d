import { newDocument } from '../fixtures/new-document.ts';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DeliveredInvoice } from '../../src/extraction/types.ts';
import { gql, gqlData, startTestApp, type TestApp } from '../helpers/app.ts';

// Issue 18, point 8: the API is an Apollo Federation v2 subgraph. Its SDL (read over HTTP, as a router does) composes
// with a second subgraph; `_entities` resolves representations through the request's DataLoaders (SQL statements
// counted) with the tenant rules of the root fields.

let t: TestApp;
const statements: string[] = [];
let partner: { partnerId: string; tenantId: string; apiKey: string };
let other: { partnerId: string; tenantId: string; apiKey: string };
const invoiceIds: string[] = [];
let foreignInvoiceId: string;

const fields = (i: number, vendorName: string): DeliveredInvoice => ({
  vendorName,
  invoiceNumber: `F-${i}`,
  invoiceDate: '2026-11-02',
  dueDate: null,
  subtotal: 10 + i,
  tax: 1,
  total: 11 + i,
  currency: 'USD',
  lineItems: [{ description: 'Chicken thighs', sku: null, quantity: 1, unit: null, unitPrice: 10 + i, total: 10 + i }],
  confidence: 90,
  fieldConfidences: { vendorName: 90, invoiceNumber: 90, invoiceDate: 90, dueDate: 0, total: 90 },
  pages: [1],
  source: 'text',
});

async function seedInvoice(tenantId: string, i: number): Promise<string> {
  const started = await t.app.services.invoices.start(tenantId, newDocument(), null);
  await t.app.services.invoices.complete(started, [fields(i, ['Sysco', 'US Foods', 'Restaurant Depot'][i % 3]!)]);
  return started.id;
}

beforeAll(async () => {
  // AUTH_CACHE_MS=0: every request looks its key up, so the count below is the worst case, not a cache hit.
  t = await startTestApp({ onQuery: (sql) => statements.push(sql), env: { AUTH_CACHE_MS: '0' } });
  partner = await t.createPartner({ tier: 'storage' });
  other = await t.createPartner({ tier: 'storage' });
  for (let i = 0; i < 50; i++) invoiceIds.push(await seedInvoice(partner.tenantId, i));
  foreignInvoiceId = await seedInvoice(other.tenantId, 99);
}, 120_000);
afterAll(() => t?.close());

const ENTITIES = `query($representations: [_Any!]!) { _entities(representations: $representations) {
  __typename
  ... on Invoice { id vendorName total status }
  ... on Vendor { id name invoiceCount }
  ... on Tenant { id name }
  ... on Store { id externalStoreId }
  ... on InventoryItem { id name }
  ... on Employee { id name }
  ... on Receipt { id merchantName }
} }`;
const entities = (apiKey: string, representations: unknown[]) => gql(t.base, apiKey, ENTITIES, { representations });

describe('Apollo Federation v2 subgraph', () => {
  test('_service.sdl links federation v2 and keys the seven entity types by id', async () => {
    const { _service } = await gqlData<{ _service: { sdl: string } }>(t.base, partner.apiKey, '{ _service { sdl } }');
    expect(_service.sdl).toMatch(/extend schema\s+@link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.3", import: \["@key"\]\)/);
    for (const type of ['Invoice', 'Receipt', 'Vendor', 'Tenant', 'Store', 'InventoryItem', 'Employee']) {
      expect(_service.sdl).toMatch(new RegExp(`type ${type} implements Node\\s+@key\\(fields: "id"\\)`));
    }
  });

  test('composes with a second subgraph; the supergraph joins Invoice from both', async () => {
    const { _service } = await gqlData<{ _service: { sdl: string } }>(t.base, partner.apiKey, '{ _service { sdl } }');
    const accounting = parse(`
      extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
      scalar UUID
      type Invoice @key(fields: "id") {
        id: UUID!
        "The ledger account the invoice is booked to."
        ledgerAccount: String
      }
      type Query { ledgerAccounts: [String!]! }
    `);
    const result = composeServices([
      { name: 'partner-api', typeDefs: parse(_service.sdl), url: 'http://127.0.0.1:1/graphql' },
      { name: 'accounting', typeDefs: accounting, url: 'http://127.0.0.1:2/graphql' },
    ]);
    expect(result.errors?.map((e) => e.message)).toBeUndefined();
    const api = result.schema!.toAPISchema().toGraphQLJSSchema();
    const invoice = api.getType('Invoice') as import('graphql').GraphQLObjectType;
    expect(Object.keys(invoice.getFields())).toEqual(expect.arrayContaining(['vendorName', 'total', 'lineItems', 'ledgerAccount']));
    expect(result.supergraphSdl).toMatch(/@join__type\(graph: PARTNER_API, key: "id"\)/);
    expect(result.supergraphSdl).toMatch(/@join__type\(graph: ACCOUNTING, key: "id"\)/);
    expect(Object.keys(api.getQueryType()!.getFields())).toEqual(expect.arrayContaining(['invoice', 'vendors', 'ledgerAccounts']));
  });

  test('_entities for 50 invoices: in order, through the loaders, at most 3 SQL statements', async () => {
    const representations = invoiceIds.map((id) => ({ __typename: 'Invoice', id }));
    statements.length = 0;
    const res = await entities(partner.apiKey, representations);
    expect(res.body.errors).toBeUndefined();
    const got = res.body.data!._entities as Array<{ __typename: string; id: string; total: number; status: string }>;
    expect(got.map((e) => e.id)).toEqual(invoiceIds);
    expect(got.every((e) => e.__typename === 'Invoice' && e.status === 'processed')).toBe(true);
    expect(got[7]!.total).toBe(18);
    // The key lookup, the partner's tenants (the loaders' scope) and one batch of invoices; the dispatcher's and the
    // delivery loop's background polls are not the request's.
    const background = /outbox_events|webhook_deliveries|^\s*(begin|commit|rollback)\b/i;
    const counted = statements.filter((s) => !background.test(s));
    console.log(`_entities for 50 invoices: ${counted.length} SQL statements\n${counted.join('\n')}`);
    expect(counted.length, counted.join('\n')).toBeLessThanOrEqual(3);
  });

  test('every entity type resolves; another partner’s entity and unknown ids are null, never leaked', async () => {
    const store = await gqlData<{ createStore: { store: { id: string } } }>(
      t.base,
      partner.apiKey,
      'mutation { createStore(input: { externalStoreId: "fed-1", name: "Federated Diner" }) { store { id } } }',
    );
    const storeId = store.createStore.store.id;
    const item = await gqlData<{ createInventoryItem: { id: string } }>(
      t.base,
      partner.apiKey,
      'mutation($s: UUID) { createInventoryItem(input: { storeId: $s, name: "Romaine", category: food_cost, unit: "case" }) { id } }',
      { s: storeId },
    );
    const employee = await gqlData<{ createEmployee: { id: string } }>(
      t.base,
      partner.apiKey,
      'mutation($s: UUID!) { createEmployee(input: { storeId: $s, name: "Ada Line", hourlyRate: 18 }) { id } }',
      { s: storeId },
    );
    const [invoice] = await t.app.services.invoices.byIds([partner.tenantId], [invoiceIds[0]!]);
    const res = await entities(partner.apiKey, [
      { __typename: 'Invoice', id: invoiceIds[0] },
      { __typename: 'Invoice', id: foreignInvoiceId },
      { __typename: 'Vendor', id: invoice!.vendorId },
      { __typename: 'Tenant', id: partner.tenantId },
      { __typename: 'Tenant', id: other.tenantId },
      { __typename: 'Store', id: storeId },
      { __typename: 'InventoryItem', id: item.createInventoryItem.id },
      { __typename: 'Employee', id: employee.createEmployee.id },
      { __typename: 'Receipt', id: '00000000-0000-4000-8000-000000000000' },
    ]);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!._entities).toEqual([
      { __typename: 'Invoice', id: invoiceIds[0], vendorName: 'Sysco', total: 11, status: 'processed' },
      null,
      { __typename: 'Vendor', id: invoice!.vendorId, name: 'Sysco', invoiceCount: 17 },
      { __typename: 'Tenant', id: partner.tenantId, name: expect.any(String) },
      null,
      { __typename: 'Store', id: storeId, externalStoreId: 'fed-1' },
      { __typename: 'InventoryItem', id: item.createInventoryItem.id, name: 'Romaine' },
      { __typename: 'Employee', id: employee.createEmployee.id, name: 'Ada Line' },
      null,
    ]);
    // The other partner sees its own invoice and not ours.
    const theirs = await entities(other.apiKey, [
      { __typename: 'Invoice', id: foreignInvoiceId },
      { __typename: 'Invoice', id: invoiceIds[0] },
    ]);
    expect(theirs.body.data!._entities.map((e: { id: string } | null) => e?.id ?? null)).toEqual([foreignInvoiceId, null]);
  });

  test('scopes still apply; malformed representations are BAD_USER_INPUT, not server errors', async () => {
    const { apiKey } = await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['read'] });
    const noScope = await entities(apiKey, [{ __typename: 'Invoice', id: invoiceIds[0] }]);
    expect(noScope.body.data?._entities).toEqual([null]);
    expect(noScope.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    for (const bad of [{ __typename: 'Nope', id: invoiceIds[0] }, { __typename: 'Invoice', id: 'not-a-uuid' }, 'Invoice', { id: invoiceIds[0] }]) {
      const res = await entities(partner.apiKey, [bad]);
      expect(res.status, JSON.stringify(bad)).toBe(200);
      expect(res.body.errors?.[0]?.extensions?.code, JSON.stringify(bad)).toBe('BAD_USER_INPUT');
      expect(res.body.errors?.[0]?.message).toMatch(/representations\[0\]/);
    }
    // Each representation counts toward the operation cost: 1,000 invoices × (1 + 10 line items) is over 10,000.
    const many = await gql(t.base, partner.apiKey, 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Invoice { lineItems { total } } } }', {
      r: Array.from({ length: 1_000 }, () => ({ __typename: 'Invoice', id: invoiceIds[0] })),
    });
    expect(many.status).toBe(400);
    expect(many.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });
});
