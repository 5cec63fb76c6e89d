import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gql, gqlData, http, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
let stranger: { partnerId: string; tenantId: string; apiKey: string };
let storeA: string;
let storeB: string;
const item = {} as Record<'tomatoes' | 'flour' | 'cups', string>;
const key = (apiKey = partner.apiKey) => ({ 'x-api-key': apiKey });
const base = () => `/api/v1/partner/tenants/${partner.tenantId}`;

const mutate = <T = any>(query: string, variables: Record<string, unknown>) => gqlData<T>(t.base, partner.apiKey, query, variables);

const ITEM = `mutation($i: CreateInventoryItemInput!) { createInventoryItem(input: $i) { id unit packSizes { unit quantity } } }`;
const count = (json: unknown, apiKey?: string) => http(t.base, 'POST', `${base()}/inventory/counts`, { headers: key(apiKey), json });

beforeAll(async () => {
  t = await startTestApp();
  partner = await t.createPartner();
  stranger = await t.createPartner();
  await sql`update tenants set max_locations = 2 where id = ${partner.tenantId}`.execute(t.database.db);
  const a = await http(t.base, 'POST', `${base()}/stores`, { headers: key(), json: { externalStoreId: 'A-1', name: 'Uptown', timezone: 'America/New_York' } });
  const b = await http(t.base, 'POST', `${base()}/stores`, { headers: key(), json: { externalStoreId: 'B-2' } });
  storeA = a.body.data.store.id;
  storeB = b.body.data.store.id;
  item.tomatoes = (
    await mutate(ITEM, {
      i: {
        name: 'Roma tomatoes',
        sku: 'TOM-1',
        category: 'food_cost',
        unit: 'each',
        defaultCost: 0.5,
        packSizes: [{ unit: 'Cases', quantity: 24 }],
        parLevel: 96,
      },
    })
  ).createInventoryItem.id;
  item.flour = (
    await mutate(ITEM, { i: { name: 'Flour', category: 'food_cost', unit: 'lbs', defaultCost: 0.8, packSizes: [{ unit: 'bag', quantity: 50 }] } })
  ).createInventoryItem.id;
  item.cups = (
    await mutate(ITEM, {
      i: { storeId: storeB, name: '12 oz cups', category: 'paper_packaging', unit: 'each', defaultCost: 0.07, packSizes: [{ unit: 'sleeve', quantity: 50 }] },
    })
  ).createInventoryItem.id;
});
afterAll(() => t?.close());

describe('POST /tenants/{tenantId}/stores', () => {
  test('201 with the store; the same externalStoreId again is 200 with the same store; different details are 409', async () => {
    const again = await http(t.base, 'POST', `${base()}/stores`, { headers: key(), json: { externalStoreId: 'A-1', name: 'Uptown' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      success: true,
      data: { store: { id: storeA, externalStoreId: 'A-1', name: 'Uptown', timezone: 'America/New_York', createdAt: expect.any(String) } },
    });
    const renamed = await http(t.base, 'POST', `${base()}/stores`, { headers: key(), json: { externalStoreId: 'A-1', name: 'Downtown' } });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error).toMatch(/already exists with name "Uptown"/);
  });

  test('maxLocations is enforced with a message naming the limit', async () => {
    const res = await http(t.base, 'POST', `${base()}/stores`, { headers: key(), json: { externalStoreId: 'C-3' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('tenant allows at most 2 locations (maxLocations) and has 2');
    const other = await http(t.base, 'POST', `/api/v1/partner/tenants/${stranger.tenantId}/stores`, {
      headers: key(stranger.apiKey),
      json: { externalStoreId: 'X' },
    });
    expect(other.status).toBe(201);
    const second = await http(t.base, 'POST', `/api/v1/partner/tenants/${stranger.tenantId}/stores`, {
      headers: key(stranger.apiKey),
      json: { externalStoreId: 'Y' },
    });
    expect(second.body.error).toBe('tenant allows at most 1 location (maxLocations) and has 1');
  });

  test.each([
    [{}, /externalStoreId is required/],
    [{ externalStoreId: '  ' }, /externalStoreId must not be empty/],
    [{ externalStoreId: 'Z', timezone: 'Mars/Olympus' }, /timezone must be an IANA time zone/],
    [{ externalStoreId: 7 }, /externalStoreId/],
  ])('%j → 400', async (json, message) => {
    const res = await http(t.base, 'POST', `${base()}/stores`, { headers: key(), json });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  test('needs tenants:write; a foreign tenant is 404', async () => {
    const { apiKey } = await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['inventory:write'] });
    const res = await http(t.base, 'POST', `${base()}/stores`, { headers: key(apiKey), json: { externalStoreId: 'A-1' } });
    expect(res.status).toBe(403);
    const foreign = await http(t.base, 'POST', `/api/v1/partner/tenants/${stranger.tenantId}/stores`, { headers: key(), json: { externalStoreId: 'A-1' } });
    expect(foreign.status).toBe(404);
  });
});

describe('inventory', () => {
  test('items: units are normalised, store-only items show only at their store', async () => {
    const all = await http(t.base, 'GET', `${base()}/inventory/items`, { headers: key() });
    expect(all.status).toBe(200);
    expect(all.body.data.items.map((i: { name: string }) => i.name)).toEqual(['12 oz cups', 'Flour', 'Roma tomatoes']);
    const tomatoes = all.body.data.items.find((i: { id: string }) => i.id === item.tomatoes);
    expect(tomatoes).toMatchObject({
      sku: 'TOM-1',
      category: 'food_cost',
      unit: 'each',
      defaultCost: 0.5,
      parLevel: 96,
      packSizes: [{ unit: 'case', quantity: 24 }],
      storeId: null,
      active: true,
    });
    expect(all.body.data.items.find((i: { id: string }) => i.id === item.flour).unit).toBe('lb');
    const atA = await http(t.base, 'GET', `${base()}/inventory/items?storeId=${storeA}`, { headers: key() });
    expect(atA.body.data.items.map((i: { name: string }) => i.name)).toEqual(['Flour', 'Roma tomatoes']);
  });

  test('a count in cases of an item priced per each is converted and valued; the latest count wins', async () => {
    const first = await count({ storeId: storeA, itemId: item.tomatoes, quantity: 2, unit: 'case', notes: 'walk-in' });
    expect(first.status).toBe(201);
    expect(first.body.data.count).toMatchObject({
      quantity: 2,
      unit: 'case',
      baseQuantity: 48,
      unitCost: 0.5,
      value: 24,
      notes: 'walk-in',
      item: { id: item.tomatoes, unit: 'each' },
    });
    const later = await count({ storeId: storeA, itemId: item.tomatoes, quantity: 3.5, unit: 'cases' });
    expect(later.body.data.count).toMatchObject({ unit: 'case', baseQuantity: 84, value: 42 });
    // a count dated earlier, recorded afterwards, does not replace the latest one
    await mutate(`mutation($i: RecordInventoryCountInput!) { recordInventoryCount(input: $i) { id } }`, {
      i: { storeId: storeA, itemId: item.tomatoes, quantity: 1, countedAt: '2026-01-01T12:00:00Z' },
    });
    // 20 kg of flour costed per lb: 44.0925 lb × 0.80
    const flour = await count({ storeId: storeA, itemId: item.flour, quantity: 20, unit: 'kg' });
    expect(flour.body.data.count.baseQuantity).toBeCloseTo(44.0925, 4);
    expect(flour.body.data.count.value).toBe(35.27);

    const counts = await http(t.base, 'GET', `${base()}/inventory/counts/${storeA}`, { headers: key() });
    expect(counts.status).toBe(200);
    const byItem = Object.fromEntries(counts.body.data.counts.map((c: { itemId: string }) => [c.itemId, c]));
    expect(counts.body.data.counts).toHaveLength(2);
    expect(byItem[item.tomatoes]).toMatchObject({
      id: later.body.data.count.id,
      baseQuantity: 84,
      value: 42,
      item: { name: 'Roma tomatoes', defaultCost: 0.5 },
    });

    const summary = await http(t.base, 'GET', `${base()}/inventory/summary?storeId=${storeA}`, { headers: key() });
    expect(summary.body).toEqual({ success: true, data: { itemCount: 2, lastCountedAt: flour.body.data.count.countedAt, totalInventoryValue: 77.27 } });
  });

  test('summary without storeId covers every store of the tenant', async () => {
    const cups = await count({ storeId: storeB, itemId: item.cups, quantity: 10, unit: 'sleeve' }); // 500 × 0.07
    expect(cups.body.data.count.value).toBe(35);
    const summary = await http(t.base, 'GET', `${base()}/inventory/summary`, { headers: key() });
    expect(summary.body.data).toEqual({ itemCount: 3, lastCountedAt: cups.body.data.count.countedAt, totalInventoryValue: 112.27 });
    const empty = await http(t.base, 'GET', `/api/v1/partner/tenants/${stranger.tenantId}/inventory/summary`, { headers: key(stranger.apiKey) });
    expect(empty.body.data).toEqual({ itemCount: 0, lastCountedAt: null, totalInventoryValue: 0 });
  });

  test.each([
    [{ itemId: 'TOM', quantity: 1, unit: 'bottle' }, /"bottle" cannot be converted to this item's unit "each"; count in each, case \(24 each\), dozen/],
    [{ itemId: 'FLOUR', quantity: 1, unit: 'gal' }, /"gal" cannot be converted to this item's unit "lb"/],
    [{ itemId: 'TOM', quantity: -1 }, /quantity must be a number from 0/],
    [{ itemId: 'TOM', quantity: 'ten' }, /^quantity must be a number \(got "ten"\)$/],
    [{ itemId: 'TOM' }, /quantity is required/],
    [{ itemId: 'CUPS', quantity: 1 }, /itemId is an item of another store/],
  ])('a bad count %j → 400 naming the problem', async (body, message) => {
    const itemId = { TOM: item.tomatoes, FLOUR: item.flour, CUPS: item.cups }[body.itemId as string];
    const res = await count({ storeId: storeA, ...body, itemId });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  test('pack sizes that contradict fixed factors are refused when the item is saved', async () => {
    const res = await gql(t.base, partner.apiKey, ITEM, {
      i: { name: 'Milk', category: 'nonalcoholic_beverage_cost', unit: 'gal', packSizes: [{ unit: 'qt', quantity: 3 }] },
    });
    expect(res.body.errors?.[0]?.message).toMatch(/"qt" converts to gal by a fixed factor \(0.25\)/);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  test('an inactive item is 409; reactivated, it counts again', async () => {
    await mutate(`mutation($id: UUID!) { updateInventoryItem(id: $id, input: { active: false }) { active } }`, { id: item.flour });
    const res = await count({ storeId: storeA, itemId: item.flour, quantity: 1 });
    expect(res.status).toBe(409);
    const items = await http(t.base, 'GET', `${base()}/inventory/items`, { headers: key() });
    expect(items.body.data.items.map((i: { name: string }) => i.name)).not.toContain('Flour');
    await mutate(`mutation($id: UUID!) { updateInventoryItem(id: $id, input: { active: true }) { active } }`, { id: item.flour });
    expect((await count({ storeId: storeA, itemId: item.flour, quantity: 1, unit: 'bag' })).body.data.count.baseQuantity).toBe(50);
  });

  test('an update may send null for a field it leaves unchanged (the SDL allows it): the item keeps its name and unit', async () => {
    const updated = await mutate<{ updateInventoryItem: { name: string; unit: string } }>(
      `mutation($id: UUID!) { updateInventoryItem(id: $id, input: { name: null, unit: null, category: null }) { name unit } }`,
      { id: item.flour },
    );
    expect(updated.updateInventoryItem).toEqual({ name: 'Flour', unit: expect.any(String) });
  });

  test('scopes: GET needs inventory:read, POST inventory:write', async () => {
    const readOnly = (await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['inventory:read'] })).apiKey;
    const scheduling = (await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['scheduling:read', 'scheduling:write'] })).apiKey;
    expect((await http(t.base, 'GET', `${base()}/inventory/items`, { headers: key(readOnly) })).status).toBe(200);
    const post = await count({ storeId: storeA, itemId: item.tomatoes, quantity: 1 }, readOnly);
    expect(post.status).toBe(403);
    expect(post.body.error).toMatch(/inventory:write/);
    for (const path of ['inventory/items', `inventory/counts/${storeA}`, 'inventory/summary']) {
      expect((await http(t.base, 'GET', `${base()}/${path}`, { headers: key(scheduling) })).status).toBe(403);
    }
    expect((await http(t.base, 'GET', `${base()}/inventory/items`)).status).toBe(401);
  });

  test("another partner's tenant or store is 404, and its data never shows", async () => {
    const foreign = `/api/v1/partner/tenants/${stranger.tenantId}`;
    expect((await http(t.base, 'GET', `${foreign}/inventory/items`, { headers: key() })).status).toBe(404);
    expect((await http(t.base, 'GET', `${foreign}/inventory/summary`, { headers: key() })).status).toBe(404);
    const strangerStore = (await t.app.services.tenants.storesOfTenants([stranger.tenantId]))[0]![0]!.id;
    const res = await http(t.base, 'GET', `${base()}/inventory/counts/${strangerStore}`, { headers: key() });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('store not found');
    expect((await http(t.base, 'GET', `${base()}/inventory/summary?storeId=${strangerStore}`, { headers: key() })).status).toBe(404);
    expect((await count({ storeId: strangerStore, itemId: item.tomatoes, quantity: 1 })).status).toBe(404);
    expect((await http(t.base, 'GET', `${base()}/inventory/counts/not-a-uuid`, { headers: key() })).status).toBe(400);
  });

  test('a quantity is kept to 4 decimal places, and the converted amount is computed from what is kept', async () => {
    const fine = await count({ storeId: storeA, itemId: item.tomatoes, quantity: 1.23456 });
    expect(fine.status).toBe(201);
    expect(fine.body.data.count).toMatchObject({ quantity: 1.2346, unit: 'each', baseQuantity: 1.2346 });
    const inCases = await count({ storeId: storeA, itemId: item.tomatoes, quantity: 0.00004, unit: 'case' });
    expect(inCases.body.data.count).toMatchObject({ quantity: 0, baseQuantity: 0, value: 0 });
    const kept = await http(t.base, 'GET', `${base()}/inventory/counts/${storeA}`, { headers: key() });
    expect(kept.body.data.counts.find((c: { id: string }) => c.id === inCases.body.data.count.id)).toMatchObject({ quantity: 0, baseQuantity: 0 });
  });
});
