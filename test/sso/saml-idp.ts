import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

// A test SAML identity provider: an RSA key pair with a self-signed certificate (openssl), its metadata, and
// Responses built and signed the way an IdP signs them (enveloped signature, exclusive c14n, RSA-SHA256).

export interface KeyPair {
  key: string;
  cert: string;
}

export function idpKeyPair(commonName = 'test-idp'): KeyPair {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'test-saml-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-sha256',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-subj',
        `/CN=${commonName}`,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The base64 body of a PEM certificate, as metadata carries it. */
export function certBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

export function idpMetadata(options: { entityId: string; ssoUrl: string; cert: string; encryptionCert?: string }): string {
  const key = (use: string, cert: string) => `
    <md:KeyDescriptor use="${use}">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(cert).replace(/(.{64})/g, '$1\n')}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${options.entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${key('signing', options.cert)}${options.encryptionCert ? key('encryption', options.encryptionCert) : ''}
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${options.ssoUrl}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${options.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

export interface ResponseOptions {
  idpEntityId: string;
  audience: string;
  recipient: string;
  destination?: string;
  email?: string;
  displayName?: string;
  inResponseTo?: string;
  /** Validity window of the assertion relative to now, in ms (default -60 s .. +5 min). */
  notBeforeMs?: number;
  notOnOrAfterMs?: number;
  /** Extra attributes, name → values. */
  attributes?: Record<string, string[]>;
}

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

export function samlResponse(o: ResponseOptions): string {
  const email = o.email ?? 'ada@example.com';
  const notBefore = iso(o.notBeforeMs ?? -60_000);
  const notOnOrAfter = iso(o.notOnOrAfterMs ?? 5 * 60_000);
  const irt = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
  const attributes = { email: [email], displayName: [o.displayName ?? 'Ada Lovelace'], ...o.attributes };
  const attributeXml = Object.entries(attributes)
    .map(
      ([name, values]) =>
        `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
          .map((v) => `<saml:AttributeValue>${v}</saml:AttributeValue>`)
          .join('')}</saml:Attribute>`,
    )
    .join('');
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${iso(0)}" Destination="${o.destination ?? o.recipient}"${irt}>` +
    `<saml:Issuer>${o.idpEntityId}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="_a${randomUUID()}" Version="2.0" IssueInstant="${iso(0)}">` +
    `<saml:Issuer>${o.idpEntityId}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${o.recipient}"${irt}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="_session-1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attributeXml}</saml:AttributeStatement>` +
    `</saml:Assertion></samlp:Response>`
  );
}

/** Signs the Assertion or the Response (enveloped, exclusive c14n, RSA-SHA256), placing the signature after its Issuer. */
export function sign(xml: string, what: 'Assertion' | 'Response', keys: KeyPair): string {
  const element = what === 'Assertion' ? "//*[local-name(.)='Assertion']" : "/*[local-name(.)='Response']";
  const sig = new SignedXml({
    privateKey: keys.key,
    publicCert: keys.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: element,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { prefix: 'ds', location: { reference: `${element}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

export const b64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

/** The AuthnRequest XML carried by an HTTP-Redirect URL. */
export function authnRequestOf(url: string): string {
  const request = new URL(url).searchParams.get('SAMLRequest');
  if (!request) throw new Error('no SAMLRequest');
  return inflateRawSync(Buffer.from(request, 'base64')).toString('utf8');
}
