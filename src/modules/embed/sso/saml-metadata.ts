import { X509Certificate } from 'node:crypto';
import { SsoConfigError } from './errors.ts';
import { NS, type XmlElement, attr, children, descendants, isElement, parseXml, text } from './xml.ts';

// Reading an identity provider's SAML 2.0 metadata, as the tenant owner pastes it on the setup page.

export interface IdpMetadata {
  entityId: string;
  /** Where AuthnRequests go: the HTTP-Redirect SingleSignOnService, else the HTTP-POST one. */
  ssoUrl: string;
  ssoBinding: 'HTTP-Redirect' | 'HTTP-POST';
  /** The IdP's signing certificates, PEM. */
  certificates: string[];
  wantAuthnRequestsSigned: boolean;
}

const BINDING = {
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
};
const MAX_METADATA_CHARS = 1_000_000;

/** Reads the IdP's SAML 2.0 metadata; throws SsoConfigError (field `metadata`) saying what is missing. */
export function parseIdpMetadata(xml: string): IdpMetadata {
  const refuse = (problem: string, cause?: unknown) => new SsoConfigError('metadata', problem, cause);
  if (typeof xml !== 'string' || xml.trim() === '') throw refuse('is required');
  if (xml.length > MAX_METADATA_CHARS) throw refuse('is too large');
  let root: XmlElement;
  try {
    root = parseXml(xml.trim());
  } catch (err) {
    throw refuse(`is not well-formed XML (${firstLine(err)})`, err);
  }
  const entities = isElement(root, NS.metadata, 'EntityDescriptor')
    ? [root]
    : isElement(root, NS.metadata, 'EntitiesDescriptor')
      ? descendants(root, NS.metadata, 'EntityDescriptor')
      : null;
  if (!entities) throw refuse('is not SAML 2.0 metadata (expected an EntityDescriptor)');
  const idps = entities.filter((e) => children(e, NS.metadata, 'IDPSSODescriptor').length > 0);
  if (idps.length === 0) throw refuse('describes no identity provider (no IDPSSODescriptor)');
  if (idps.length > 1) throw refuse(`describes ${idps.length} identity providers; use the metadata of one`);
  const entity = idps[0]!;
  const entityId = attr(entity, 'entityID')?.trim();
  if (!entityId) throw refuse('has no entityID');

  const descriptor = children(entity, NS.metadata, 'IDPSSODescriptor').find((d) =>
    (attr(d, 'protocolSupportEnumeration') ?? '').split(/\s+/).includes(NS.protocol),
  );
  if (!descriptor) throw refuse('has no IDPSSODescriptor for the SAML 2.0 protocol');

  const services = children(descriptor, NS.metadata, 'SingleSignOnService');
  const redirect = services.find((s) => attr(s, 'Binding') === BINDING.redirect);
  const post = services.find((s) => attr(s, 'Binding') === BINDING.post);
  const service = redirect ?? post;
  if (!service) throw refuse('has no SingleSignOnService with the HTTP-Redirect or HTTP-POST binding');
  const ssoUrl = attr(service, 'Location')?.trim() ?? '';
  if (!isBrowserUrl(ssoUrl)) throw refuse('has a SingleSignOnService Location that is not an https:// URL');

  const certificates: string[] = [];
  for (const key of children(descriptor, NS.metadata, 'KeyDescriptor')) {
    const use = attr(key, 'use');
    if (use !== undefined && use !== 'signing') continue;
    for (const node of descendants(key, NS.dsig, 'X509Certificate')) {
      const pem = certificateToPem(text(node), certificates.length + 1, refuse);
      if (!certificates.includes(pem)) certificates.push(pem);
    }
  }
  if (certificates.length === 0) throw refuse('has no signing certificate (KeyDescriptor use="signing" with an X509Certificate)');

  return {
    entityId,
    ssoUrl,
    ssoBinding: service === redirect ? 'HTTP-Redirect' : 'HTTP-POST',
    certificates,
    wantAuthnRequestsSigned: attr(descriptor, 'WantAuthnRequestsSigned') === 'true',
  };
}

function certificateToPem(raw: string, index: number, refuse: (problem: string, cause?: unknown) => SsoConfigError): string {
  const body = raw.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  try {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new Error('not base64');
    return new X509Certificate(Buffer.from(body, 'base64')).toString();
  } catch (err) {
    throw refuse(`signing certificate ${index} is not a valid X.509 certificate`, err);
  }
}

export function isAbsoluteUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** https, or http to the local machine (an IdP under development). */
export function isBrowserUrl(value: unknown): value is string {
  if (!isAbsoluteUrl(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 120);
}
