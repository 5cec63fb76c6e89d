import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_VENDORS, renderDemoInvoice } from '../../src/app/admin/demo-invoices.ts';
import { type DemoSeedSummary, seedDemo } from '../../src/app/admin/demo-seed.ts';
import { gqlData, http, onTestServer, startTestApp, type TestApp } from '../helpers/app.ts';
import { ARTIFACTS, CHROMIUM, launchChromium, offlineContext } from '../helpers/browser.ts';

// The back office a restaurant manager opens every day, on the demo seed (`npm run seed -- --demo`), in Debian's
// Chromium at a desktop (1280 px) and a phone (390 px) width, with every request to another address refused: the
// Brooklyn store manager signs in and goes through the dashboard, invoices (an upload from the page whose row
// appears live, the original beside the fields, a correction), P&L, reports (CSV downloads), scheduling (to date),
// search and inventory. Screenshots go to test-artifacts/<page>-<width>.png.

const skip = !existsSync(CHROMIUM) && !process.env.CI;
const WIDTHS = [1280, 390] as const;

let t: TestApp;
/**
 * The app's clock runs from the latest Wednesday 15:00 UTC: "this week to date" then always holds three and a half
 * days of shifts and punches, where the real clock early on a Sunday (the week's first day) has none yet.
 */
const midWeek = (() => {
  const at = new Date();
  at.setUTCHours(15, 0, 0, 0);
  at.setUTCDate(at.getUTCDate() - ((at.getUTCDay() - 3 + 7) % 7));
  if (at.getTime() > Date.now()) at.setUTCDate(at.getUTCDate() - 7);
  return at.getTime() - Date.now();
})();
const clock = () => new Date(Date.now() + midWeek);
let browser: Browser;
let demo: DemoSeedSummary;
const brooklyn = () => demo.stores.find((s) => s.externalStoreId === 'CK-NYC-01')!;

async function signedIn(width: number): Promise<{ context: BrowserContext; page: Page; outside: string[]; problems: string[] }> {
  const { context, outside, problems } = await offlineContext(browser, t.base, { width, acceptDownloads: true });
  const res = await http(t.base, 'POST', `/api/v1/partner/tenants/${demo.tenantId}/embed/auth`, {
    headers: { 'x-api-key': demo.apiKey },
    json: { email: 'maria.gonzalez@copperkettle.example', name: 'Maria Gonzalez', role: 'store_manager', externalStoreId: 'CK-NYC-01' },
  });
  expect(res.status).toBe(200);
  const page = await context.newPage();
  expect((await page.goto(onTestServer(t.base, res.body.data.embedUrl)))?.status()).toBe(200);
  return { context, page, outside, problems };
}

const shot = (page: Page, name: string, width: number) => page.screenshot({ path: `${ARTIFACTS}${name}-${width}.png`, fullPage: true });

/** Every chart on the page drawn by Chart.js, and nothing wider than the screen. */
async function laidOut(page: Page, width: number): Promise<void> {
  await expect.poll(() => page.locator('figure[data-chart]:not([data-drawn])').count()).toBe(0);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
}

/** A figure card's value ("Net sales" → "$8,123.45"). */
const card = (page: Page, label: string) => page.locator('.figure', { has: page.locator('.k', { hasText: new RegExp(`^${label}$`) }) }).locator('.v');

beforeAll(async () => {
  if (skip) return;
  t = await startTestApp({ now: clock });
  demo = await seedDemo(t.app.services, t.database.db, { now: clock() });
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe.skipIf(skip)('the back office on the demo seed', () => {
  test.each(WIDTHS)(
    'at %i px: dashboard, invoices with an upload and the original, P&L, reports, scheduling, search, inventory',
    async (width) => {
      const { context, page, outside, problems } = await signedIn(width);

      // Dashboard: recent invoices (live) and this month's spend chart.
      expect(new URL(page.url()).pathname).toBe('/app/dashboard');
      await page.waitForSelector('#live-status[data-state="live"]');
      expect(await page.locator('#live-invoices tbody tr').count()).toBeGreaterThan(0);
      await laidOut(page, width);
      await shot(page, 'dashboard', width);

      // Invoices: a file dropped on the page (chosen, on the phone) is read and its row appears live.
      await page.goto(`${t.base}/app/invoices`);
      await page.waitForSelector('#live-status[data-state="live"]');
      const number = `BBS-${width}`;
      const vendor = { ...DEMO_VENDORS[0]!, name: 'Brooklyn Bakery Supply LLC', address: '88 Flushing Avenue, Brooklyn, NY 11205' };
      const pdf = await renderDemoInvoice({
        vendor,
        store: 0,
        number,
        date: demo.endDate,
        due: demo.endDate,
        lines: [{ description: 'Sourdough loaves, 12 ct', sku: 'BB-1', unit: 'case', unitPrice: 36, quantity: 3 }],
      });
      if (width === 1280) {
        // The page's own drop handler gets a DataTransfer holding the file, as a drag from the desktop gives it.
        const dropped = await page.evaluateHandle(`(() => {
        const dt = new DataTransfer();
        dt.items.add(new File([Uint8Array.from(atob('${pdf.toString('base64')}'), (c) => c.charCodeAt(0))], '${number}.pdf', { type: 'application/pdf' }));
        return dt;
      })()`);
        await page.dispatchEvent('#dropzone', 'drop', { dataTransfer: dropped });
      } else {
        await page.setInputFiles('#upload-file', { name: `${number}.pdf`, mimeType: 'application/pdf', buffer: pdf });
      }
      const newest = page.locator('#live-invoices tbody tr').first();
      await expect.poll(() => newest.innerText(), { timeout: 30_000 }).toContain('Brooklyn Bakery Supply LLC');
      await expect.poll(() => newest.innerText(), { timeout: 30_000 }).toContain('processed');
      await expect.poll(() => page.locator('.upload-item').first().getAttribute('data-state')).toBe('done');
      expect(await page.locator('.upload-item').first().innerText()).toContain('Read: Brooklyn Bakery Supply LLC $108.00');
      await laidOut(page, width);
      await shot(page, 'invoices', width);

      // The invoice: the original (drawn by pdf.js) beside the extracted fields; a correction is recorded.
      await newest.getByRole('link').click();
      await page.waitForURL(/\/app\/invoices\/[0-9a-f-]{36}$/);
      await page.waitForSelector('.pdf-viewer[data-state="drawn"]', { timeout: 20_000 });
      const original = (await page.locator('section.original').boundingBox())!;
      const fields = (await page.locator('section.fields').boundingBox())!;
      if (width === 1280)
        expect(fields.x).toBeGreaterThan(original.x + original.width - 1); // side by side
      else expect(fields.y).toBeGreaterThan(original.y + original.height - 1); // stacked
      expect(await page.locator('.fields-table').innerText()).toContain(number);
      await page.click('#correct-open');
      await page.fill('#correct input[name="invoiceNumber"]', `${number}-A`);
      await Promise.all([page.waitForURL(/\/app\/invoices\//), page.waitForLoadState('load'), page.click('#correct button[type="submit"]')]);
      await expect.poll(() => page.locator('body').innerText()).toContain('Maria Gonzalez <maria.gonzalez@copperkettle.example>');
      await page.waitForSelector('.pdf-viewer[data-state="drawn"]', { timeout: 20_000 });
      await laidOut(page, width);
      await shot(page, 'invoice', width);

      // P&L of this month at the store: the page prints the API's figures.
      await page.goto(`${t.base}/app/pl`);
      const { profitAndLoss: p } = await gqlData(
        t.base,
        demo.apiKey,
        `query($s: UUID) { profitAndLoss(storeId: $s) { netSales costOfGoodsPercent laborPercent primeCostPercent } }`,
        {
          s: brooklyn().id,
        },
      );
      const usd = (v: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(v);
      expect(await card(page, 'Net sales').innerText()).toBe(usd(p.netSales));
      expect(await card(page, 'Cost of goods').innerText()).toContain(`${p.costOfGoodsPercent}% of sales`);
      expect(await card(page, 'Labor').innerText()).toContain(`${p.laborPercent}% of sales`);
      expect(await card(page, 'Prime cost').innerText()).toContain(`${p.primeCostPercent}% of sales`);
      expect(p.primeCostPercent).toBeGreaterThan(40);
      await laidOut(page, width);
      await shot(page, 'pl', width);

      // Reports: the labor and vendor reports, each downloadable as CSV.
      await page.goto(`${t.base}/app/reports`);
      for (const [link, header] of [
        ['Download labor CSV', 'employee,position,hourly_rate,scheduled_hours,worked_hours'],
        ['Download vendor CSV', 'vendor,invoices,spend'],
      ] as const) {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByText(link).click()]);
        const csv = readFileSync((await download.path())!, 'utf8').split('\r\n');
        expect(csv[0]).toMatch(new RegExp(`^${header}`));
        expect(csv.length).toBeGreaterThan(3);
        expect(csv.at(-2)).toMatch(/^Total,/);
      }
      await laidOut(page, width);
      await shot(page, 'reports', width);

      // Scheduling: this week to date, scheduled against worked over the same span.
      await page.goto(`${t.base}/app/scheduling`);
      const variance = await card(page, 'Variance').innerText();
      const percent = Number(/\(([-\d.]+)%\)/.exec(variance)?.[1]);
      expect(Math.abs(percent), variance).toBeLessThan(25);
      expect(await card(page, 'Scheduled to date').innerText()).toMatch(/^[\d,.]+ h$/);
      await laidOut(page, width);
      await shot(page, 'scheduling', width);

      // Search: relevant results only, grouped, the query's words marked.
      await page.goto(`${t.base}/app/search?q=salmon`);
      expect(await page.locator('section h2').first().innerText()).toMatch(/^Invoices/);
      expect(await page.locator('mark').first().innerText()).toMatch(/salmon/i);
      expect(await page.locator('body').innerText()).not.toContain('Crown Linen');
      await laidOut(page, width);
      await shot(page, 'search', width);

      // A spirits invoice: the vendor's name has no legal form to confirm it, so extraction is unsure and says so.
      await page.goto(`${t.base}/app/search?q=bourbon`);
      await page.locator('ol.results a').first().click();
      await page.waitForSelector('.pdf-viewer[data-state="drawn"]', { timeout: 20_000 });
      expect(await page.locator('.fields-table tr.low').first().innerText()).toMatch(/^Vendor\s+Empire Spirits Wholesale\s+check\s+\d+$/);
      await shot(page, 'invoice-check', width);

      // Inventory: the card and the store's caption print the same figure.
      await page.goto(`${t.base}/app/inventory`);
      const value = await card(page, 'Inventory value').innerText();
      expect(await page.locator('section .note').first().innerText()).toBe(`Value of the latest counts: ${value}`);
      await laidOut(page, width);
      await shot(page, 'inventory', width);

      expect(outside).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    },
    180_000,
  );
});
