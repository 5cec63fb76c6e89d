import { type CacheProvider, SAML, SamlStatusError, ValidateInResponseTo, generateServiceProviderMetadata } from '@node-saml/node-saml';
import { SsoSignInError } from './errors.ts';
import { type IdpMetadata, isAbsoluteUrl, isBrowserUrl } from './saml-metadata.ts';
import { NS, type XmlElement, attr, children, parseXml, text } from './xml.ts';

export { type IdpMetadata, parseIdpMetadata } from './saml-metadata.ts';

// SAML 2.0 Web Browser SSO for a tenant's identity provider: SP-initiated AuthnRequest over HTTP-Redirect, the
// Response over HTTP-POST to our ACS URL. node-saml verifies the XML signature (response or assertion) against
// the IdP's certificates only, the audience and the Conditions times; this module adds the issuer, the
// destination/recipient, the bearer confirmation times, and maps every failure to a safe SsoSignInError.

/** Keeps the IDs of AuthnRequests sent until their response arrives (one use). node-saml's CacheProvider. */
export type SamlRequestIdStore = CacheProvider;

export interface SamlServiceProviderOptions {
  idp: Pick<IdpMetadata, 'entityId' | 'ssoUrl' | 'certificates'> & Partial<Pick<IdpMetadata, 'ssoBinding'>>;
  spEntityId: string;
  acsUrl: string;
  /**
   * Tracks the IDs of our AuthnRequests so each Response must answer one of them, once (InResponseTo).
   * Shared across instances when there are several (a table); without it InResponseTo is not checked.
   */
  requestIdStore?: SamlRequestIdStore;
  /** With a store: also accept IdP-initiated responses (no InResponseTo). Default false. */
  allowUnsolicited?: boolean;
  /** Tolerated clock difference with the IdP for NotBefore/NotOnOrAfter. Default 60 s. */
  clockSkewMs?: number;
  /** How long a request ID stays valid in the store. Default 10 minutes. */
  requestTtlMs?: number;
}

export interface SamlIdentity {
  issuer: string;
  nameId: string;
  nameIdFormat: string | null;
  email: string | null;
  name: string | null;
  sessionIndex: string | null;
  /** Every attribute of the assertion with string values, by its Name. */
  attributes: Record<string, string | string[]>;
}

export interface SamlServiceProvider {
  /** The IdP URL to redirect the browser to (a deflated, base64 AuthnRequest); relayState comes back as is. */
  authorizeUrl(relayState?: string): Promise<string>;
  /** Validates the base64 `SAMLResponse` form field posted to the ACS URL. */
  validatePostResponse(samlResponse: string): Promise<SamlIdentity>;
  /** Our SP metadata, for the tenant to register us at their IdP. */
  metadataXml(): string;
}

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const MAX_RESPONSE_CHARS = 1_000_000;
const DEFAULT_CLOCK_SKEW_MS = 60_000;
const DEFAULT_REQUEST_TTL_MS = 10 * 60_000;

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'http://schemas.microsoft.com/identity/claims/displayname',
  'cn',
  'urn:oid:2.5.4.3',
];
const GIVEN_NAME = ['givenName', 'firstName', 'urn:oid:2.5.4.42', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'];
const SURNAME = ['sn', 'surname', 'lastName', 'urn:oid:2.5.4.4', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'];

/** A service provider for one tenant's IdP. Cheap to build per request when `requestIdStore` is shared. */
export function samlServiceProvider(options: SamlServiceProviderOptions): SamlServiceProvider {
  const { idp, requestIdStore } = options;
  const spEntityId = options.spEntityId?.trim();
  if (!spEntityId) throw new TypeError('spEntityId is required');
  if (!isAbsoluteUrl(options.acsUrl)) throw new TypeError('acsUrl must be an absolute URL');
  if (!idp?.entityId || !isBrowserUrl(idp.ssoUrl) || !idp.certificates?.length) {
    throw new TypeError('idp must have an entityId, an https ssoUrl and at least one certificate');
  }
  const acsUrl = options.acsUrl;
  const clockSkewMs = options.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS;
  const validateInResponseTo = !requestIdStore
    ? ValidateInResponseTo.never
    : options.allowUnsolicited
      ? ValidateInResponseTo.ifPresent
      : ValidateInResponseTo.always;

  const saml = new SAML({
    entryPoint: idp.ssoUrl,
    issuer: spEntityId,
    audience: spEntityId,
    callbackUrl: acsUrl,
    idpCert: [...idp.certificates],
    idpIssuer: idp.entityId,
    // Either signature is enough (IdPs differ in what they sign); node-saml then reads the assertion from the
    // signed bytes only. An unsigned assertion in an unsigned response is refused.
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: clockSkewMs,
    validateInResponseTo,
    ...(requestIdStore ? { cacheProvider: requestIdStore } : {}),
    requestIdExpirationPeriodMs: options.requestTtlMs ?? DEFAULT_REQUEST_TTL_MS,
    // Let the IdP choose the NameID format and authentication method: asking for specific ones makes some
    // IdPs (ADFS, Entra ID with MFA) refuse the request.
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    authnRequestBinding: 'HTTP-Redirect',
  });

  return {
    async authorizeUrl(relayState?: string) {
      if (relayState !== undefined && Buffer.byteLength(relayState) > 80) {
        throw new TypeError('relayState must be at most 80 bytes (SAML bindings §3.4.3)');
      }
      return saml.getAuthorizeUrlAsync(relayState ?? '', undefined, {});
    },

    async validatePostResponse(samlResponse: string) {
      const xml = decodeResponse(samlResponse);
      let profile;
      try {
        ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(xml).toString('base64') }));
      } catch (err) {
        throw responseError(err);
      }
      if (!profile) throw new SsoSignInError('invalid_response', 'the SAML response carries no assertion');
      const assertionXml = profile.getAssertionXml?.();
      if (!assertionXml) throw new SsoSignInError('invalid_response', 'the SAML response carries no assertion');
      let response: XmlElement;
      let assertion: XmlElement;
      try {
        response = parseXml(xml);
        assertion = parseXml(assertionXml);
      } catch (err) {
        throw new SsoSignInError('invalid_response', 'the SAML response is malformed', err);
      }

      if (typeof profile.nameID !== 'string' || profile.nameID.trim() === '') {
        throw new SsoSignInError('invalid_response', 'the SAML assertion names no subject (NameID)');
      }
      if (profile.issuer !== idp.entityId) {
        throw new SsoSignInError('issuer_mismatch', 'the SAML assertion was issued by another identity provider');
      }
      const destination = attr(response, 'Destination');
      if (destination !== undefined && destination !== acsUrl) {
        throw new SsoSignInError('destination_mismatch', 'the SAML response is addressed to another service (Destination)');
      }
      checkBearerConfirmation(assertion, {
        acsUrl,
        clockSkewMs,
        inResponseTo: validateInResponseTo === ValidateInResponseTo.never ? undefined : attr(response, 'InResponseTo'),
      });
      return identityOf(profile.nameID.trim(), profile.nameIDFormat ?? null, profile.issuer, assertion);
    },

    metadataXml() {
      return generateServiceProviderMetadata({
        issuer: spEntityId,
        callbackUrl: acsUrl,
        wantAssertionsSigned: true,
        identifierFormat: EMAIL_FORMAT,
      });
    },
  };
}

/** A request-ID store for a single instance; IDs older than `ttlMs` are dropped as new ones are saved. */
export function inMemoryRequestIdStore(ttlMs = DEFAULT_REQUEST_TTL_MS): SamlRequestIdStore {
  const items = new Map<string, { value: string; createdAt: number }>();
  return {
    async saveAsync(key, value) {
      const now = Date.now();
      for (const [k, item] of items) {
        if (now - item.createdAt < ttlMs) break; // insertion order: the rest are younger
        items.delete(k);
      }
      if (items.has(key)) return null;
      const item = { value, createdAt: now };
      items.set(key, item);
      return item;
    },
    async getAsync(key) {
      const item = items.get(key);
      return item && Date.now() - item.createdAt < ttlMs ? item.value : null;
    },
    async removeAsync(key) {
      if (key === null || !items.delete(key)) return null;
      return key;
    },
  };
}

/**
 * The Web SSO profile's bearer SubjectConfirmation: addressed to our ACS URL, within its time window, and (when
 * tracked) answering our request. node-saml only checks these when it tracks InResponseTo.
 */
function checkBearerConfirmation(assertion: XmlElement, expect: { acsUrl: string; clockSkewMs: number; inResponseTo: string | undefined }): void {
  const confirmations = children(assertion, NS.assertion, 'Subject')
    .flatMap((s) => children(s, NS.assertion, 'SubjectConfirmation'))
    .filter((c) => attr(c, 'Method') === BEARER)
    .flatMap((c) => children(c, NS.assertion, 'SubjectConfirmationData'));
  if (confirmations.length === 0) {
    throw new SsoSignInError('invalid_response', 'the SAML assertion has no bearer SubjectConfirmation');
  }
  const toUs = confirmations.filter((d) => attr(d, 'Recipient') === expect.acsUrl);
  if (toUs.length === 0) {
    throw new SsoSignInError('destination_mismatch', 'the SAML assertion is addressed to another service (Recipient)');
  }
  const now = Date.now();
  const current = toUs.filter((d) => {
    const notOnOrAfter = Date.parse(attr(d, 'NotOnOrAfter') ?? '');
    const notBefore = attr(d, 'NotBefore');
    if (Number.isNaN(notOnOrAfter) || now - expect.clockSkewMs >= notOnOrAfter) return false;
    return notBefore === undefined || now + expect.clockSkewMs >= Date.parse(notBefore);
  });
  if (current.length === 0) {
    throw new SsoSignInError('expired', 'the SAML assertion is expired or not yet valid; check the clocks and sign in again');
  }
  if (expect.inResponseTo !== undefined && !current.some((d) => attr(d, 'InResponseTo') === expect.inResponseTo)) {
    throw new SsoSignInError('request_mismatch', 'the SAML assertion does not answer our sign-in request (InResponseTo)');
  }
}

function identityOf(nameId: string, nameIdFormat: string | null, issuer: string, assertion: XmlElement): SamlIdentity {
  const attributes: Record<string, string | string[]> = {};
  for (const statement of children(assertion, NS.assertion, 'AttributeStatement')) {
    for (const attribute of children(statement, NS.assertion, 'Attribute')) {
      const name = attr(attribute, 'Name');
      if (!name) continue;
      const values = children(attribute, NS.assertion, 'AttributeValue')
        .map(text)
        .map((v) => v.trim())
        .filter(Boolean);
      if (values.length > 0) attributes[name] = values.length === 1 ? values[0]! : values;
    }
  }
  const first = (names: string[]) => {
    for (const n of names) {
      const v = attributes[n];
      const s = Array.isArray(v) ? v[0] : v;
      if (s) return s;
    }
    return null;
  };
  const email = first(EMAIL_ATTRIBUTES) ?? (nameIdFormat === EMAIL_FORMAT || /^[^@\s]+@[^@\s]+$/.test(nameId) ? nameId : null);
  const given = first(GIVEN_NAME);
  const surname = first(SURNAME);
  const name = first(NAME_ATTRIBUTES) ?? ([given, surname].filter(Boolean).join(' ') || null);
  const sessionIndex =
    children(assertion, NS.assertion, 'AuthnStatement')
      .map((s) => attr(s, 'SessionIndex'))
      .find(Boolean) ?? null;
  return { issuer, nameId, nameIdFormat, email, name, sessionIndex, attributes };
}

function decodeResponse(samlResponse: string): string {
  if (typeof samlResponse !== 'string' || samlResponse.trim() === '') {
    throw new SsoSignInError('invalid_response', 'the SAMLResponse is missing');
  }
  const compact = samlResponse.replace(/\s+/g, '');
  if (compact.length > MAX_RESPONSE_CHARS) throw new SsoSignInError('invalid_response', 'the SAMLResponse is too large');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw new SsoSignInError('invalid_response', 'the SAMLResponse is not base64');
  const xml = Buffer.from(compact, 'base64').toString('utf8').trim();
  if (!xml.startsWith('<')) throw new SsoSignInError('invalid_response', 'the SAMLResponse is not an XML document');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SsoSignInError('invalid_response', 'the SAMLResponse contains a document type definition');
  return xml;
}

function responseError(err: unknown): SsoSignInError {
  if (err instanceof SsoSignInError) return err;
  if (err instanceof SamlStatusError) {
    const status = /returned (\w+) error/.exec(err.message)?.[1] ?? 'an error';
    return new SsoSignInError('idp_error', `the identity provider did not sign the user in (status ${status})`, err);
  }
  const message = err instanceof Error ? err.message : String(err);
  const rules: Array<[RegExp, ConstructorParameters<typeof SsoSignInError>[0], string]> = [
    [/multiple assertions/i, 'invalid_response', 'the SAML response must carry exactly one assertion'],
    [
      /signature|ID cannot refer|Referenced node/i,
      'signature_invalid',
      "the SAML response is not signed with the identity provider's certificate, or was altered after signing",
    ],
    [/expired|not yet valid|No valid subject confirmation/i, 'expired', 'the SAML assertion is expired or not yet valid; check the clocks and sign in again'],
    [/AudienceRestriction/, 'audience_mismatch', 'the SAML assertion names no audience (Conditions/AudienceRestriction)'],
    [/audience/i, 'audience_mismatch', 'the SAML assertion is meant for another service provider (Audience)'],
    [/InResponseTo/i, 'request_mismatch', 'the SAML response does not answer a current sign-in request of ours (InResponseTo); start again'],
    [/issuer/i, 'issuer_mismatch', 'the SAML response was issued by another identity provider'],
    [/decrypt|EncryptedAssertion/i, 'invalid_response', 'encrypted SAML assertions are not supported; turn assertion encryption off at the identity provider'],
    [/Missing SAML assertion/i, 'invalid_response', 'the SAML response carries no assertion'],
  ];
  for (const [pattern, reason, safe] of rules) if (pattern.test(message)) return new SsoSignInError(reason, safe, err);
  return new SsoSignInError('invalid_response', 'the SAML response is malformed', err);
}
