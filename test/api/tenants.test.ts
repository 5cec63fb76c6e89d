import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { equipmentInvoice, makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gql, http, onTestServer, startTestApp, type TestApp } from '../helpers/app.ts';

let clock = new Date('2026-11-20T10:00:00Z');
let t: TestApp;
let embed: { partnerId: string; tenantId: string; apiKey: string };
let tenantId: string;
let setupUrl: string;
const queries: string[] = [];
const key = (apiKey = embed.apiKey) => ({ 'x-api-key': apiKey });
/** The app's links name PUBLIC_URL (http://localhost:<port>); tests call 127.0.0.1 directly. */
const local = (url: string) => onTestServer(t.base, url);

async function embedAuth(body: Record<string, unknown>, tenant = tenantId, apiKey = embed.apiKey) {
  return http(t.base, 'POST', `/api/v1/partner/tenants/${tenant}/embed/auth`, { headers: key(apiKey), json: body });
}

beforeAll(async () => {
  t = await startTestApp({ now: () => clock, onQuery: (q) => queries.push(q) });
  embed = await t.createPartner({ tier: 'embed' });
  const res = await http(t.base, 'POST', '/api/v1/partner/tenants', {
    headers: key(),
    json: { name: 'Bistro Uno', email: 'Owner@Bistro.example', maxLocations: 2, ssoProvider: 'oidc' },
  });
  expect(res.status).toBe(201);
  ({ tenantId, setupUrl } = res.body);
  await http(t.base, 'POST', `/api/v1/partner/tenants/${tenantId}/stores`, { headers: key(), json: { externalStoreId: 'uno-1', name: 'Uno Downtown' } });
});
afterAll(() => t?.close());

describe('POST /api/v1/partner/tenants', () => {
  // The setup link itself: setup-links.test.ts.
  test('201 {tenantId, setupUrl} for Platform Embed; the tenant is listed with its stores', async () => {
    expect(setupUrl).toMatch(/^http:\/\/localhost:\d+\/setup\/[A-Za-z0-9_-]{43}$/);
    const q = await gql(
      t.base,
      embed.apiKey,
      `query($id: UUID!) { tenant(id: $id) { id name email maxLocations ssoProvider isDefault stores { externalStoreId } users { email } } tenants(first: 10) { nodes { id } } }`,
      { id: tenantId },
    );
    expect(q.body.data.tenant).toEqual({
      id: tenantId,
      name: 'Bistro Uno',
      email: 'owner@bistro.example',
      maxLocations: 2,
      ssoProvider: 'oidc',
      isDefault: false,
      stores: [{ externalStoreId: 'uno-1' }],
      users: [],
    });
    expect(q.body.data.tenants.nodes.map((n: { id: string }) => n.id)).toEqual([tenantId, embed.tenantId]);
  });

  test('another tier is 403; a missing scope is 403; bad input is 400', async () => {
    const storage = await t.createPartner({ tier: 'storage' });
    const res = await http(t.base, 'POST', '/api/v1/partner/tenants', { headers: key(storage.apiKey), json: { name: 'X', email: 'x@example.com' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('this operation requires the Platform Embed tier (partner is on Extraction + Storage)');
    const readOnly = (await t.app.services.partners.createApiKey({ partnerId: embed.partnerId, scopes: ['read'] })).apiKey;
    expect((await http(t.base, 'POST', '/api/v1/partner/tenants', { headers: key(readOnly), json: { name: 'X', email: 'x@example.com' } })).status).toBe(403);
    for (const [json, message] of [
      [{ email: 'x@example.com' }, /name is required/],
      [{ name: 'X', email: 'not-an-email' }, /email/],
      [{ name: 'X', email: 'x@example.com', maxLocations: 0 }, /maxLocations must be a whole number from 1/],
      [{ name: 'X', email: 'x@example.com', ssoProvider: 'kerberos' }, /ssoProvider/],
    ] as const) {
      const bad = await http(t.base, 'POST', '/api/v1/partner/tenants', { headers: key(), json });
      expect(bad.status, JSON.stringify(json)).toBe(400);
      expect(bad.body.error).toMatch(message);
    }
  });
});

describe('embed sign-in', () => {
  test('provisions the user, returns a one-time URL; opening it sets a secure session cookie and redirects to the page', async () => {
    const res = await embedAuth({ email: 'Maria@Bistro.example', name: 'Maria Lopez', externalStoreId: 'uno-1', page: 'invoices' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { embedToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), embedUrl: expect.stringMatching(/\/embed\/session\?token=/) },
    });
    const open = await fetch(local(res.body.data.embedUrl), { redirect: 'manual' });
    expect(open.status).toBe(303);
    expect(open.headers.get('location')).toBe('/app/invoices');
    const cookie = open.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^pa_session=[A-Za-z0-9_-]+; Path=\/; Max-Age=43200; HttpOnly; Secure; SameSite=None/);

    // the session reads its own tenant through GraphQL, and nothing of the partner's other tenants
    const session = cookie.split(';')[0]!;
    const viewer = await fetch(`${t.base}/graphql`, {
      method: 'POST',
      headers: { cookie: session, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { tenants { id } } invoices(first: 5) { nodes { id } } }' }),
    });
    expect(((await viewer.json()) as { data: unknown }).data).toEqual({ viewer: { tenants: [{ id: tenantId }] }, invoices: { nodes: [] } });
    const foreign = await fetch(`${t.base}/graphql`, {
      method: 'POST',
      headers: { cookie: session, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ vendors(tenantId: "${embed.tenantId}") { id } }` }),
    });
    expect(((await foreign.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('NOT_FOUND');
    const usage = await fetch(`${t.base}/graphql`, {
      method: 'POST',
      headers: { cookie: session, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ usage { amount } }' }),
    });
    expect(((await usage.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toBe('this operation needs an API key');

    // the same user again: reused, its role and store updated
    await embedAuth({ email: 'maria@bistro.example', name: 'Maria L.', role: 'executive', externalStoreId: 'uno-1' });
    const users = await gql(t.base, embed.apiKey, `query($id: UUID!) { tenant(id: $id) { users { email name role storeId } } }`, { id: tenantId });
    expect(users.body.data.tenant.users).toEqual([{ email: 'maria@bistro.example', name: 'Maria L.', role: 'executive', storeId: expect.any(String) }]);
  });

  test('the URL works once: a second opening is refused with a clear page', async () => {
    const { embedUrl } = (await embedAuth({ email: 'a@bistro.example', name: 'A', externalStoreId: 'uno-1' })).body.data;
    expect((await fetch(local(embedUrl), { redirect: 'manual' })).status).toBe(303);
    const again = await fetch(local(embedUrl), { redirect: 'manual' });
    expect(again.status).toBe(410);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toContain('This sign-in link has already been used');
  });

  test('two concurrent redemptions: exactly one wins', async () => {
    const { embedUrl } = (await embedAuth({ email: 'b@bistro.example', name: 'B', externalStoreId: 'uno-1' })).body.data;
    const results = await Promise.all(Array.from({ length: 8 }, () => fetch(local(embedUrl), { redirect: 'manual' })));
    expect(results.map((r) => r.status).sort()).toEqual([303, 410, 410, 410, 410, 410, 410, 410]);
  });

  test('after 5 minutes the URL is refused (clock injected)', async () => {
    const { embedUrl } = (await embedAuth({ email: 'c@bistro.example', name: 'C', externalStoreId: 'uno-1' })).body.data;
    const issued = clock;
    clock = new Date(issued.getTime() + 5 * 60_000 + 1_000);
    try {
      const late = await fetch(local(embedUrl), { redirect: 'manual' });
      expect(late.status).toBe(410);
      expect(await late.text()).toContain('expired');
    } finally {
      clock = issued;
    }
  });

  test('unknown externalStoreId → 404 naming it; bad role or page → 400; other tiers → 403; foreign tenant → 404', async () => {
    const unknown = await embedAuth({ email: 'd@bistro.example', name: 'D', externalStoreId: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/^store with externalStoreId "nope" .* not found$/);
    expect((await embedAuth({ email: 'd@bistro.example', name: 'D', externalStoreId: 'uno-1', role: 'chef' })).status).toBe(400);
    expect((await embedAuth({ email: 'd@bistro.example', name: 'D', externalStoreId: 'uno-1', page: 'settings' })).status).toBe(400);
    expect((await embedAuth({ email: 'd@bistro.example', externalStoreId: 'uno-1' })).body.error).toBe('name is required');
    const storage = await t.createPartner({ tier: 'storage' });
    expect((await embedAuth({ email: 'd@bistro.example', name: 'D', externalStoreId: 'uno-1' }, storage.tenantId, storage.apiKey)).status).toBe(403);
    const otherEmbed = await t.createPartner({ tier: 'embed' });
    expect((await embedAuth({ email: 'd@bistro.example', name: 'D', externalStoreId: 'uno-1' }, tenantId, otherEmbed.apiKey)).status).toBe(404);
  });

  test('a store-scoped user sees only their store through the API too; an executive sees every store', async () => {
    const second = await http(t.base, 'POST', `/api/v1/partner/tenants/${tenantId}/stores`, { headers: key(), json: { externalStoreId: 'uno-2' } });
    const stores = {
      one: (await gql(t.base, embed.apiKey, `{ stores(tenantId: "${tenantId}") { id externalStoreId } }`)).body.data.stores.find(
        (s: { externalStoreId: string }) => s.externalStoreId === 'uno-1',
      ).id,
      two: second.body.data.store.id,
    };
    const upload = async (pdf: Buffer, storeId: string) => {
      const fd = new FormData();
      fd.append('tenantId', tenantId);
      fd.append('storeId', storeId);
      fd.append('file', new Blob([pdf]), 'invoice.pdf');
      return (await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: key(), body: fd })).body.id as string;
    };
    const mine = await upload(await makeInvoicePdf(produceInvoice), stores.one);
    const theirs = await upload(await makeInvoicePdf(equipmentInvoice), stores.two);

    const signIn = async (role: string) => {
      const { embedUrl } = (await embedAuth({ email: `${role}@bistro.example`, name: role, role, externalStoreId: 'uno-1' })).body.data;
      return (await fetch(local(embedUrl), { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0]!;
    };
    const asSession = async (cookie: string, query: string) => {
      const res = await fetch(`${t.base}/graphql`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      return (await res.json()) as { data?: any; errors?: Array<{ extensions: { code: string } }> };
    };
    const manager = await signIn('store_manager');
    expect((await asSession(manager, '{ invoices(first: 10) { nodes { id } } }')).data.invoices.nodes).toEqual([{ id: mine }]);
    expect((await asSession(manager, `{ invoice(id: "${theirs}") { id } }`)).errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    expect((await asSession(manager, `{ inventoryCounts(storeId: "${stores.two}") { id } }`)).errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    expect((await asSession(manager, `{ laborReport { summary { storeId } } }`)).data.laborReport.summary.storeId).toBe(stores.one);

    const executive = await signIn('executive');
    const all = (await asSession(executive, '{ invoices(first: 10) { nodes { id } } }')).data.invoices.nodes.map((n: { id: string }) => n.id);
    expect(all.sort()).toEqual([mine, theirs].sort());
  });
});

describe('tenant ownership', () => {
  const ownershipChecks = () => queries.filter((q) => q.startsWith('select * from "tenants" where "partner_id" = $1 and "id" = $2')).length;
  const items = (tenant: string, apiKey: string) => http(t.base, 'GET', `/api/v1/partner/tenants/${tenant}/inventory/items`, { headers: key(apiKey) });

  test('checked on every request: a foreign tenant is 404 each time, an owned one is read once; an upper-case id is the same tenant', async () => {
    const other = await t.createPartner({ tier: 'embed' });
    queries.length = 0;
    for (let i = 0; i < 3; i++) expect((await items(other.tenantId, embed.apiKey)).status).toBe(404);
    expect(ownershipChecks()).toBe(3); // a refusal is never remembered
    const first = await items(other.tenantId, other.apiKey);
    expect(first.status).toBe(200);
    queries.length = 0;
    const again = await items(other.tenantId, other.apiKey);
    expect(again.body).toEqual(first.body);
    expect(ownershipChecks()).toBe(0); // the partner's tenant does not change partner, and is never deleted
    expect((await items(other.tenantId, embed.apiKey)).status).toBe(404); // still not another partner's
    const upper = await items(other.tenantId.toUpperCase(), other.apiKey);
    expect(upper.status).toBe(200);
    expect(upper.body).toEqual(first.body);
  });
});
