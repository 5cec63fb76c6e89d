// The invoice page shows where each value was read (issue 48, point 3), in Debian's Chromium with every other address
// refused: hovering a field's row, or tabbing to its value, outlines its evidence box over the original — on the
// PDF's canvas (turning to the value's page) or over an image — at the box × the drawn page's size.
import { existsSync, mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CAFE_RECEIPT, makeInvoicePdf, makeReceiptImage, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gqlData, http, onTestServer, startTestApp, type TestApp } from '../helpers/app.ts';
import { ARTIFACTS, CHROMIUM, launchChromium, offlineContext } from '../helpers/browser.ts';

const skip = !existsSync(CHROMIUM) && !process.env.CI;
let t: TestApp;
let browser: Browser;
let partner: { partnerId: string; tenantId: string; apiKey: string };
let tenantId: string;
type Box = { x: number; y: number; width: number; height: number };
type Evidence = { field: string; page: number | null; box: Box | null };

async function upload(bytes: Buffer, name: string): Promise<string> {
  const fd = new FormData();
  fd.append('file', new Blob([bytes]), name);
  fd.append('tenantId', tenantId);
  const res = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: { 'x-api-key': partner.apiKey }, body: fd });
  expect(res.status).toBe(201);
  return res.body.id;
}

const evidenceOf = async (id: string) =>
  (
    await gqlData<{ invoice: { evidence: Evidence[]; lineItems: Array<{ evidence: Evidence[] }> } }>(
      t.base,
      partner.apiKey,
      'query($id: UUID!) { invoice(id: $id) { evidence { field page box { x y width height } } lineItems { evidence { field page box { x y width height } } } } }',
      { id },
    )
  ).invoice;

async function openInvoice(id: string, width = 1280) {
  const { context, outside, problems } = await offlineContext(browser, t.base, { width });
  const res = await http(t.base, 'POST', `/api/v1/partner/tenants/${tenantId}/embed/auth`, {
    headers: { 'x-api-key': partner.apiKey },
    json: { email: 'owner@harbor.example', name: 'Ana Owner', role: 'account_owner', externalStoreId: 'hb-1' },
  });
  const page = await context.newPage();
  expect((await page.goto(onTestServer(t.base, res.body.data.embedUrl)))?.status()).toBe(200);
  await page.goto(`${t.base}/app/invoices/${id}`);
  return { context, page, outside, problems };
}

/** The outline drawn over `surface`, against the evidence box × the surface's drawn size (inside its border). */
async function expectMarkOver(page: Page, surface: string, box: Box): Promise<void> {
  const mark = page.locator('.evidence-mark');
  await expect.poll(() => mark.isVisible()).toBe(true);
  const m = (await mark.boundingBox())!;
  const s = (await page.locator(surface).boundingBox())!;
  // The drawing fills the content box: 1 px of border on each side.
  const [w, h] = [s.width - 2, s.height - 2];
  expect(m.x).toBeCloseTo(s.x + 1 + box.x * w, 0);
  expect(m.y).toBeCloseTo(s.y + 1 + box.y * h, 0);
  expect(m.width).toBeCloseTo(box.width * w, 0);
  expect(m.height).toBeCloseTo(box.height * h, 0);
}

beforeAll(async () => {
  if (skip) return;
  t = await startTestApp();
  partner = await t.createPartner({ tier: 'embed' });
  tenantId = (
    await http(t.base, 'POST', '/api/v1/partner/tenants', {
      headers: { 'x-api-key': partner.apiKey },
      json: { name: 'Harbor Street Bistro', email: 'owner@harbor.example', maxLocations: 1 },
    })
  ).body.tenantId;
  await http(t.base, 'POST', `/api/v1/partner/tenants/${tenantId}/stores`, {
    headers: { 'x-api-key': partner.apiKey },
    json: { externalStoreId: 'hb-1', name: 'Downtown' },
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe.skipIf(skip)('the invoice page outlines where a value was read', () => {
  test('a PDF: hovering a field outlines its box on the canvas; a value on page 2 turns the page; focus does it too', async () => {
    const id = await upload(await makeInvoicePdf(produceInvoice), 'produce.pdf');
    const ev = await evidenceOf(id);
    const { context, page, outside, problems } = await openInvoice(id);
    await page.waitForSelector('.pdf-viewer[data-state="drawn"]', { timeout: 20_000 });
    expect(await page.locator('.evidence-mark').isVisible()).toBe(false);

    // The invoice number, on page 1.
    const number = ev.evidence.find((e) => e.field === 'invoiceNumber')!;
    await page.locator('.fields-table tr', { hasText: 'Invoice number' }).hover();
    await expectMarkOver(page, '.pdf-viewer canvas', number.box!);
    expect(await page.locator('.evidence-mark').getAttribute('data-page')).toBe('1');
    await page.screenshot({ path: `${ARTIFACTS}evidence-number.png` });

    // The total is printed on page 2: the viewer turns to it, then outlines it.
    const total = ev.evidence.find((e) => e.field === 'total')!;
    expect(total.page).toBe(2);
    await page.locator('.fields-table tr', { hasText: /^Total/ }).hover();
    await expect.poll(() => page.locator('.pdf-page').innerText()).toBe('Page 2 of 2');
    await expectMarkOver(page, '.pdf-viewer canvas', total.box!);
    await page.locator('.evidence-mark').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}evidence-total.png` });

    // Leaving the row hides the outline.
    await page.locator('h1').hover();
    await expect.poll(() => page.locator('.evidence-mark').isVisible()).toBe(false);

    // Keyboard: focusing a line item's amount (page 1) turns back and outlines it.
    const amount = ev.lineItems[0]!.evidence.find((e) => e.field === 'total')!;
    await page.locator('.lines-table tbody tr').first().locator('td').nth(5).locator('.ev').focus();
    await expect.poll(() => page.locator('.pdf-page').innerText()).toBe('Page 1 of 2');
    await expectMarkOver(page, '.pdf-viewer canvas', amount.box!);
    expect(await page.locator('.evidence-mark').getAttribute('data-field')).toContain('Line 1 total');

    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  test('an image: hovering the total outlines it over the picture', async () => {
    const id = await upload(await makeReceiptImage(CAFE_RECEIPT), 'slip.png');
    const ev = await evidenceOf(id);
    const { context, page, outside, problems } = await openInvoice(id);
    await page.waitForFunction("document.querySelector('.original-frame img')?.complete && document.querySelector('.original-frame img').naturalWidth > 0");
    const total = ev.evidence.find((e) => e.field === 'total')!;
    expect(total.box).not.toBeNull();
    await page.locator('.fields-table tr', { hasText: /^Total/ }).hover();
    await expectMarkOver(page, '.original-frame img', total.box!);
    await page.screenshot({ path: `${ARTIFACTS}evidence-image.png` });
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
