import * as client from 'openid-client';
import { SsoConfigError, SsoSignInError } from './errors.ts';
import { guardedFetch } from './guarded-fetch.ts';
import { DISCOVERY_SUFFIX, discoveryError, printable, signInError } from './oidc-errors.ts';

// OpenID Connect sign-in for a tenant's own identity provider: authorization code flow with PKCE (S256),
// state and nonce. Framework-independent: the caller stores the config (the client secret encrypted at rest),
// keeps state/nonce/codeVerifier between start and finish (a short-lived cookie or table), and mounts routes.

export interface OidcConfigInput {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface OidcOptions {
  /** Accept http:// issuers and endpoints on 127.0.0.1/localhost/[::1] (tests, local development). */
  allowLoopback?: boolean;
  /** Timeout of each request to the identity provider, in seconds (default 10). */
  timeoutSeconds?: number;
}

/** The endpoints of the identity provider, as discovered; plain JSON, safe to store with the tenant. */
export interface OidcServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  end_session_endpoint?: string;
  id_token_signing_alg_values_supported?: string[];
  /** RFC 9207: the IdP adds `iss` to its callbacks, so a callback without it is refused (mix-up defence). */
  authorization_response_iss_parameter_supported?: boolean;
}

/** A validated, normalized tenant OIDC configuration (JSON-serializable). */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
  server: OidcServerMetadata;
  allowLoopback: boolean;
  timeoutSeconds: number;
}

export interface OidcSignInStart {
  authorizationUrl: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcSignInFinish {
  /** The callback URL as received (its query carries code, state, iss or error). */
  currentUrl: string | URL;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The redirect_uri of the authorization request; the token request repeats it exactly. */
  redirectUri: string;
}

export interface OidcIdentity {
  issuer: string;
  /** `sub`: stable per issuer; key users by (issuer, subject), not by email. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

const DEFAULT_TIMEOUT_SECONDS = 10;
const SCOPE = 'openid email profile';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Discovers the issuer and checks what sign-in needs; throws SsoConfigError naming the field at fault. */
export async function validateOidcConfig(input: OidcConfigInput, options: OidcOptions = {}): Promise<OidcConfig> {
  const allowLoopback = options.allowLoopback ?? false;
  const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const issuerUrl = parseIssuer(input?.issuer, allowLoopback);
  const clientId = requiredText(input?.clientId, 'clientId');
  const clientSecret = requiredText(input?.clientSecret, 'clientSecret');

  let discovered: client.Configuration;
  try {
    discovered = await client.discovery(issuerUrl, clientId, undefined, client.None(), {
      timeout: timeoutSeconds,
      [client.customFetch]: guardedFetch({ allowLoopback }),
      ...(issuerUrl.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
    });
  } catch (err) {
    throw discoveryError(err, issuerUrl);
  }
  const meta = discovered.serverMetadata();
  const server: OidcServerMetadata = {
    issuer: meta.issuer,
    authorization_endpoint: endpoint(meta.authorization_endpoint, 'authorization_endpoint', allowLoopback, true)!,
    token_endpoint: endpoint(meta.token_endpoint, 'token_endpoint', allowLoopback, true)!,
    jwks_uri: endpoint(meta.jwks_uri, 'jwks_uri', allowLoopback, true)!,
  };
  const userinfo = endpoint(meta.userinfo_endpoint, 'userinfo_endpoint', allowLoopback, false);
  if (userinfo) server.userinfo_endpoint = userinfo;
  const endSession = endpoint(meta.end_session_endpoint, 'end_session_endpoint', allowLoopback, false);
  if (endSession) server.end_session_endpoint = endSession;
  if (Array.isArray(meta.id_token_signing_alg_values_supported)) {
    server.id_token_signing_alg_values_supported = meta.id_token_signing_alg_values_supported.filter((a) => typeof a === 'string');
  }
  if (meta.authorization_response_iss_parameter_supported === true) server.authorization_response_iss_parameter_supported = true;
  if (Array.isArray(meta.response_types_supported) && !meta.response_types_supported.includes('code')) {
    throw new SsoConfigError('issuer', 'the identity provider does not support the authorization code flow (response_type "code")');
  }
  const methods = meta.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const tokenEndpointAuthMethod = methods.includes('client_secret_basic')
    ? 'client_secret_basic'
    : methods.includes('client_secret_post')
      ? 'client_secret_post'
      : null;
  if (!tokenEndpointAuthMethod) {
    throw new SsoConfigError('issuer', 'the identity provider supports neither client_secret_basic nor client_secret_post client authentication');
  }
  return { issuer: server.issuer, clientId, clientSecret, tokenEndpointAuthMethod, server, allowLoopback, timeoutSeconds };
}

/** Builds the authorization URL (code flow, PKCE S256, state, nonce); the caller keeps the three secrets. */
export async function startOidcSignIn(config: OidcConfig, { redirectUri }: { redirectUri: string }): Promise<OidcSignInStart> {
  const redirect = parseRedirectUri(redirectUri);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorizationUrl = client.buildAuthorizationUrl(clientConfiguration(config), {
    redirect_uri: redirect.href,
    scope: SCOPE,
    response_type: 'code',
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { authorizationUrl: authorizationUrl.href, state, nonce, codeVerifier };
}

/** Validates the callback, redeems the code and returns who signed in; throws SsoSignInError otherwise. */
export async function finishOidcSignIn(config: OidcConfig, input: OidcSignInFinish): Promise<OidcIdentity> {
  const callback = callbackUrl(input.currentUrl, input.redirectUri);
  const params = callback.searchParams;
  const idpError = params.get('error');
  if (idpError) {
    throw new SsoSignInError('idp_error', `the identity provider refused the sign-in (${printable(idpError)})`);
  }
  if (!input.state || params.get('state') !== input.state) {
    throw new SsoSignInError('state_mismatch', 'the sign-in response does not belong to this sign-in attempt (state mismatch); start again');
  }
  const iss = params.get('iss');
  if (iss !== null ? iss !== config.server.issuer : config.server.authorization_response_iss_parameter_supported) {
    throw new SsoSignInError('issuer_mismatch', 'the sign-in response does not come from the configured identity provider (iss)');
  }
  if (!params.get('code')) throw new SsoSignInError('invalid_response', 'the sign-in response has no authorization code');
  if (!input.nonce || !input.codeVerifier) {
    throw new SsoSignInError('state_mismatch', 'the sign-in attempt has expired or is incomplete; start again');
  }

  const cfg = clientConfiguration(config);
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(cfg, callback, {
      pkceCodeVerifier: input.codeVerifier,
      expectedState: input.state,
      expectedNonce: input.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    throw signInError(err);
  }
  const claims = tokens.claims();
  if (!claims) throw new SsoSignInError('token_invalid', 'the identity provider returned no ID token');

  let profile: Record<string, unknown> = { ...claims };
  if ((!text(claims.email) || !displayName(claims)) && config.server.userinfo_endpoint) {
    try {
      const userinfo = await client.fetchUserInfo(cfg, tokens.access_token, claims.sub);
      profile = { ...userinfo, ...withoutEmpty(claims) };
    } catch (err) {
      if (!text(claims.email)) throw signInError(err, 'reading the user profile (userinfo) failed');
    }
  }
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: text(profile.email),
    emailVerified: profile.email_verified === true || profile.email_verified === 'true',
    name: displayName(profile),
  };
}

/** The openid-client Configuration for a stored config (no rediscovery). */
function clientConfiguration(config: OidcConfig): client.Configuration {
  const auth =
    config.tokenEndpointAuthMethod === 'client_secret_post' ? client.ClientSecretPost(config.clientSecret) : client.ClientSecretBasic(config.clientSecret);
  const cfg = new client.Configuration(
    { ...config.server },
    config.clientId,
    { client_secret: config.clientSecret, token_endpoint_auth_method: config.tokenEndpointAuthMethod },
    auth,
  );
  cfg.timeout = config.timeoutSeconds;
  cfg[client.customFetch] = guardedFetch({ allowLoopback: config.allowLoopback });
  if (config.allowLoopback && new URL(config.issuer).protocol === 'http:') client.allowInsecureRequests(cfg);
  return cfg;
}

function parseIssuer(raw: unknown, allowLoopback: boolean): URL {
  let value = requiredText(raw, 'issuer');
  // People paste the discovery URL itself; the issuer is what precedes the well-known suffix.
  if (value.endsWith(DISCOVERY_SUFFIX)) value = value.slice(0, -DISCOVERY_SUFFIX.length);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SsoConfigError('issuer', 'must be an absolute URL such as https://login.example.com');
  }
  if (url.search || url.hash) throw new SsoConfigError('issuer', 'must not contain a query or fragment');
  if (url.username || url.password) throw new SsoConfigError('issuer', 'must not contain credentials');
  if (url.pathname.includes('/.well-known/')) throw new SsoConfigError('issuer', 'must be the issuer URL, not a .well-known document');
  checkScheme(url, 'issuer', allowLoopback);
  return url;
}

function checkScheme(url: URL, field: string, allowLoopback: boolean): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && allowLoopback && LOOPBACK_HOSTS.has(url.hostname)) return;
  throw new SsoConfigError(field, `must be an https:// URL (got ${url.protocol}//${url.host})`);
}

function endpoint(value: unknown, name: string, allowLoopback: boolean, required: true): string;
function endpoint(value: unknown, name: string, allowLoopback: boolean, required: false): string | undefined;
function endpoint(value: unknown, name: string, allowLoopback: boolean, required: boolean): string | undefined {
  if (value === undefined || value === null || value === '') {
    if (required) throw new SsoConfigError('issuer', `the discovery document has no ${name}`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new SsoConfigError('issuer', `the discovery document's ${name} is not a valid URL`);
  }
  try {
    checkScheme(url, 'issuer', allowLoopback);
  } catch {
    throw new SsoConfigError('issuer', `the discovery document's ${name} must be an https:// URL`);
  }
  return url.href;
}

function requiredText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new SsoConfigError(field, 'is required');
  if (value.trim().length > 2048) throw new SsoConfigError(field, 'is too long');
  return value.trim();
}

function parseRedirectUri(raw: string): URL {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
    if (url.hash) throw new Error('fragment');
    return url;
  } catch {
    throw new TypeError('redirectUri must be an absolute http(s) URL without a fragment');
  }
}

/** The registered redirect URI with the callback's query: behind a proxy the request URL may differ. */
function callbackUrl(currentUrl: string | URL, redirectUri: string): URL {
  let current: URL;
  try {
    current = new URL(String(currentUrl), 'http://callback.invalid');
  } catch {
    throw new SsoSignInError('invalid_response', 'the sign-in response URL is malformed');
  }
  const url = parseRedirectUri(redirectUri);
  for (const [k, v] of current.searchParams) url.searchParams.set(k, v);
  return url;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function displayName(claims: Record<string, unknown>): string | null {
  const full = text(claims.name);
  if (full) return full;
  const parts = [text(claims.given_name), text(claims.family_name)].filter(Boolean);
  return parts.length ? parts.join(' ') : null;
}

function withoutEmpty(claims: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
