import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type InvoiceSpec, makeInvoicePdf } from '../fixtures/invoice-documents.ts';
import { gql, gqlData, gqlUpload, http, startTestApp, type TestApp } from '../helpers/app.ts';

// GraphQL profitAndLoss on a hand-computed fixture: Sunday 2026-03-01 … Saturday 03-14 (two whole weeks), the app's
// clock Thursday 03-12 18:00 UTC. Store North (America/Chicago: UTC−6, from Sunday 03-08 UTC−5) and store South (UTC).
//
// Sales: North 03-01 … 03-07 $500 a day (3,500), 03-08 … 03-14 $700 a day (4,900); South 03-02 $1,000, 03-09 $1,100.
//   Total 10,500 (week 1: 4,500, week 2: 6,000); 02-28 and 03-15 lie outside.
// Invoices (line items before tax; 5% tax on top is no cost of goods):
//   North 03-03 produce: romaine 4 × 30 + tomatoes 3 × 25 = 195 food.
//   North 03-10 beverages: cabernet 2 × 120 = 240 wine, IPA keg 1 × 180 = 180 beer, napkins 2 × 40 = 80 paper (other).
//   South 03-05 seafood: salmon 10 × 12.50 = 125 food.
//   No store 03-12 utility: electricity 300 (other). North 03-15 (after the span): 500 food.
//   Cost of goods 740 (food 320, wine 240, beer 180); other expenses 380 (utilities 300, paper 80).
// Labor: Ana (North, $20/h) Mon–Fri 03-02 … 03-06 09:00–18:00 = 45 h: 40 × 20 + 5 × 30 = 950 (overtime 150);
//   Mon–Wed 03-09 … 03-11 09:00–17:00 = 24 h → 480. Ben (South, $15.50/h) 03-03 10:00–16:20 = 6⅓ h → 98.1666… paid
//   98.17; 03-10 10:00–14:00 = 4 h → 62; and at North 03-12 10:00–12:00 = 2 h → 31. Labor 1,621.17, 81.33 h.
// Prime cost 740 + 1,621.17 = 2,361.17; operating profit 10,500 − 2,361.17 − 380 = 7,758.83.

const clock = new Date('2026-03-12T18:00:00Z');
let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
const stores = {} as Record<'north' | 'south', string>;
const q = <T = any>(query: string, variables: Record<string, unknown> = {}) => gqlData<T>(t.base, partner.apiKey, query, variables);

const FIGURES = 'netSales costOfGoods costOfGoodsPercent laborCost laborPercent primeCost primeCostPercent';
const PNL = `query($storeId: UUID, $period: ProfitAndLossPeriod, $start: Date, $end: Date) {
  profitAndLoss(storeId: $storeId, period: $period, startDate: $start, endDate: $end) {
    period startDate endDate storeId ${FIGURES}
    costOfGoodsByCategory { category amount percentOfSales }
    laborHours overtimeHours overtimeCost otherExpenses otherExpensesPercent otherExpensesByCategory { category amount percentOfSales }
    operatingProfit operatingProfitPercent invoiceCount
    weekly { weekStart weekEnd startDate endDate partial ${FIGURES} }
    byStore { storeId store { externalStoreId } ${FIGURES} }
  }
}`;

async function upload(store: 'north' | 'south' | null, spec: InvoiceSpec) {
  const fd = new FormData();
  fd.append('file', new Blob([await makeInvoicePdf(spec)]), `${spec.number}.pdf`);
  if (store) fd.append('storeId', stores[store]);
  const res = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: { 'x-api-key': partner.apiKey }, body: fd });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { lineItems: Array<{ description: string; total: number; costCategory: string }> };
}

async function sales(store: 'north' | 'south', days: Array<[string, number]>) {
  const csv = `business_date,net_sales\n${days.map(([d, s]) => `${d},${s}`).join('\n')}\n`;
  const res = await gqlUpload(
    t.base,
    partner.apiKey,
    `mutation($storeId: UUID!, $file: Upload!) { importPosSales(storeId: $storeId, file: $file) { days } }`,
    { file: Buffer.from(csv) },
    { variables: { storeId: stores[store] }, ext: 'csv' },
  );
  expect(res.body.errors).toBeUndefined();
}

const days = (from: number, to: number, amount: number): Array<[string, number]> =>
  Array.from({ length: to - from + 1 }, (_, i) => [`2026-03-${String(from + i).padStart(2, '0')}`, amount]);

beforeAll(async () => {
  t = await startTestApp({ now: () => clock });
  partner = await t.createPartner({ tier: 'storage' });
  // The default tenant allows one location: this fixture has two.
  await t.database.db.updateTable('tenants').set({ maxLocations: 2 }).where('id', '=', partner.tenantId).execute();
  for (const [name, timezone] of [
    ['north', 'America/Chicago'],
    ['south', 'UTC'],
  ] as const) {
    const store = await q(`mutation($i: CreateStoreInput!) { createStore(input: $i) { store { id } } }`, {
      i: { externalStoreId: name, name: `Store ${name}`, timezone },
    });
    stores[name] = store.createStore.store.id;
  }
  await sales('north', [['2026-02-28', 999], ...days(1, 7, 500), ...days(8, 14, 700), ['2026-03-15', 888]]);
  await sales('south', [
    ['2026-03-02', 1000],
    ['2026-03-09', 1100],
  ]);

  const lines = {
    produce: [
      { description: 'Romaine lettuce case', sku: 'PF-1', quantity: 4, unit: 'case', unitPrice: 30 },
      { description: 'Roma tomatoes 25 lb', sku: 'PF-2', quantity: 3, unit: 'case', unitPrice: 25 },
    ],
    beverages: [
      { description: 'Cabernet Sauvignon red wine 750 ml', sku: 'LB-1', quantity: 2, unit: 'case', unitPrice: 120 },
      { description: 'IPA draft beer keg', sku: 'LB-2', quantity: 1, unit: 'keg', unitPrice: 180 },
      { description: 'Paper napkins 1/8 fold', sku: 'LB-3', quantity: 2, unit: 'case', unitPrice: 40 },
    ],
    seafood: [{ description: 'Atlantic salmon fillet', sku: 'GS-1', quantity: 10, unit: 'lb', unitPrice: 12.5 }],
    power: [{ description: 'Electricity service March', sku: 'CP-1', quantity: 1, unit: 'ea', unitPrice: 300 }],
    late: [{ description: 'Boneless chicken breast', sku: 'PF-9', quantity: 1, unit: 'case', unitPrice: 500 }],
  };
  const spec = (vendor: string, number: string, date: string, l: InvoiceSpec['lines']): InvoiceSpec => ({ vendor, number, date, taxRate: 0.05, lines: l });
  const read = [
    await upload('north', spec('Prairie Farms Produce Co.', 'PF-3001', '2026-03-03', lines.produce)),
    await upload('north', spec('Lakeshore Beverage Distributors Inc.', 'LB-774', '2026-03-10', lines.beverages)),
    await upload('south', spec('Gulf Seafood Supply LLC', 'GS-55', '2026-03-05', lines.seafood)),
    await upload(null, spec('City Power and Light Company', 'CPL-0312', '2026-03-12', lines.power)),
    await upload('north', spec('Prairie Farms Produce Co.', 'PF-3002', '2026-03-15', lines.late)),
  ];
  // The fixture depends on these categories (read from the documents and categorised by the service).
  expect(read.flatMap((r) => r.lineItems.map((l) => [l.total, l.costCategory]))).toEqual([
    [120, 'food_cost'],
    [75, 'food_cost'],
    [240, 'wine_cost'],
    [180, 'beer_cost'],
    [80, 'paper_packaging'],
    [125, 'food_cost'],
    [300, 'utilities'],
    [500, 'food_cost'],
  ]);

  const employee = async (name: string, store: 'north' | 'south', hourlyRate: number) =>
    (await q(`mutation($i: CreateEmployeeInput!) { createEmployee(input: $i) { id } }`, { i: { storeId: stores[store], name, hourlyRate } })).createEmployee
      .id as string;
  const ana = await employee('Ana Ruiz', 'north', 20);
  const ben = await employee('Ben Okafor', 'south', 15.5);
  const punch = (employeeId: string, clockIn: string, clockOut: string, storeId?: string) =>
    q(`mutation($i: TimePunchInput!) { recordTimePunch(input: $i) { id } }`, { i: { employeeId, clockIn, clockOut, ...(storeId ? { storeId } : {}) } });
  for (const d of ['02', '03', '04', '05', '06']) await punch(ana, `2026-03-${d}T09:00:00-06:00`, `2026-03-${d}T18:00:00-06:00`);
  for (const d of ['09', '10', '11']) await punch(ana, `2026-03-${d}T09:00:00-05:00`, `2026-03-${d}T17:00:00-05:00`);
  await punch(ben, '2026-03-03T10:00:00Z', '2026-03-03T16:20:00Z');
  await punch(ben, '2026-03-10T10:00:00Z', '2026-03-10T14:00:00Z');
  await punch(ben, '2026-03-12T10:00:00-05:00', '2026-03-12T12:00:00-05:00', stores.north);
}, 120_000);
afterAll(() => t?.close());

describe('profitAndLoss on the hand-computed fixture', () => {
  test('two weeks, every store: sales, cost of goods by category, labor, prime cost and each as % of sales', async () => {
    const { profitAndLoss: p } = await q(PNL, { start: '2026-03-01', end: '2026-03-14' });
    expect(p).toEqual({
      period: 'custom',
      startDate: '2026-03-01',
      endDate: '2026-03-14',
      storeId: null,
      netSales: 10_500,
      costOfGoods: 740,
      costOfGoodsPercent: 7.05,
      laborCost: 1621.17,
      laborPercent: 15.44,
      primeCost: 2361.17,
      primeCostPercent: 22.49,
      costOfGoodsByCategory: [
        { category: 'food_cost', amount: 320, percentOfSales: 3.05 },
        { category: 'wine_cost', amount: 240, percentOfSales: 2.29 },
        { category: 'beer_cost', amount: 180, percentOfSales: 1.71 },
      ],
      laborHours: 81.33,
      overtimeHours: 5,
      overtimeCost: 150,
      otherExpenses: 380,
      otherExpensesPercent: 3.62,
      otherExpensesByCategory: [
        { category: 'utilities', amount: 300, percentOfSales: 2.86 },
        { category: 'paper_packaging', amount: 80, percentOfSales: 0.76 },
      ],
      operatingProfit: 7758.83,
      operatingProfitPercent: 73.89,
      invoiceCount: 4,
      weekly: [
        {
          ...{ weekStart: '2026-03-01', weekEnd: '2026-03-07', startDate: '2026-03-01', endDate: '2026-03-07', partial: false },
          ...{
            netSales: 4500,
            costOfGoods: 320,
            costOfGoodsPercent: 7.11,
            laborCost: 1048.17,
            laborPercent: 23.29,
            primeCost: 1368.17,
            primeCostPercent: 30.4,
          },
        },
        {
          ...{ weekStart: '2026-03-08', weekEnd: '2026-03-14', startDate: '2026-03-08', endDate: '2026-03-14', partial: false },
          ...{ netSales: 6000, costOfGoods: 420, costOfGoodsPercent: 7, laborCost: 573, laborPercent: 9.55, primeCost: 993, primeCostPercent: 16.55 },
        },
      ],
      byStore: [
        {
          ...{ storeId: stores.north, store: { externalStoreId: 'north' } },
          ...{ netSales: 8400, costOfGoods: 615, costOfGoodsPercent: 7.32, laborCost: 1461, laborPercent: 17.39, primeCost: 2076, primeCostPercent: 24.71 },
        },
        {
          ...{ storeId: stores.south, store: { externalStoreId: 'south' } },
          ...{ netSales: 2100, costOfGoods: 125, costOfGoodsPercent: 5.95, laborCost: 160.17, laborPercent: 7.63, primeCost: 285.17, primeCostPercent: 13.58 },
        },
        {
          ...{ storeId: null, store: null },
          ...{ netSales: 0, costOfGoods: 0, costOfGoodsPercent: null, laborCost: 0, laborPercent: null, primeCost: 0, primeCostPercent: null },
        },
      ],
    });
  });

  test('one store; this week and this month run to today (Thursday 03-12)', async () => {
    const { profitAndLoss: north } = await q(PNL, { storeId: stores.north, start: '2026-03-01', end: '2026-03-14' });
    expect(north).toMatchObject({
      storeId: stores.north,
      netSales: 8400,
      costOfGoods: 615,
      laborCost: 1461,
      primeCost: 2076,
      otherExpenses: 80,
      invoiceCount: 2,
    });
    expect(north.byStore).toEqual([expect.objectContaining({ storeId: stores.north, primeCostPercent: 24.71 })]);

    // 03-08 … 03-12: North 5 × 700 + South 1,100 = 4,600; beverages 420; labor 480 + 62 + 31 = 573.
    const { profitAndLoss: week } = await q(PNL, { period: 'this_week' });
    expect(week).toMatchObject({
      period: 'this_week',
      startDate: '2026-03-08',
      endDate: '2026-03-12',
      netSales: 4600,
      costOfGoods: 420,
      costOfGoodsPercent: 9.13,
      laborCost: 573,
      laborPercent: 12.46,
      primeCost: 993,
      primeCostPercent: 21.59,
    });
    expect(week.weekly).toEqual([expect.objectContaining({ weekStart: '2026-03-08', endDate: '2026-03-12', partial: true, netSales: 4600 })]);
    const { profitAndLoss: month } = await q(PNL, {});
    expect(month).toMatchObject({ period: 'this_month', startDate: '2026-03-01', endDate: '2026-03-12', costOfGoods: 740, laborCost: 1621.17 });
  });

  test.each([
    [{ period: 'custom', start: '2026-03-01' }, 'endDate', /required with period custom/],
    [{ period: 'this_week', start: '2026-03-01' }, 'startDate', /only for period custom/],
    [{ start: '2026-03-14', end: '2026-03-01' }, 'endDate', /must not be before startDate/],
    [{ start: '2025-01-01', end: '2026-03-01' }, 'endDate', /at most 366 days/],
  ])('%j → BAD_USER_INPUT on %s', async (variables, field, message) => {
    const res = await gql(t.base, partner.apiKey, PNL, variables);
    expect(res.status).toBe(200);
    expect(res.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(message), extensions: { code: 'BAD_USER_INPUT' } });
    expect(res.body.errors?.[0]?.message).toContain(field);
  });

  test('a key without scheduling:read is refused (labor is part of the P&L)', async () => {
    const { apiKey } = await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['invoices:read'] });
    const res = await gql(t.base, apiKey, PNL, {});
    expect(res.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
