import { existsSync, mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { http, startTestApp, type TestApp } from '../helpers/app.ts';
import { ARTIFACTS, CHROMIUM, launchChromium, offlineContext } from '../helpers/browser.ts';

// A partner developer's first look, offline: the REST reference at /docs and the GraphQL explorer at GET /graphql,
// in Debian's Chromium with every request to an address other than this server refused (and recorded).

const skip = !existsSync(CHROMIUM) && !process.env.CI;

let t: TestApp;
let browser: Browser;
let apiKey: string;

const offline = () => offlineContext(browser, t.base);

beforeAll(async () => {
  if (skip) return;
  t = await startTestApp();
  ({ apiKey } = await t.createPartner({ tier: 'embed', name: 'Docs Reader Software' }));
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe.skipIf(skip)('developer pages in a browser, offline', () => {
  test('/docs renders the REST reference from our own assets, the upload operation included', async () => {
    const { context, outside, problems } = await offline();
    const page = await context.newPage();
    const res = await page.goto(`${t.base}/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect.poll(async () => (await page.locator('#redoc').innerText()).includes('/api/v1/partner/invoices/upload'), { timeout: 30_000 }).toBe(true);
    await page.locator('#redoc').getByText('/api/v1/partner/invoices/upload').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}docs.png` });
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  test('GET /graphql in a browser is the explorer; with a pasted key it runs { viewer { name } }', async () => {
    const { context, outside, problems } = await offline();
    const page = await context.newPage();
    const res = await page.goto(`${t.base}/graphql`);
    expect(res?.status()).toBe(200);
    await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
    await page.fill('#api-key', apiKey);
    await page.locator('#api-key').dispatchEvent('change');
    // The key stays in this browser for the next visit.
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem('partner-api.explorer.key'),
      ),
    ).toBe(apiKey);
    await page.waitForSelector('.graphiql-container .graphiql-query-editor', { timeout: 30_000 });
    await page.click('.graphiql-execute-button');
    await expect.poll(async () => page.locator('.graphiql-response').innerText(), { timeout: 30_000 }).toContain('Docs Reader Software');
    await page.screenshot({ path: `${ARTIFACTS}explorer.png` });
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  test('API clients keep their answers: GET /graphql without HTML is GraphQL, and the assets are ours', async () => {
    const noKey = await http(t.base, 'GET', '/graphql?query=%7B__typename%7D');
    expect(noKey.status).toBe(401);
    const asJson = await http(t.base, 'GET', '/graphql?query=%7B__typename%7D', { headers: { 'x-api-key': apiKey, 'apollo-require-preflight': 'true' } });
    expect(asJson.status).toBe(200);
    expect(asJson.body).toEqual({ data: { __typename: 'Query' } });
    const missing = await http(t.base, 'GET', '/docs/assets/nothing.js');
    expect(missing.status).toBe(404);
  });
});
