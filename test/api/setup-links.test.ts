import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';
import { cookieBrowser, formPost, openSetup } from '../helpers/cookie-browser.ts';

// A tenant's one-time setup link (issue 47, point 2): used up by its form, bound to the browser that opens it first
// (its Continue button: viewing the page binds nothing), and usable for 30 minutes from that first opening.
let clock = new Date('2026-11-20T10:00:00Z');
let t: TestApp;
let apiKey: string;
const later = (ms: number) => (clock = new Date(clock.getTime() + ms));

async function newTenant(body: Record<string, unknown> = {}): Promise<{ tenantId: string; setupUrl: string }> {
  const res = await http(t.base, 'POST', '/api/v1/partner/tenants', {
    headers: { 'x-api-key': apiKey },
    json: { name: 'Bistro Uno', email: 'owner@bistro.example', ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

beforeAll(async () => {
  t = await startTestApp({ now: () => clock });
  apiKey = (await t.createPartner({ tier: 'embed' })).apiKey;
});
afterAll(() => t?.close());

describe('setup link', () => {
  test('the first opening binds it to that browser (cookie); a bad form keeps it; confirming uses it up', async () => {
    const { setupUrl } = await newTenant({ ssoProvider: 'oidc' });
    const owner = cookieBrowser(t.base);
    const token = new URL(setupUrl).pathname.split('/')[2]!;
    // Viewing it (what a mail scanner or a link preview does too) shows a Continue button and binds nothing.
    for (const viewer of [cookieBrowser(t.base), owner]) {
      const view = await viewer(setupUrl);
      expect(view.status).toBe(200);
      expect(view.headers.get('set-cookie')).toBeNull();
      expect(await view.text()).toContain(`<form method="post" action="/setup/${token}/open"><button type="submit">Continue</button></form>`);
    }
    const opened = await owner(`${setupUrl}/open`, formPost({}));
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`/setup/${token}`);
    expect(opened.headers.get('set-cookie')).toMatch(new RegExp(`^pa_setup=[\\w-]{43}; Path=/setup/${token}; Max-Age=1800; HttpOnly; Secure; SameSite=Lax$`));
    const page = await owner(setupUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Welcome, Bistro Uno');
    expect(html).toContain('Single sign-on (OpenID Connect)');
    expect(html).toContain('in this browser only, for 30 minutes');
    // SSO was requested: confirming without connecting it is refused, and the link stays valid in this browser
    const unconnected = await owner(setupUrl, formPost({ name: 'Bistro Uno' }));
    expect(unconnected.status).toBe(400);
    expect(await unconnected.text()).toMatch(/issuer/);
    const again = await owner(setupUrl);
    expect(again.status).toBe(200);
    expect(again.headers.get('set-cookie')).toBeNull(); // bound once: the same cookie goes on working

    const plain = await newTenant({ name: 'Bistro Due' });
    const due = cookieBrowser(t.base);
    expect(await (await openSetup(due, plain.setupUrl)).text()).toContain('No single sign-on was requested');
    const done = await due(plain.setupUrl, formPost({ name: 'Bistro Due & Co' }));
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Bistro Due &amp; Co is ready');
    expect(done.headers.get('set-cookie')).toMatch(/^pa_setup=; Path=\/setup\/[\w-]+; Max-Age=0;/);
    for (const browser of [due, cookieBrowser(t.base)]) {
      const used = await browser(plain.setupUrl);
      expect(used.status).toBe(410);
      expect(await used.text()).toContain('This setup link has already been used');
    }
    expect((await fetch(`${t.base}/setup/not-a-token`)).status).toBe(404);
  });

  test('a second browser is refused once the first opened it, page and form alike; the first is not disturbed', async () => {
    const { setupUrl } = await newTenant();
    const owner = cookieBrowser(t.base);
    expect((await openSetup(owner, setupUrl)).status).toBe(200);
    const other = cookieBrowser(t.base);
    const seen = await other(setupUrl);
    expect(seen.status).toBe(410);
    expect(seen.headers.get('set-cookie')).toBeNull();
    expect(await seen.text()).toContain('This setup link was opened in another browser');
    expect((await other(setupUrl, formPost({ name: 'Taken Over' }))).status).toBe(410);
    expect((await other(`${setupUrl}/open`, formPost({}))).status).toBe(410);
    const forged = cookieBrowser(t.base);
    forged.cookies.set('pa_setup', 'A'.repeat(43));
    expect((await forged(setupUrl, formPost({ name: 'Taken Over' }))).status).toBe(410);
    const done = await owner(setupUrl, formPost({ name: 'Bistro Uno' }));
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Bistro Uno is ready');
  });

  test('within 30 minutes of the first opening the first browser can confirm; after them even it is refused', async () => {
    const first = await newTenant();
    const owner = cookieBrowser(t.base);
    expect((await openSetup(owner, first.setupUrl)).status).toBe(200);
    later(29 * 60_000);
    expect((await owner(first.setupUrl)).status).toBe(200);
    expect((await owner(first.setupUrl, formPost({ name: 'In Time' }))).status).toBe(200);

    const second = await newTenant();
    const slow = cookieBrowser(t.base);
    expect((await openSetup(slow, second.setupUrl)).status).toBe(200);
    later(30 * 60_000);
    for (const res of [await slow(second.setupUrl), await slow(second.setupUrl, formPost({ name: 'Too Late' }))]) {
      expect(res.status).toBe(410);
      expect(await res.text()).toContain('it works for 30 minutes after it is first opened');
    }
  });

  test('unopened, the link lasts 7 days; a form sent before its page is opened is refused and binds nothing', async () => {
    const { setupUrl } = await newTenant();
    const owner = cookieBrowser(t.base);
    const blind = await owner(setupUrl, formPost({ name: 'Blind' }));
    expect(blind.status).toBe(400);
    expect(await blind.text()).toContain('Open the setup link in your browser first');
    later(7 * 24 * 3_600_000 - 60_000);
    expect((await openSetup(owner, setupUrl)).status).toBe(200);
    expect((await owner(setupUrl, formPost({ name: 'Just In Time' }))).status).toBe(200);

    const unopened = await newTenant();
    later(7 * 24 * 3_600_000);
    expect((await cookieBrowser(t.base)(unopened.setupUrl)).status).toBe(410);
  });

  test('in a frame the page asks to be opened on its own window and binds nothing', async () => {
    const { setupUrl } = await newTenant();
    const framed = await fetch(setupUrl.replace(/^https?:\/\/[^/]+/, t.base), { headers: { 'sec-fetch-dest': 'iframe' } });
    expect(framed.status).toBe(200);
    expect(framed.headers.get('set-cookie')).toBeNull();
    const path = new URL(setupUrl).pathname;
    expect(await framed.text()).toContain(`<a href="${path}" target="_blank" rel="noopener">Open the setup page in its own window</a>`);
    const owner = cookieBrowser(t.base);
    expect((await openSetup(owner, setupUrl, { headers: { 'sec-fetch-dest': 'document' } })).status).toBe(200);
    expect((await owner(setupUrl, formPost({ name: 'Framed' }))).status).toBe(200);
    expect((await fetch(setupUrl.replace(/^https?:\/\/[^/]+/, t.base), { headers: { 'sec-fetch-dest': 'iframe' } })).status).toBe(410);
  });

  test('two first openings at once: one browser wins the link', async () => {
    const { setupUrl } = await newTenant();
    const browsers = Array.from({ length: 6 }, () => cookieBrowser(t.base));
    const pages = await Promise.all(browsers.map((b) => openSetup(b, setupUrl)));
    expect(pages.map((p) => p.status).sort()).toEqual([200, 410, 410, 410, 410, 410]);
    const winner = browsers[pages.findIndex((p) => p.status === 200)]!;
    expect((await winner(setupUrl, formPost({ name: 'Winner' }))).status).toBe(200);
  });

  test('reissueSetupLink: a new link, the old one ends; refused once the setup was confirmed, and for another partner', async () => {
    const { tenantId, setupUrl } = await newTenant({ name: 'Bistro Tre' });
    // Someone else (a mail scanner that clicks, a forwarded copy) opened it first: the owner is refused ...
    expect((await openSetup(cookieBrowser(t.base), setupUrl)).status).toBe(200);
    const owner = cookieBrowser(t.base);
    expect((await openSetup(owner, setupUrl)).status).toBe(410);
    // ... and the partner sends a new link, which works; the old one no longer does, even where it was opened.
    const reissue = `mutation($id: UUID!) { reissueSetupLink(tenantId: $id) { tenantId setupUrl } }`;
    const res = await gql(t.base, apiKey, reissue, { id: tenantId });
    expect(res.body.errors).toBeUndefined();
    const fresh = res.body.data.reissueSetupLink;
    expect(fresh.tenantId).toBe(tenantId);
    expect(fresh.setupUrl).toMatch(/^http:\/\/localhost:\d+\/setup\/[\w-]{43}$/);
    expect(fresh.setupUrl).not.toBe(setupUrl);
    expect((await cookieBrowser(t.base)(setupUrl)).status).toBe(410);
    expect((await openSetup(owner, fresh.setupUrl)).status).toBe(200);
    expect((await owner(fresh.setupUrl, formPost({ name: 'Bistro Tre' }))).status).toBe(200);

    const done = await gql(t.base, apiKey, reissue, { id: tenantId });
    expect(done.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(done.body.errors?.[0]?.message).toBe('the tenant is already set up: its setup link was used');
    const stranger = (await t.createPartner({ tier: 'embed' })).apiKey;
    expect((await gql(t.base, stranger, reissue, { id: (await newTenant()).tenantId })).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
