import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

// A real OpenID provider (oidc-provider) on 127.0.0.1 for end-to-end tests, with a minimal interaction that
// signs in one fixed account and grants consent, and a cookie-keeping driver that walks a browser's redirects.

export const ACCOUNT = {
  sub: 'user-7f3a',
  email: 'ada@example.com',
  email_verified: true,
  name: 'Ada Lovelace',
  given_name: 'Ada',
  family_name: 'Lovelace',
};

export const CLIENT = { clientId: 'partner-api-test', clientSecret: 'test-secret-9c1d4e' };

export interface TestProvider {
  issuer: string;
  redirectUri: string;
  provider: Provider;
  close(): Promise<void>;
}

export interface TestProviderOptions {
  /** false puts the scope claims (email, name) in the ID token itself; true (default) leaves them to userinfo. */
  conformIdTokenClaims?: boolean;
  /** More redirect URIs the test client may use (e.g. the app's /sso/{tenantId}/oidc/callback). */
  redirectUris?: string[];
}

export async function startTestProvider(options: TestProviderOptions = {}): Promise<TestProvider> {
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const redirectUri = `http://127.0.0.1:${port}/client/callback`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };
  const configuration: Configuration = {
    clients: [
      {
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
        redirect_uris: [redirectUri, ...(options.redirectUris ?? [])],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [signingKey as never] },
    cookies: { keys: ['test-cookie-signing-key'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    conformIdTokenClaims: options.conformIdTokenClaims ?? true,
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => (sub === ACCOUNT.sub ? { accountId: sub, claims: () => ({ ...ACCOUNT }) } : undefined),
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  handler = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      void interact(provider, req, res).catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`interaction failed: ${err.message}`);
      });
      return;
    }
    void callback(req, res);
  };

  return {
    issuer,
    redirectUri,
    provider,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The fixed account logs in; consent grants whatever the client asked for. */
async function interact(provider: Provider, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: ACCOUNT.sub } }, { mergeWithLastSubmission: false });
    return;
  }
  if (details.prompt.name === 'consent') {
    const grant = details.grantId
      ? (await provider.Grant.find(details.grantId))!
      : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return;
  }
  throw new Error(`unexpected prompt ${details.prompt.name}`);
}

/**
 * Follows the redirects a browser would, keeping cookies, from the authorization URL until the provider
 * redirects to `redirectUri`; returns that callback URL (with code, state, iss).
 */
export async function signInAsBrowser(authorizationUrl: string, redirectUri: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {},
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now());
      if (!value || expired) jar.delete(name);
      else jar.set(name, value);
    }
    const location = res.headers.get('location');
    await res.arrayBuffer();
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new Error(`expected a redirect from ${url}, got HTTP ${res.status}`);
    }
    const next = new URL(location, url).href;
    if (next.startsWith(redirectUri)) return next;
    url = next;
  }
  throw new Error('too many redirects');
}
