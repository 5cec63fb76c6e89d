import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { equipmentInvoice, type InvoiceSpec, makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';

// The tenant pages over plain HTTP with a session cookie (the browser test drives the same pages in Chromium),
// and the two GraphQL fields behind them: spendReport and the partner's branding.

const clock = new Date('2026-11-20T15:00:00Z');
let t: TestApp;
let embed: { partnerId: string; tenantId: string; apiKey: string };
let tenantId: string;
const stores: Record<string, string> = {};
const invoices: Record<string, string> = {};
const key = () => ({ 'x-api-key': embed.apiKey });

async function data<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await gql<T>(t.base, embed.apiKey, query, variables);
  if (res.body.errors) throw Object.assign(new Error(res.body.errors[0]!.message), { code: res.body.errors[0]!.extensions?.code });
  return res.body.data!;
}
const errorOf = (query: string, variables: Record<string, unknown> = {}) =>
  data(query, variables).then(
    () => null,
    (err: Error & { code: string }) => ({ code: err.code, message: err.message }),
  );

async function upload(store: string, spec: InvoiceSpec): Promise<string> {
  const fd = new FormData();
  fd.append('file', new Blob([await makeInvoicePdf(spec)]), 'invoice.pdf');
  fd.append('tenantId', tenantId);
  fd.append('storeId', stores[store]!);
  const res = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: key(), body: fd });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Signs a user in through a one-time link and returns the session's Cookie header. */
async function signIn(role: string, externalStoreId = 'hb-1'): Promise<string> {
  const res = await http(t.base, 'POST', `/api/v1/partner/tenants/${tenantId}/embed/auth`, {
    headers: key(),
    json: { email: `${role}@bistro.example`, name: `The ${role}`, role, externalStoreId },
  });
  const link = new URL(res.body.data.embedUrl);
  const open = await fetch(t.base + link.pathname + link.search, { redirect: 'manual' });
  expect(open.status).toBe(303);
  return open.headers.get('set-cookie')!.split(';')[0]!;
}

async function page(cookie: string | undefined, path: string) {
  const res = await fetch(t.base + path, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

const invoice = (vendor: string, number: string, date: string, lines = produceInvoice.lines.slice(0, 2)): InvoiceSpec => ({
  vendor,
  number,
  date,
  taxRate: 0.1,
  lines,
});

beforeAll(async () => {
  t = await startTestApp({ now: () => clock });
  embed = await t.createPartner({ tier: 'embed', name: 'Acme Restaurant Software' });
  tenantId = (
    await http(t.base, 'POST', '/api/v1/partner/tenants', {
      headers: key(),
      json: { name: 'Harbor Street Bistro', email: 'owner@harbor.example', maxLocations: 2 },
    })
  ).body.tenantId;
  for (const [externalStoreId, name] of [
    ['hb-1', 'Harbor Downtown'],
    ['hb-2', 'Harbor Airport'],
  ] as const) {
    const res = await http(t.base, 'POST', `/api/v1/partner/tenants/${tenantId}/stores`, { headers: key(), json: { externalStoreId, name } });
    stores[externalStoreId] = res.body.data.store.id;
  }
  invoices.produce = await upload('hb-1', invoice('Green Valley Produce Co.', 'INV-1', '2026-11-05'));
  invoices.october = await upload('hb-1', invoice('Green Valley Produce Co.', 'INV-0', '2026-10-15'));
  invoices.airport = await upload('hb-2', invoice('Summit Restaurant Equipment LLC', 'SRE-1', '2026-11-09', equipmentInvoice.lines));

  const item = await data(
    `mutation($t: UUID!) { createInventoryItem(tenantId: $t, input: { name: "Romaine lettuce", category: food_cost, unit: "case", defaultCost: 32.5, parLevel: 6 }) { id } }`,
    { t: tenantId },
  );
  for (const [store, quantity] of [
    ['hb-1', 4],
    ['hb-2', 9],
  ] as const) {
    await data(`mutation($t: UUID!, $i: RecordInventoryCountInput!) { recordInventoryCount(tenantId: $t, input: $i) { id } }`, {
      t: tenantId,
      i: { storeId: stores[store], itemId: item.createInventoryItem.id, quantity, countedAt: '2026-11-19T08:00:00Z', countedBy: 'Ana' },
    });
  }
  const employee = await data(
    `mutation($t: UUID!, $s: UUID!) { createEmployee(tenantId: $t, input: { storeId: $s, name: "Cara Diaz", position: "server", hourlyRate: 20 }) { id } }`,
    { t: tenantId, s: stores['hb-1'] },
  );
  const schedule = await data(`mutation($t: UUID!, $s: UUID!) { createSchedule(tenantId: $t, input: { storeId: $s, weekStart: "2026-11-15" }) { id } }`, {
    t: tenantId,
    s: stores['hb-1'],
  });
  const e = employee.createEmployee.id;
  await data(
    `mutation($id: UUID!, $e: UUID!) { addShift(scheduleId: $id, input: { employeeId: $e, startsAt: "2026-11-16T09:00:00Z", endsAt: "2026-11-16T17:00:00Z", breakMinutes: 30 }) { id } }`,
    { id: schedule.createSchedule.id, e },
  );
  await data(`mutation($id: UUID!) { publishSchedule(id: $id) { status } }`, { id: schedule.createSchedule.id });
  await data(`mutation($e: UUID!) { recordTimePunch(input: { employeeId: $e, clockIn: "2026-11-16T09:00:00Z", clockOut: "2026-11-16T17:30:00Z" }) { id } }`, {
    e,
  });
}, 120_000);
afterAll(() => t?.close());

describe('spendReport', () => {
  test('this month by default: line items per cost category, invoice totals per vendor; storeId and a range narrow it', async () => {
    const { spendReport } = await data(
      `query($t: UUID) { spendReport(tenantId: $t) { startDate endDate total invoiceCount byCategory { category total } byVendor { vendorName total invoiceCount } } }`,
      { t: tenantId },
    );
    expect(spendReport).toMatchObject({ startDate: '2026-11-01', endDate: '2026-11-20', invoiceCount: 2 });
    expect(spendReport.byVendor.map((v: { vendorName: string }) => v.vendorName)).toEqual(['Summit Restaurant Equipment LLC', 'Green Valley Produce Co.']);
    expect(spendReport.total).toBe(Math.round((1228 * 1.1 + 187.5 * 1.1) * 100) / 100);
    expect(spendReport.byCategory.reduce((s: number, c: { total: number }) => s + c.total, 0)).toBeCloseTo(1228 + 187.5, 2);

    const october = await data(
      `query($t: UUID, $s: UUID) { spendReport(tenantId: $t, storeId: $s, startDate: "2026-10-01", endDate: "2026-10-31") { invoiceCount total } }`,
      { t: tenantId, s: stores['hb-1'] },
    );
    expect(october.spendReport).toEqual({ invoiceCount: 1, total: 206.25 });
    expect(
      await errorOf(`query($t: UUID) { spendReport(tenantId: $t, startDate: "2026-11-02", endDate: "2026-11-01") { total } }`, { t: tenantId }),
    ).toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});

describe('branding', () => {
  test('defaults to the partner name and a neutral colour; validated; null restores a default; API keys only', async () => {
    expect((await data('{ branding { displayName logoUrl primaryColor custom } }')).branding).toEqual({
      displayName: 'Acme Restaurant Software',
      logoUrl: null,
      primaryColor: '#334e68',
      custom: false,
    });
    for (const input of [
      { primaryColor: 'teal' },
      { logoUrl: 'javascript:alert(1)' },
      { logoUrl: 'http://cdn.example/logo.png' },
      { logoUrl: 'data:text/html;base64,PGI+' },
      { displayName: ' ' },
    ]) {
      expect(await errorOf('mutation($i: BrandingInput!) { setBranding(input: $i) { custom } }', { i: input }), JSON.stringify(input)).toMatchObject({
        code: 'BAD_USER_INPUT',
      });
    }
    const set = await data('mutation($i: BrandingInput!) { setBranding(input: $i) { displayName logoUrl primaryColor custom } }', {
      i: { displayName: 'Acme Back Office', logoUrl: 'https://cdn.acme.example/logo.png', primaryColor: '#AA3300' },
    });
    expect(set.setBranding).toEqual({ displayName: 'Acme Back Office', logoUrl: 'https://cdn.acme.example/logo.png', primaryColor: '#aa3300', custom: true });
    const kept = await data('mutation { setBranding(input: { primaryColor: null }) { displayName primaryColor } }');
    expect(kept.setBranding).toEqual({ displayName: 'Acme Back Office', primaryColor: '#334e68' });

    const cookie = await signIn('executive');
    const res = await fetch(`${t.base}/graphql`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { setBranding(input: { displayName: "Mine" }) { displayName } }' }),
    });
    expect(((await res.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toBe('this operation needs an API key');
  });
});

describe('/app pages', () => {
  test('without a live session: 401 with a page that says what to do (no redirect)', async () => {
    for (const cookie of [undefined, 'pa_session=not-a-session']) {
      const res = await page(cookie, '/app/dashboard');
      expect(res.status).toBe(401);
      expect(res.headers.get('location')).toBeNull();
      expect(res.html).toContain('Your session has ended — open the application you came from again.');
    }
  });

  test('a store manager sees their store only, under the partner label, with a self-only CSP', async () => {
    await data(
      'mutation { setBranding(input: { displayName: "<b>Acme</b> & \\"Co\\"", primaryColor: "#0b7a75", logoUrl: "https://cdn.acme.example/logo.png" }) { custom } }',
    );
    const cookie = await signIn('store_manager');
    const dash = await page(cookie, '/app/dashboard');
    expect(dash.status).toBe(200);
    expect(dash.html).toContain('&lt;b&gt;Acme&lt;/b&gt; &amp; &quot;Co&quot;');
    expect(dash.html).not.toContain('<b>Acme');
    expect(dash.html).toContain('Green Valley Produce Co.');
    expect(dash.html).not.toContain('Summit Restaurant Equipment');
    const csp = dash.headers.get('content-security-policy')!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(dash.html).toContain(`<style nonce="${nonce}">:root{--brand:#0b7a75`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self' data: https://cdn.acme.example");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${t.app.port} wss://127.0.0.1:${t.app.port}`);
    expect(dash.headers.get('cache-control')).toBe('no-store');

    const list = await page(cookie, '/app/invoices');
    expect(list.html).toContain('INV-1');
    expect(list.html).toContain('INV-0');
    expect(list.html).not.toContain('SRE-1');
    expect((await page(cookie, `/app/invoices/${invoices.airport}`)).status).toBe(404);
    const detail = await page(cookie, `/app/invoices/${invoices.produce}`);
    expect(detail.html).toContain('Romaine lettuce case');
    expect(detail.html).toContain('Food cost');
    expect((await page(cookie, '/app/invoices/not-an-id')).status).toBe(404);

    const inventory = await page(cookie, '/app/inventory');
    expect(inventory.html).toContain('Harbor Downtown');
    expect(inventory.html).not.toContain('Harbor Airport');
    expect(inventory.html).toContain('$130.00'); // 4 cases × 32.50
    const scheduling = await page(cookie, '/app/scheduling');
    expect(scheduling.html).toContain('Cara Diaz');
    expect(scheduling.html).toMatch(/Scheduled to date<\/span><span class="v">7\.5 h</);
    expect(scheduling.html).toMatch(/Worked to date<\/span><span class="v">8\.5 h</);

    const october = await page(cookie, '/app/pl?from=2026-10-01&to=2026-10-31');
    expect(october.html).toContain('data-chart=');
    expect(october.html).toContain('$187.50'); // the produce lines before tax: cost of goods
    const reports = await page(cookie, '/app/reports?period=custom&from=2026-11-01&to=2026-11-20');
    expect(reports.html).toContain('<h1>Reports</h1>');
    expect(reports.html).toContain('Cara Diaz');
    const csv = await page(cookie, '/app/reports/labor.csv?period=custom&from=2026-11-01&to=2026-11-20');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="labor_2026-11-01_2026-11-20.csv"');
    expect(csv.html.split('\r\n')[1]).toBe('Cara Diaz,server,20,7.5,8.5,1,8.5,0,170,1,1');
    const bad = await page(cookie, '/app/pl?from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Check the address');
    const search = await page(cookie, '/app/search?q=blender+prep+table+lettuce');
    expect(search.html).toContain('Green Valley Produce Co.');
    // Vendors belong to the tenant (no store); the other store's invoice is left out.
    expect(search.html).toContain(`/app/invoices/${invoices.produce}`);
    expect(search.html).not.toContain(`/app/invoices/${invoices.airport}`);
    expect((await page(cookie, '/app/elsewhere')).status).toBe(404);
    expect((await page(cookie, '/app')).headers.get('location')).toBe('/app/dashboard');
  });

  test('a tenant-wide role sees every store of the tenant', async () => {
    const cookie = await signIn('account_owner');
    expect((await page(cookie, '/app/dashboard')).html).toContain('Summit Restaurant Equipment LLC');
    const inventory = await page(cookie, '/app/inventory');
    expect(inventory.html).toContain('Harbor Airport');
    expect(inventory.html).toContain('$422.50'); // 130.00 + 9 × 32.50
    const search = await page(cookie, '/app/search?q=blender+prep+table+lettuce');
    expect(search.html).toContain(`/app/invoices/${invoices.airport}`);
  });

  test('browser assets are served from here', async () => {
    const ws = await fetch(`${t.base}/app/assets/graphql-ws.min.js`);
    expect(ws.status).toBe(200);
    expect(ws.headers.get('content-type')).toContain('javascript');
    expect(await ws.text()).toContain('graphqlWs');
    expect((await fetch(`${t.base}/app/assets/app.css`)).status).toBe(200);
    expect((await fetch(`${t.base}/app/assets/../../package.json`)).status).not.toBe(200);
    expect((await fetch(`${t.base}/app/assets/nope.js`)).status).toBe(404);
  });
});
