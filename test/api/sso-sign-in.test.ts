import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signInAsBrowser, startTestProvider, CLIENT, ACCOUNT, type TestProvider } from '../sso/oidc-provider.ts';
import { authnRequestOf, b64, idpKeyPair, idpMetadata, samlResponse, sign } from '../sso/saml-idp.ts';
import { http, onTestServer, startTestApp, type TestApp } from '../helpers/app.ts';
import { cookieBrowser, formPost as form, openSetup } from '../helpers/cookie-browser.ts';

// Tenant setup with single sign-on, through the app's own pages and routes: the onboarding form connects the
// tenant's IdP (a real oidc-provider on 127.0.0.1; a test SAML IdP key), then people sign in at /sso/{tenantId}/start.

let t: TestApp;
let embed: { partnerId: string; tenantId: string; apiKey: string };
/** Links name PUBLIC_URL (http://localhost:<port>); the tests call 127.0.0.1. */
const local = (url: string) => onTestServer(t.base, url);

async function newTenant(ssoProvider: 'oidc' | 'saml') {
  const res = await http(t.base, 'POST', '/api/v1/partner/tenants', {
    headers: { 'x-api-key': embed.apiKey },
    json: { name: `SSO ${ssoProvider}`, email: 'owner@example.com', ssoProvider },
  });
  expect(res.status).toBe(201);
  return res.body as { tenantId: string; setupUrl: string };
}

async function viewerTenants(setCookie: string | null): Promise<unknown> {
  const res = await fetch(`${t.base}/graphql`, {
    method: 'POST',
    headers: { cookie: setCookie!.split(';')[0]!, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ viewer { tenants { id } } }' }),
  });
  return ((await res.json()) as { data: { viewer: { tenants: unknown } } }).data.viewer.tenants;
}

beforeAll(async () => {
  t = await startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' } });
  embed = await t.createPartner({ tier: 'embed' });
});
afterAll(() => t?.close());

describe('OIDC', () => {
  let op: TestProvider;
  afterAll(() => op?.close());

  test('the onboarding page connects the IdP (checked by discovery); a person signs in and lands on the dashboard with a session', async () => {
    const { tenantId, setupUrl } = await newTenant('oidc');
    const callback = `${t.app.url}/sso/${tenantId}/oidc/callback`;
    op = await startTestProvider({ redirectUris: [callback] });

    const owner = cookieBrowser(t.base);
    const page = await (await openSetup(owner, setupUrl)).text();
    expect(page).toContain(callback);
    const bad = await owner(setupUrl, form({ name: 'SSO oidc', issuer: 'http://127.0.0.1:9/nothing', clientId: 'x', clientSecret: 'y' }));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/issuer/);
    const ok = await owner(setupUrl, form({ name: 'SSO oidc', issuer: op.issuer, ...CLIENT }));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain(`/sso/${tenantId}/start`);

    const start = await fetch(`${t.base}/sso/${tenantId}/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const authorizationUrl = start.headers.get('location')!;
    expect(authorizationUrl.startsWith(`${op.issuer}/auth?`)).toBe(true);
    expect(new URL(authorizationUrl).searchParams.get('code_challenge_method')).toBe('S256');
    const back = await signInAsBrowser(authorizationUrl, callback);
    const signedIn = await fetch(local(back), { redirect: 'manual' });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/app/dashboard');
    expect(await viewerTenants(signedIn.headers.get('set-cookie'))).toEqual([{ id: tenantId }]);

    // the callback cannot be replayed; the person exists as a user of the tenant
    const replay = await fetch(local(back), { redirect: 'manual' });
    expect(replay.status).toBe(401);
    expect(await replay.text()).toContain('Sign-in failed');
    const users = await http(t.base, 'POST', '/graphql', {
      headers: { 'x-api-key': embed.apiKey },
      json: { query: `{ tenant(id: "${tenantId}") { users { email role storeId } } }` },
    });
    expect(users.body.data.tenant.users).toEqual([{ email: ACCOUNT.email, role: 'executive', storeId: null }]);
  });
});

describe('SAML', () => {
  test('the metadata is pasted on the onboarding page; a signed response signs in, a tampered one is refused', async () => {
    const { tenantId, setupUrl } = await newTenant('saml');
    const keys = idpKeyPair();
    const idp = { entityId: 'https://idp.example.test/entity', ssoUrl: 'https://idp.example.test/sso' };
    const owner = cookieBrowser(t.base);
    expect((await openSetup(owner, setupUrl)).status).toBe(200);
    expect((await owner(setupUrl, form({ name: 'SSO saml', metadata: '<nope/>' }))).status).toBe(400);
    expect((await owner(setupUrl, form({ name: 'SSO saml', metadata: idpMetadata({ ...idp, cert: keys.cert }) }))).status).toBe(200);

    const acs = `${t.app.url}/sso/${tenantId}/saml/acs`;
    const spMetadata = await (await fetch(`${t.base}/sso/${tenantId}/saml/metadata`)).text();
    expect(spMetadata).toContain(acs);
    /** A sign-in started at our side: the id of the AuthnRequest sent to the IdP. */
    const startSignIn = async () => {
      const start = await fetch(`${t.base}/sso/${tenantId}/start`, { redirect: 'manual' });
      expect(start.status).toBe(302);
      return /ID="([^"]+)"/.exec(authnRequestOf(start.headers.get('location')!))![1]!;
    };
    const response = (email: string, inResponseTo: string) =>
      sign(
        samlResponse({
          idpEntityId: idp.entityId,
          audience: `${t.app.url}/sso/${tenantId}/saml`,
          recipient: acs,
          destination: acs,
          email,
          displayName: 'Grace H',
          inResponseTo,
        }),
        'Assertion',
        keys,
      );
    const tampered = response('grace@example.com', await startSignIn()).replace(/grace@example\.com/g, 'mallory@example.com');
    const refused = await fetch(local(acs), { ...form({ SAMLResponse: b64(tampered) }), redirect: 'manual' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toBeNull();

    const good = b64(response('grace@example.com', await startSignIn()));
    const accepted = await fetch(local(acs), { ...form({ SAMLResponse: good }), redirect: 'manual' });
    expect(accepted.status).toBe(303);
    expect(await viewerTenants(accepted.headers.get('set-cookie'))).toEqual([{ id: tenantId }]);
    // the same response again answers a request that was already used
    expect((await fetch(local(acs), { ...form({ SAMLResponse: good }), redirect: 'manual' })).status).toBe(401);
  });
});
