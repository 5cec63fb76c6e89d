import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../../platform/db/types.ts';

/** How a tenant's users sign in through their identity provider. */
export type { SsoProvider } from '../../../platform/db/types.ts';

import { findSsoLogin, findTenantSso, insertSsoLogin, takeSsoLogin, upsertTenantSso } from './sso.queries.ts';
import type { ProvisioningService } from '../provisioning.service.ts';
import { SsoSignInError } from './errors.ts';
import type { OidcConfig } from './oidc.ts';
import type { IdpMetadata, SamlRequestIdStore } from './saml.ts';

// The OIDC and SAML libraries (openid-client; node-saml with its XML signature stack) are loaded on a tenant's first
// SSO step: ~20 MB a server without single sign-on never needs.
const oidc = () => import('./oidc.ts');
const saml = () => import('./saml.ts');

/** A sign-in started at the IdP must come back within 10 minutes. */
const LOGIN_TTL_MS = 10 * 60_000;

/**
 * A tenant's single sign-on: configured on its onboarding page (OIDC: issuer and client, validated by
 * discovery; SAML: the IdP's metadata), then used to sign people in. Sign-ins in progress live in the
 * database (`sso_logins`), so any instance can finish one, and each is taken once.
 */
export function createSsoService(
  db: Kysely<DB>,
  deps: { provisioning: ProvisioningService; publicUrl: () => string; allowLoopback: boolean; now?: () => Date },
) {
  const now = deps.now ?? (() => new Date());
  const base = (tenantId: string) => `${deps.publicUrl()}/sso/${tenantId}`;
  const oidcRedirect = (tenantId: string) => `${base(tenantId)}/oidc/callback`;

  /** SAML request ids (InResponseTo) kept with the other sign-ins in progress. */
  const requestIds = (tenantId: string): SamlRequestIdStore => ({
    saveAsync: async (key, value) => {
      await insertSsoLogin(db, { state: `saml:${key}`, tenantId, nonce: value, codeVerifier: null, expiresAt: new Date(now().getTime() + LOGIN_TTL_MS) });
      return null;
    },
    getAsync: async (key) => (await findSsoLogin(db, `saml:${key}`, now()))?.nonce ?? null,
    removeAsync: async (key) => {
      const row = key ? await takeSsoLogin(db, tenantId, `saml:${key}`, now()) : undefined;
      return row?.nonce ?? null;
    },
  });

  async function connection(tenantId: string) {
    const row = await findTenantSso(db, tenantId);
    if (!row) throw new SsoSignInError('not_configured', 'single sign-on is not set up for this account');
    return row;
  }

  const samlSp = async (tenantId: string, idp: IdpMetadata) =>
    (await saml()).samlServiceProvider({
      idp,
      spEntityId: `${base(tenantId)}/saml`,
      acsUrl: `${base(tenantId)}/saml/acs`,
      requestIdStore: requestIds(tenantId),
    });

  return {
    /** What the tenant registers at its IdP. */
    endpoints: (tenantId: string) => ({
      oidcRedirectUri: oidcRedirect(tenantId),
      samlEntityId: `${base(tenantId)}/saml`,
      samlAcsUrl: `${base(tenantId)}/saml/acs`,
      samlMetadataUrl: `${base(tenantId)}/saml/metadata`,
    }),

    /** Validates (OIDC discovery) and stores an OIDC connection; SsoConfigError names the field at fault. */
    async configureOidc(tenantId: string, input: { issuer: string; clientId: string; clientSecret: string }): Promise<void> {
      const config = await (await oidc()).validateOidcConfig(input, { allowLoopback: deps.allowLoopback });
      await upsertTenantSso(db, tenantId, 'oidc', config);
    },

    /** Parses and stores the IdP's SAML metadata. */
    async configureSaml(tenantId: string, metadataXml: string): Promise<void> {
      await upsertTenantSso(db, tenantId, 'saml', (await saml()).parseIdpMetadata(metadataXml));
    },

    /** The URL to send the browser to, at the tenant's IdP. */
    async start(tenantId: string): Promise<string> {
      const { provider, config } = await connection(tenantId);
      if (provider === 'saml') return (await samlSp(tenantId, config as IdpMetadata)).authorizeUrl();
      const started = await (await oidc()).startOidcSignIn(config as OidcConfig, { redirectUri: oidcRedirect(tenantId) });
      await insertSsoLogin(db, {
        state: started.state,
        tenantId,
        nonce: started.nonce,
        codeVerifier: started.codeVerifier,
        expiresAt: new Date(now().getTime() + LOGIN_TTL_MS),
      });
      return started.authorizationUrl;
    },

    /** The OIDC callback: validates it and opens a session. */
    async finishOidc(tenantId: string, callbackUrl: string) {
      const { provider, config } = await connection(tenantId);
      if (provider !== 'oidc') throw new SsoSignInError('not_configured', 'this account signs in with SAML');
      const state = new URL(callbackUrl).searchParams.get('state') ?? '';
      const login = state ? await takeSsoLogin(db, tenantId, state, now()) : undefined;
      const identity = await (
        await oidc()
      ).finishOidcSignIn(config as OidcConfig, {
        currentUrl: callbackUrl,
        state: login?.state ?? '',
        nonce: login?.nonce ?? '',
        codeVerifier: login?.codeVerifier ?? randomBytes(32).toString('base64url'),
        redirectUri: oidcRedirect(tenantId),
      });
      return deps.provisioning.signInFederated(tenantId, identity);
    },

    /** The SAML ACS post: validates the signed response and opens a session. */
    async finishSaml(tenantId: string, samlResponse: string) {
      const { provider, config } = await connection(tenantId);
      if (provider !== 'saml') throw new SsoSignInError('not_configured', 'this account signs in with OIDC');
      const identity = await (await samlSp(tenantId, config as IdpMetadata)).validatePostResponse(samlResponse);
      return deps.provisioning.signInFederated(tenantId, identity);
    },

    /** Our SP metadata for the tenant's IdP (only once SAML is configured). */
    async samlMetadata(tenantId: string): Promise<string> {
      const { provider, config } = await connection(tenantId);
      if (provider !== 'saml') throw new SsoSignInError('not_configured', 'this account does not use SAML');
      return (await samlSp(tenantId, config as IdpMetadata)).metadataXml();
    },
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
