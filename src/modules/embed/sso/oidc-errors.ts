import * as client from 'openid-client';
import { SsoConfigError, SsoSignInError } from './errors.ts';
import { OutboundRefused } from './guarded-fetch.ts';

// Turns openid-client / oauth4webapi failures into SsoConfigError / SsoSignInError with safe messages. The
// library error stays in `cause` for logs; messages name error codes and URLs, never tokens or secrets.

export const DISCOVERY_SUFFIX = '/.well-known/openid-configuration';

export function discoveryError(err: unknown, issuer: URL): SsoConfigError {
  const where = `${issuer.href.replace(/\/$/, '')}${DISCOVERY_SUFFIX}`;
  const e = err as { code?: string; cause?: unknown };
  const refused = causes(err).find((c) => c instanceof OutboundRefused);
  if (refused) return new SsoConfigError('issuer', refused.message, err);
  switch (e.code) {
    case 'OAUTH_RESPONSE_IS_NOT_CONFORM': {
      const status = (e.cause as Response | undefined)?.status;
      return new SsoConfigError('issuer', `discovery failed: ${where} answered HTTP ${status ?? 'error'}`, err);
    }
    case 'OAUTH_RESPONSE_IS_NOT_JSON':
    case 'OAUTH_PARSE_ERROR':
    case 'OAUTH_INVALID_RESPONSE':
      return new SsoConfigError('issuer', `discovery failed: ${where} is not an OpenID Connect discovery document`, err);
    case 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED': {
      const body = (e.cause as { body?: { issuer?: unknown } } | undefined)?.body;
      const named = typeof body?.issuer === 'string' ? ` ("${printable(body.issuer)}")` : '';
      return new SsoConfigError(
        'issuer',
        `the discovery document names another issuer${named}; enter the issuer exactly as the identity provider states it`,
        err,
      );
    }
  }
  const reason = networkReason(err);
  return new SsoConfigError('issuer', `discovery failed: could not reach ${where}${reason ? ` (${reason})` : ''}`, err);
}

export function signInError(err: unknown, doing = 'completing the sign-in failed'): SsoSignInError {
  if (err instanceof SsoSignInError) return err;
  const oauthError =
    err instanceof client.ResponseBodyError
      ? err.error
      : err instanceof client.WWWAuthenticateChallengeError
        ? err.cause.map((c) => c.parameters.error).find(Boolean)
        : undefined;
  if (oauthError === 'invalid_grant') {
    return new SsoSignInError('code_rejected', 'the identity provider rejected the authorization code (invalid, expired or already used); start again', err);
  }
  if (oauthError === 'invalid_client' || oauthError === 'unauthorized_client') {
    return new SsoSignInError('client_rejected', `the identity provider rejected the client credentials (${oauthError}); check the client ID and secret`, err);
  }
  if (oauthError) return new SsoSignInError('upstream', `${doing}: the identity provider answered ${printable(oauthError)}`, err);
  if (err instanceof client.AuthorizationResponseError) {
    return new SsoSignInError('idp_error', `the identity provider refused the sign-in (${printable(err.error)})`, err);
  }
  const code = (err as { code?: string }).code;
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && causes(err).some((c) => (c as { claim?: unknown }).claim === 'nonce')) {
    return new SsoSignInError('nonce_mismatch', 'the ID token does not belong to this sign-in attempt (nonce mismatch); start again', err);
  }
  if (code?.startsWith('OAUTH_JWT') || code === 'OAUTH_KEY_SELECTION_FAILED' || code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') {
    return new SsoSignInError('token_invalid', 'the identity provider returned an ID token that failed validation', err);
  }
  const refusedCall = causes(err).find((c) => c instanceof OutboundRefused);
  const reason = refusedCall ? refusedCall.message : networkReason(err);
  return new SsoSignInError('upstream', `${doing}${reason ? ` (${reason})` : ''}`, err);
}

/** The error and its causes, outermost first. */
function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let cur = err; cur && typeof cur === 'object' && chain.length < 5; cur = (cur as { cause?: unknown }).cause) chain.push(cur);
  return chain;
}

function networkReason(err: unknown): string | null {
  for (const c of causes(err) as Array<{ code?: unknown; name?: unknown }>) {
    if (typeof c.code === 'string' && /^E[A-Z_]+$/.test(c.code)) return c.code;
    if (c.name === 'TimeoutError') return 'timed out';
  }
  return null;
}

/** An IdP-supplied token (error code, issuer) trimmed to printable ASCII for a message. */
export function printable(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, 100);
}
