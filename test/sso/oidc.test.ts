import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SsoConfigError, SsoSignInError } from '../../src/modules/embed/sso/errors.ts';
import { type OidcConfig, finishOidcSignIn, startOidcSignIn, validateOidcConfig } from '../../src/modules/embed/sso/oidc.ts';
import { ACCOUNT, CLIENT, type TestProvider, signInAsBrowser, startTestProvider } from './oidc-provider.ts';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('OIDC sign-in against a real OpenID provider (claims from userinfo)', () => {
  let op: TestProvider;
  let config: OidcConfig;

  beforeAll(async () => {
    op = await startTestProvider();
    config = await validateOidcConfig({ issuer: op.issuer, ...CLIENT }, { allowLoopback: true });
  });
  afterAll(() => op?.close());

  /** Starts a sign-in and walks the provider's login and consent; returns the callback URL and the secrets. */
  async function signIn() {
    const start = await startOidcSignIn(config, { redirectUri: op.redirectUri });
    const callback = await signInAsBrowser(start.authorizationUrl, op.redirectUri);
    return { ...start, callback };
  }

  it('discovers and normalizes the issuer', () => {
    expect(config).toMatchObject({
      issuer: op.issuer,
      clientId: CLIENT.clientId,
      clientSecret: CLIENT.clientSecret,
      tokenEndpointAuthMethod: 'client_secret_basic',
      server: {
        issuer: op.issuer,
        authorization_endpoint: `${op.issuer}/auth`,
        token_endpoint: `${op.issuer}/token`,
        jwks_uri: `${op.issuer}/jwks`,
        userinfo_endpoint: `${op.issuer}/me`,
      },
    });
    expect(JSON.parse(JSON.stringify(config))).toEqual(config);
  });

  it('accepts the discovery URL pasted in place of the issuer', async () => {
    const again = await validateOidcConfig({ issuer: `${op.issuer}/.well-known/openid-configuration`, ...CLIENT }, { allowLoopback: true });
    expect(again.issuer).toBe(op.issuer);
  });

  it('builds an authorization code + PKCE S256 request', async () => {
    const start = await startOidcSignIn(config, { redirectUri: op.redirectUri });
    const url = new URL(start.authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${op.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT.clientId,
      response_type: 'code',
      redirect_uri: op.redirectUri,
      scope: 'openid email profile',
      state: start.state,
      nonce: start.nonce,
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(start.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    const other = await startOidcSignIn(config, { redirectUri: op.redirectUri });
    expect(other.state).not.toBe(start.state);
    expect(other.nonce).not.toBe(start.nonce);
    expect(other.codeVerifier).not.toBe(start.codeVerifier);
  });

  it('signs in end to end and returns subject, email and name', async () => {
    const { callback, state, nonce, codeVerifier } = await signIn();
    expect(new URL(callback).searchParams.get('code')).toBeTruthy();
    const identity = await finishOidcSignIn(config, { currentUrl: callback, state, nonce, codeVerifier, redirectUri: op.redirectUri });
    expect(identity).toEqual({
      issuer: op.issuer,
      subject: ACCOUNT.sub,
      email: ACCOUNT.email,
      emailVerified: true,
      name: ACCOUNT.name,
    });
  });

  it('uses the registered redirect URI even when the request URL differs (behind a proxy)', async () => {
    const { callback, state, nonce, codeVerifier } = await signIn();
    const seenByApp = `http://10.1.2.3:8080/client/callback${new URL(callback).search}`;
    const identity = await finishOidcSignIn(config, { currentUrl: seenByApp, state, nonce, codeVerifier, redirectUri: op.redirectUri });
    expect(identity.subject).toBe(ACCOUNT.sub);
  });

  it('rejects a wrong state without redeeming the code', async () => {
    const { callback, state, nonce, codeVerifier } = await signIn();
    const err = await rejection(finishOidcSignIn(config, { currentUrl: callback, state: 'another-attempt', nonce, codeVerifier, redirectUri: op.redirectUri }));
    expect(err).toBeInstanceOf(SsoSignInError);
    expect(err).toMatchObject({ reason: 'state_mismatch', code: 'UNAUTHENTICATED' });
    expect(err.message).toMatch(/state mismatch/);
    // The code was not spent: the genuine attempt still completes.
    const identity = await finishOidcSignIn(config, { currentUrl: callback, state, nonce, codeVerifier, redirectUri: op.redirectUri });
    expect(identity.subject).toBe(ACCOUNT.sub);
  });

  it('rejects a response naming another issuer, or none when the provider always names it (RFC 9207)', async () => {
    const { callback, state, nonce, codeVerifier } = await signIn();
    expect(config.server.authorization_response_iss_parameter_supported).toBe(true);
    const url = new URL(callback);
    expect(url.searchParams.get('iss')).toBe(op.issuer);
    url.searchParams.set('iss', 'https://attacker.example');
    const err = await rejection(finishOidcSignIn(config, { currentUrl: url, state, nonce, codeVerifier, redirectUri: op.redirectUri }));
    expect(err).toMatchObject({ reason: 'issuer_mismatch' });
    url.searchParams.delete('iss');
    expect(await rejection(finishOidcSignIn(config, { currentUrl: url, state, nonce, codeVerifier, redirectUri: op.redirectUri }))).toMatchObject({
      reason: 'issuer_mismatch',
    });
  });

  it('rejects a replayed code', async () => {
    const { callback, state, nonce, codeVerifier } = await signIn();
    const input = { currentUrl: callback, state, nonce, codeVerifier, redirectUri: op.redirectUri };
    await finishOidcSignIn(config, input);
    const err = await rejection(finishOidcSignIn(config, input));
    expect(err).toBeInstanceOf(SsoSignInError);
    expect(err).toMatchObject({ reason: 'code_rejected' });
    expect(err.message).toMatch(/already used/);
  });

  it('rejects a tampered code', async () => {
    const { callback, state, nonce, codeVerifier } = await signIn();
    const url = new URL(callback);
    const code = url.searchParams.get('code')!;
    url.searchParams.set('code', `${code.slice(0, -4)}${code.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`);
    const err = await rejection(finishOidcSignIn(config, { currentUrl: url, state, nonce, codeVerifier, redirectUri: op.redirectUri }));
    expect(err).toMatchObject({ reason: 'code_rejected' });
  });

  it('rejects a wrong PKCE code verifier', async () => {
    const { callback, state, nonce } = await signIn();
    const other = await startOidcSignIn(config, { redirectUri: op.redirectUri });
    const err = await rejection(
      finishOidcSignIn(config, { currentUrl: callback, state, nonce, codeVerifier: other.codeVerifier, redirectUri: op.redirectUri }),
    );
    expect(err).toMatchObject({ reason: 'code_rejected' });
  });

  it('rejects an ID token whose nonce belongs to another attempt', async () => {
    const { callback, state, codeVerifier } = await signIn();
    const err = await rejection(
      finishOidcSignIn(config, { currentUrl: callback, state, nonce: 'nonce-of-another-attempt', codeVerifier, redirectUri: op.redirectUri }),
    );
    expect(err).toBeInstanceOf(SsoSignInError);
    expect(err).toMatchObject({ reason: 'nonce_mismatch' });
    expect(err.message).toMatch(/nonce mismatch/);
  });

  it('reports an error the provider sent to the callback', async () => {
    const err = await rejection(
      finishOidcSignIn(config, {
        currentUrl: `${op.redirectUri}?error=access_denied&error_description=nope&state=s`,
        state: 's',
        nonce: 'n',
        codeVerifier: 'v',
        redirectUri: op.redirectUri,
      }),
    );
    expect(err).toMatchObject({ reason: 'idp_error' });
    expect(err.message).toMatch(/access_denied/);
  });

  it('reports a wrong client secret clearly', async () => {
    const wrong = { ...config, clientSecret: 'not-the-secret' };
    const { callback, state, nonce, codeVerifier } = await signIn();
    const err = await rejection(finishOidcSignIn(wrong, { currentUrl: callback, state, nonce, codeVerifier, redirectUri: op.redirectUri }));
    expect(err).toMatchObject({ reason: 'client_rejected' });
    expect(err.message).toMatch(/client credentials/);
    expect(err.message).not.toContain('not-the-secret');
  });
});

describe('OIDC sign-in with the claims in the ID token', () => {
  let op: TestProvider;
  beforeAll(async () => {
    op = await startTestProvider({ conformIdTokenClaims: false });
  });
  afterAll(() => op?.close());

  it('reads email and name from the ID token', async () => {
    const config = await validateOidcConfig({ issuer: op.issuer, ...CLIENT }, { allowLoopback: true });
    // No userinfo endpoint: the ID token alone must carry the profile.
    delete config.server.userinfo_endpoint;
    const start = await startOidcSignIn(config, { redirectUri: op.redirectUri });
    const callback = await signInAsBrowser(start.authorizationUrl, op.redirectUri);
    const identity = await finishOidcSignIn(config, { ...start, currentUrl: callback, redirectUri: op.redirectUri });
    expect(identity).toMatchObject({ subject: ACCOUNT.sub, email: ACCOUNT.email, emailVerified: true, name: ACCOUNT.name });
  });
});

describe('validateOidcConfig', () => {
  let server: http.Server;
  let base: string;
  const routes = new Map<string, (res: http.ServerResponse) => void>();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const route = routes.get(req.url ?? '');
      if (route) route(res);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const json = (body: unknown) => (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const doc = (issuer: string) => ({
      issuer,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code'],
    });
    routes.set('/slow/.well-known/openid-configuration', () => {}); // never answers
    routes.set('/html/.well-known/openid-configuration', (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'));
    routes.set('/other/.well-known/openid-configuration', json(doc('https://someone-else.example')));
    routes.set('/nojwks/.well-known/openid-configuration', json({ ...doc(`${base}/nojwks`), jwks_uri: undefined }));
    routes.set('/plain/.well-known/openid-configuration', json({ ...doc(`${base}/plain`), token_endpoint: 'http://idp.example/token' }));
    routes.set('/implicit/.well-known/openid-configuration', json({ ...doc(`${base}/implicit`), response_types_supported: ['id_token'] }));
    routes.set('/post/.well-known/openid-configuration', json({ ...doc(`${base}/post`), token_endpoint_auth_methods_supported: ['client_secret_post'] }));
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  async function configError(issuer: unknown, extra: Record<string, unknown> = {}, allowLoopback = true) {
    const err = await rejection(validateOidcConfig({ ...CLIENT, issuer, ...extra } as never, { allowLoopback, timeoutSeconds: 5 }));
    expect(err).toBeInstanceOf(SsoConfigError);
    expect((err as SsoConfigError).code).toBe('BAD_USER_INPUT');
    expect(err.message).not.toContain(CLIENT.clientSecret);
    return err as SsoConfigError;
  }

  it('refuses a malformed issuer URL', async () => {
    const err = await configError('not a url');
    expect(err.message).toBe('issuer: must be an absolute URL such as https://login.example.com');
    expect(err.fields).toEqual({ issuer: 'must be an absolute URL such as https://login.example.com' });
  });

  it('refuses http:// issuers unless loopback is allowed, and never for other hosts', async () => {
    expect((await configError(base, {}, false)).message).toMatch(/must be an https:\/\/ URL/);
    expect((await configError('http://idp.example.com')).message).toMatch(/must be an https:\/\/ URL/);
    expect((await configError('ftp://idp.example.com')).message).toMatch(/must be an https:\/\/ URL/);
  });

  it('refuses issuers on private addresses without contacting them', async () => {
    expect((await configError('https://10.20.30.40/realms/x')).message).toMatch(/public address/);
    expect((await configError('https://169.254.169.254')).message).toMatch(/public address/);
  });

  it('refuses query strings, fragments and credentials in the issuer', async () => {
    expect((await configError('https://idp.example.com/?tenant=1')).message).toMatch(/query or fragment/);
    expect((await configError('https://user:pw@idp.example.com')).message).toMatch(/credentials/);
  });

  it('requires the client ID and secret', async () => {
    expect((await configError(base, { clientId: '' })).fields).toEqual({ clientId: 'is required' });
    expect((await configError(base, { clientSecret: '   ' })).fields).toEqual({ clientSecret: 'is required' });
    expect((await configError(undefined)).fields).toEqual({ issuer: 'is required' });
  });

  it('reports an issuer that does not exist', async () => {
    const err = await configError(`${base}/missing`);
    expect(err.message).toBe(`issuer: discovery failed: ${base}/missing/.well-known/openid-configuration answered HTTP 404`);
  });

  it('reports an issuer nobody listens on', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await configError(`http://127.0.0.1:${port}`);
    expect(err.message).toMatch(/discovery failed: could not reach http:\/\/127\.0\.0\.1:\d+\/\.well-known\/openid-configuration \(ECONNREFUSED\)/);
  });

  it('reports an issuer that does not answer in time', async () => {
    const err = await rejection(validateOidcConfig({ issuer: `${base}/slow`, ...CLIENT }, { allowLoopback: true, timeoutSeconds: 1 }));
    expect(err).toBeInstanceOf(SsoConfigError);
    expect(err.message).toMatch(/discovery failed: could not reach .*\/slow\/\.well-known\/openid-configuration \(timed out\)/);
  });

  it('reports a document that is not a discovery document', async () => {
    expect((await configError(`${base}/html`)).message).toMatch(/is not an OpenID Connect discovery document/);
  });

  it('reports a document naming another issuer', async () => {
    expect((await configError(`${base}/other`)).message).toMatch(/names another issuer \("https:\/\/someone-else.example"\)/);
  });

  it('reports missing or insecure endpoints and an unsupported flow', async () => {
    expect((await configError(`${base}/nojwks`)).message).toBe('issuer: the discovery document has no jwks_uri');
    expect((await configError(`${base}/plain`)).message).toMatch(/token_endpoint must be an https:\/\/ URL/);
    expect((await configError(`${base}/implicit`)).message).toMatch(/authorization code flow/);
  });

  it('picks client_secret_post when that is all the provider supports', async () => {
    const config = await validateOidcConfig({ issuer: `${base}/post`, ...CLIENT }, { allowLoopback: true });
    expect(config.tokenEndpointAuthMethod).toBe('client_secret_post');
  });
});
