import { existsSync, mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { equipmentInvoice, type InvoiceSpec, makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';
import { ARTIFACTS, CHROMIUM, launchChromium, offlineContext } from '../helpers/browser.ts';

// A person's path through embed sign-in, in Debian's Chromium driven by playwright-core: the one-time link lands
// on the tenant's dashboard, which shows that tenant's (and store's) invoices and receives new ones live.

// CI installs Chromium (.ci/run); elsewhere the suite is skipped when there is none.
const skip = !existsSync(CHROMIUM) && !process.env.CI;

let clock = new Date('2026-11-20T15:00:00Z');
let t: TestApp;
let browser: Browser;
let embed: { partnerId: string; tenantId: string; apiKey: string };
const key = () => ({ 'x-api-key': embed.apiKey });
const tenants: Record<'bistro' | 'diner', { id: string; stores: Record<string, string> }> = {
  bistro: { id: '', stores: {} },
  diner: { id: '', stores: {} },
};

const invoice = (vendor: string, number: string, date: string, lines = produceInvoice.lines.slice(0, 3)): InvoiceSpec => ({
  vendor,
  number,
  date,
  taxRate: 0.05,
  lines,
});

async function createTenant(name: string, stores: Array<[string, string]>) {
  const res = await http(t.base, 'POST', '/api/v1/partner/tenants', {
    headers: key(),
    json: { name, email: `owner@${name.split(' ')[0]!.toLowerCase()}.example`, maxLocations: 3 },
  });
  expect(res.status).toBe(201);
  const out = { id: res.body.tenantId as string, stores: {} as Record<string, string> };
  for (const [externalStoreId, storeName] of stores) {
    const s = await http(t.base, 'POST', `/api/v1/partner/tenants/${out.id}/stores`, { headers: key(), json: { externalStoreId, name: storeName } });
    expect(s.status).toBe(201);
    out.stores[externalStoreId] = s.body.data.store.id;
  }
  return out;
}

async function upload(tenant: { id: string; stores: Record<string, string> }, store: string, spec: InvoiceSpec) {
  const fd = new FormData();
  fd.append('file', new Blob([await makeInvoicePdf(spec)]), `${spec.number}.pdf`);
  fd.append('tenantId', tenant.id);
  fd.append('storeId', tenant.stores[store]!);
  const res = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: key(), body: fd });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.vendorName).toBe(spec.vendor);
  return res.body as { id: string };
}

/** A one-time sign-in link for a store manager of the bistro's first store, on this test's origin. */
async function embedUrl(email = 'maria@bistro.example'): Promise<string> {
  const res = await http(t.base, 'POST', `/api/v1/partner/tenants/${tenants.bistro.id}/embed/auth`, {
    headers: key(),
    json: { email, name: 'Maria Lopez', role: 'store_manager', externalStoreId: 'hb-1', page: 'dashboard' },
  });
  expect(res.status).toBe(200);
  const url = new URL(res.body.data.embedUrl);
  return t.base + url.pathname + url.search;
}

/** A page whose requests may go to the server only (`outside` lists the others, aborted), with its errors. */
async function newPage(): Promise<{ page: Page; problems: string[]; outside: string[] }> {
  const { context, outside, problems } = await offlineContext(browser, t.base);
  return { page: await context.newPage(), problems, outside };
}

beforeAll(async () => {
  if (skip) return;
  t = await startTestApp({ now: () => clock });
  embed = await t.createPartner({ tier: 'embed', name: 'Acme Restaurant Software' });
  const logo = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><circle cx="16" cy="16" r="14" fill="#fff"/></svg>').toString('base64')}`;
  const branded = await gql(t.base, embed.apiKey, 'mutation($i: BrandingInput!) { setBranding(input: $i) { displayName primaryColor } }', {
    i: { displayName: 'Acme Back Office', primaryColor: '#0B7A75', logoUrl: logo },
  });
  expect(branded.body.data.setBranding).toEqual({ displayName: 'Acme Back Office', primaryColor: '#0b7a75' });
  tenants.bistro = await createTenant('Harbor Street Bistro', [
    ['hb-1', 'Harbor Downtown'],
    ['hb-2', 'Harbor Airport'],
  ]);
  tenants.diner = await createTenant('Faraway Diner', [['fd-1', 'Faraway Main']]);
  await upload(tenants.bistro, 'hb-1', invoice('Green Valley Produce Co.', 'INV-30001', '2026-11-05'));
  await upload(tenants.bistro, 'hb-2', invoice('Airport Seafood Supply Inc.', 'ASS-118', '2026-11-09'));
  await upload(tenants.diner, 'fd-1', invoice('Faraway Foods Wholesale Inc.', 'FFW-7', '2026-11-10'));
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe.skipIf(skip)('embed sign-in in a browser', () => {
  test('the link lands on the dashboard; new invoices appear live; other tenants and stores never show', async () => {
    const url = await embedUrl();
    const { page, problems, outside } = await newPage();
    const landed = await page.goto(url);
    expect(landed?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/app/dashboard');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Dashboard');
    const header = await page.locator('header.top').innerText();
    expect(header).toContain('Acme Back Office');
    expect(header).toContain('Maria Lopez');
    expect(header).toContain('Harbor Street Bistro · Harbor Downtown');
    const recent = page.locator('#live-invoices');
    expect(await recent.innerText()).toContain('Green Valley Produce Co.');
    expect(await page.content()).not.toContain('Faraway Foods');
    expect(await page.content()).not.toContain('Airport Seafood'); // the other store of the tenant
    await page.waitForSelector('#live-status[data-state="live"]');

    // Marks this document: a reload would lose the mark.
    await page.evaluate(() => ((globalThis as unknown as { __same: boolean }).__same = true));
    await upload(tenants.diner, 'fd-1', invoice('Northwind Beverage Distributors Inc.', 'NBD-55', '2026-11-18'));
    await upload(tenants.bistro, 'hb-2', invoice('Metro Packaging Supply Inc.', 'MPS-9', '2026-11-18'));
    await upload(tenants.bistro, 'hb-1', invoice('Summit Restaurant Equipment LLC', 'SRE-5567', '2026-11-19', equipmentInvoice.lines));
    await page.locator('#live-invoices tbody tr').first().getByText('Summit Restaurant Equipment LLC').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator('#live-invoices tbody tr').first().innerText()).toContain('processed');
    // The month's figures follow: two invoices of this store now.
    await expect.poll(() => page.locator('#spend .figure').nth(1).innerText(), { timeout: 10_000 }).toContain('2');
    expect(await page.evaluate(() => (globalThis as unknown as { __same?: boolean }).__same)).toBe(true);
    await page.waitForTimeout(500);
    const text = await page.locator('body').innerText();
    expect(text).not.toContain('Northwind');
    expect(text).not.toContain('Metro Packaging');
    expect(text).not.toContain('Faraway');

    await page.screenshot({ path: `${ARTIFACTS}dashboard.png`, fullPage: true });
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);

    // The other pages render in the same session (and still only this tenant's store).
    for (const [path, heading] of [
      ['/app/invoices', 'Invoices'],
      ['/app/inventory', 'Inventory'],
      ['/app/scheduling', 'Scheduling'],
      ['/app/reports', 'Reports'],
      ['/app/pl', 'Profit & loss'],
    ]) {
      const res = await page.goto(t.base + path!);
      expect(res?.status(), path).toBe(200);
      expect(await page.locator('h1').textContent()).toBe(heading);
      expect(await page.locator('body').innerText()).not.toMatch(/Faraway|Airport Seafood|Northwind|Metro Packaging/);
    }
    expect(await page.locator('.chart[data-drawn] canvas').count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${ARTIFACTS}pl.png`, fullPage: true });
    await page.goto(`${t.base}/app/search?q=lettuce`);
    expect(await page.locator('body').innerText()).toContain('Green Valley Produce Co.');
    await page.getByRole('link', { name: 'Green Valley Produce Co.' }).first().click();
    await page.waitForURL(/\/app\/invoices\/[0-9a-f-]{36}$/);
    expect(await page.locator('body').innerText()).toContain('Romaine lettuce case');
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
    await page.context().close();
  });

  test('the same link again, or one older than 5 minutes, is refused; without a session the pages say so', async () => {
    const url = await embedUrl('ana@bistro.example');
    const first = await newPage();
    expect((await first.page.goto(url))?.status()).toBe(200);
    await first.page.context().close();

    const again = await newPage();
    const refused = await again.page.goto(url);
    expect(refused?.status()).toBe(410);
    expect(await again.page.locator('body').innerText()).toContain('This sign-in link has already been used');
    expect(new URL(again.page.url()).pathname).toBe('/embed/session');

    const late = await embedUrl('ana@bistro.example');
    const issued = clock;
    clock = new Date(issued.getTime() + 5 * 60_000 + 1_000);
    try {
      const expired = await again.page.goto(late);
      expect(expired?.status()).toBe(410);
      expect(await again.page.locator('body').innerText()).toContain('expired');
    } finally {
      clock = issued;
    }

    const noSession = await again.page.goto(`${t.base}/app/dashboard`);
    expect(noSession?.status()).toBe(401);
    expect(await again.page.locator('body').innerText()).toContain('Your session has ended — open the application you came from again');
    await again.page.context().close();
  });
});
