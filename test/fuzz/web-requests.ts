import fc from 'fast-check';
import { type FuzzCase, type FuzzContext, encodeSegment, queryString, rawSegment } from './cases.ts';
import { hostileText } from './hostile.ts';

// The browser side, outside the OpenAPI contract: the tenant pages behind embed sign-in (with the seeded session,
// a stale one, or none) and their query parameters, the one-time embed and setup links, and the single sign-on
// endpoints (no tenant here has single sign-on configured, so nothing is fetched from an identity provider).

const PAGES = [
  '/app',
  '/app/dashboard',
  '/app/dashboard/spend',
  '/app/invoices',
  '/app/inventory',
  '/app/scheduling',
  '/app/search',
  '/app/pl',
  '/app/reports',
  '/app/nope',
  '/app/assets/graphql-ws.min.js',
  '/app/assets/..%2f..%2fpackage.json',
];
const PARAMS = ['q', 'type', 'after', 'from', 'to', 'storeId', 'page'];

export function webCaseArb(ctx: FuzzContext): fc.Arbitrary<FuzzCase> {
  const value = fc.oneof(fc.constantFrom('invoice', 'vendor', 'produce', '2026-01-01', '2026-13-45', '9999-12-31', ctx.ids.storeId, 'MA=='), hostileText);
  const params = fc.array(fc.tuple(fc.constantFrom(...PARAMS), value), { maxLength: 3 });
  const cookie = fc.oneof(
    { weight: 8, arbitrary: fc.constant(ctx.ids.sessionCookie) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'pa_session=', 'pa_session=nope', `${ctx.ids.sessionCookie}; pa_session=other`, `pa_session=${'a'.repeat(5000)}`),
    },
  );
  const segment = fc.oneof(fc.constantFrom(ctx.ids.invoiceId, ctx.ids.tenantId), fc.uuid(), hostileText.map(encodeSegment), rawSegment);
  const page = fc
    .tuple(
      fc.oneof(
        fc.constantFrom(...PAGES),
        segment.map((id) => `/app/invoices/${id}`),
      ),
      params,
      cookie,
    )
    .map(([path, ps, c]): FuzzCase => ({
      channel: 'http',
      route: `GET ${path.startsWith('/app/invoices/') ? '/app/invoices/{id}' : path}`,
      method: 'GET',
      url: path + queryString(ps),
      headers: c ? { cookie: c } : {},
    }));
  const links = fc
    .tuple(fc.constantFrom('embed', 'setup-get', 'setup-post', 'sso-start', 'sso-callback', 'sso-acs', 'sso-metadata'), segment, hostileText)
    .map(([kind, seg, text]): FuzzCase => {
      const form = (body: string) => ({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: { type: 'text' as const, text: body } });
      switch (kind) {
        case 'embed':
          return { channel: 'http', route: 'GET /embed/session', method: 'GET', url: `/embed/session${queryString([['token', text]])}`, headers: {} };
        case 'setup-get':
          return { channel: 'http', route: 'GET /setup/{token}', method: 'GET', url: `/setup/${seg}`, headers: {} };
        case 'setup-post':
          return {
            channel: 'http',
            route: 'POST /setup/{token}',
            method: 'POST',
            url: `/setup/${seg}`,
            ...form(
              queryString([
                ['name', text],
                ['issuer', 'https://127.0.0.1/'],
                ['metadata', text],
              ]).slice(1),
            ),
          };
        case 'sso-start':
          return { channel: 'http', route: 'GET /sso/{tenantId}/start', method: 'GET', url: `/sso/${seg}/start`, headers: {} };
        case 'sso-callback':
          return {
            channel: 'http',
            route: 'GET /sso/{tenantId}/oidc/callback',
            method: 'GET',
            url: `/sso/${seg}/oidc/callback${queryString([
              ['code', text],
              ['state', text],
              ['iss', 'https://127.0.0.1/'],
            ])}`,
            headers: {},
          };
        case 'sso-acs':
          return {
            channel: 'http',
            route: 'POST /sso/{tenantId}/saml/acs',
            method: 'POST',
            url: `/sso/${seg}/saml/acs`,
            ...form(
              queryString([
                ['SAMLResponse', text],
                ['RelayState', text],
              ]).slice(1),
            ),
          };
        default:
          return { channel: 'http', route: 'GET /sso/{tenantId}/saml/metadata', method: 'GET', url: `/sso/${seg}/saml/metadata`, headers: {} };
      }
    });
  return fc.oneof({ weight: 3, arbitrary: page }, { weight: 1, arbitrary: links });
}
