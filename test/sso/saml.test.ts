import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { SsoConfigError, SsoSignInError } from '../../src/modules/embed/sso/errors.ts';
import {
  type IdpMetadata,
  type SamlServiceProviderOptions,
  inMemoryRequestIdStore,
  parseIdpMetadata,
  samlServiceProvider,
} from '../../src/modules/embed/sso/saml.ts';
import { type KeyPair, type ResponseOptions, authnRequestOf, b64, certBody, idpKeyPair, idpMetadata, samlResponse, sign } from './saml-idp.ts';

const IDP_ENTITY = 'https://idp.example.test/saml/metadata';
const SSO_URL = 'https://idp.example.test/saml/sso';
const SP_ENTITY = 'https://partner-api.example.test/sso/tenant-1/saml';
const ACS_URL = 'https://partner-api.example.test/sso/tenant-1/saml/acs';

// Generated at collection time: the metadata test table below needs the certificates.
const idpKeys: KeyPair = idpKeyPair('test-idp');
const otherKeys: KeyPair = idpKeyPair('impostor');
let idp: IdpMetadata;

beforeAll(() => {
  idp = parseIdpMetadata(idpMetadata({ entityId: IDP_ENTITY, ssoUrl: SSO_URL, cert: idpKeys.cert, encryptionCert: otherKeys.cert }));
});

function sp(extra: Partial<SamlServiceProviderOptions> = {}) {
  return samlServiceProvider({ idp, spEntityId: SP_ENTITY, acsUrl: ACS_URL, ...extra });
}

const response = (o: Partial<ResponseOptions> = {}) => samlResponse({ idpEntityId: IDP_ENTITY, audience: SP_ENTITY, recipient: ACS_URL, ...o });

async function rejection(promise: Promise<unknown>): Promise<SsoSignInError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(SsoSignInError);
    expect((err as SsoSignInError).code).toBe('UNAUTHENTICATED');
    return err as SsoSignInError;
  }
  throw new Error('expected a rejection');
}

describe('parseIdpMetadata', () => {
  it('reads entity ID, the HTTP-Redirect SSO URL and only the signing certificate', () => {
    expect(idp).toEqual({
      entityId: IDP_ENTITY,
      ssoUrl: SSO_URL,
      ssoBinding: 'HTTP-Redirect',
      certificates: [new X509Certificate(idpKeys.cert).toString()],
      wantAuthnRequestsSigned: false,
    });
    expect(idp.certificates[0]).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
  });

  const bare = (body: string, root = 'EntityDescriptor entityID="https://idp.bare.test"') =>
    `<${root} xmlns="urn:oasis:names:tc:SAML:2.0:metadata">${body}</${root.split(' ')[0]}>`;
  const idpDescriptor = (inner: string) => `<IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${inner}</IDPSSODescriptor>`;
  const keyDescriptor = (cert: string, use?: string) =>
    `<KeyDescriptor${use ? ` use="${use}"` : ''}><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>${certBody(cert)}</X509Certificate></X509Data></KeyInfo></KeyDescriptor>`;
  const postOnly = '<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.bare.test/sso"/>';

  it('accepts default namespaces, a KeyDescriptor without use, and a POST-only IdP', () => {
    const parsed = parseIdpMetadata(bare(idpDescriptor(keyDescriptor(idpKeys.cert) + keyDescriptor(otherKeys.cert, 'signing') + postOnly)));
    expect(parsed.entityId).toBe('https://idp.bare.test');
    expect(parsed.ssoUrl).toBe('https://idp.bare.test/sso');
    expect(parsed.ssoBinding).toBe('HTTP-POST');
    expect(parsed.certificates).toHaveLength(2);
  });

  it('picks the identity provider out of an EntitiesDescriptor', () => {
    const xml = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">
      <md:EntityDescriptor entityID="https://sp.test"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>
      ${bare(idpDescriptor(keyDescriptor(idpKeys.cert, 'signing') + postOnly))}
    </md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(xml).entityId).toBe('https://idp.bare.test');
  });

  const problems: Array<[string, string, RegExp]> = [
    ['empty', '  ', /metadata: is required/],
    ['not XML', 'hello there', /metadata: is not well-formed XML/],
    ['broken XML', '<EntityDescriptor><IDPSSODescriptor></EntityDescriptor>', /is not well-formed XML/],
    ['a DTD', '<!DOCTYPE x [<!ENTITY a "b">]><x/>', /is not well-formed XML \(document type definitions are not allowed\)/],
    ['another document', '<html xmlns="http://www.w3.org/1999/xhtml"/>', /is not SAML 2.0 metadata/],
    ['SP metadata', bare('<SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/>'), /describes no identity provider/],
    ['no entityID', bare(idpDescriptor(keyDescriptor(idpKeys.cert) + postOnly), 'EntityDescriptor'), /has no entityID/],
    [
      'SAML 1.1 only',
      bare(`<IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:1.1:protocol">${postOnly}</IDPSSODescriptor>`),
      /SAML 2.0 protocol/,
    ],
    ['no SSO service', bare(idpDescriptor(keyDescriptor(idpKeys.cert))), /has no SingleSignOnService/],
    [
      'artifact binding only',
      bare(
        idpDescriptor(
          `${keyDescriptor(idpKeys.cert)}<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact" Location="https://x.test"/>`,
        ),
      ),
      /has no SingleSignOnService/,
    ],
    [
      'an http SSO URL',
      bare(
        idpDescriptor(
          `${keyDescriptor(idpKeys.cert)}<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="http://idp.test/sso"/>`,
        ),
      ),
      /not an https:\/\/ URL/,
    ],
    ['no certificate', bare(idpDescriptor(postOnly)), /has no signing certificate/],
    ['an encryption certificate only', bare(idpDescriptor(keyDescriptor(idpKeys.cert, 'encryption') + postOnly)), /has no signing certificate/],
    [
      'a broken certificate',
      bare(
        idpDescriptor(
          `<KeyDescriptor use="signing"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>MIIBAAAA</X509Certificate></X509Data></KeyInfo></KeyDescriptor>${postOnly}`,
        ),
      ),
      /signing certificate 1 is not a valid X.509 certificate/,
    ],
    [
      'two identity providers',
      `<EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata">${bare(idpDescriptor(keyDescriptor(idpKeys.cert) + postOnly))}${bare(idpDescriptor(keyDescriptor(idpKeys.cert) + postOnly))}</EntitiesDescriptor>`,
      /describes 2 identity providers/,
    ],
  ];
  it.each(problems)('refuses %s with a clear message', (_what, xml, message) => {
    let error: unknown;
    try {
      parseIdpMetadata(xml);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SsoConfigError);
    expect((error as SsoConfigError).code).toBe('BAD_USER_INPUT');
    expect(Object.keys((error as SsoConfigError).fields)).toEqual(['metadata']);
    expect((error as Error).message).toMatch(message);
  });
});

describe('samlServiceProvider.authorizeUrl', () => {
  it('redirects to the IdP with a deflated AuthnRequest and the relay state', async () => {
    const url = new URL(await sp().authorizeUrl('return-to-42'));
    expect(url.origin + url.pathname).toBe(SSO_URL);
    expect(url.searchParams.get('RelayState')).toBe('return-to-42');
    const request = authnRequestOf(url.href);
    expect(request).toMatch(/^<\?xml|^<samlp:AuthnRequest/);
    expect(request).toContain(`Destination="${SSO_URL}"`);
    expect(request).toContain(`AssertionConsumerServiceURL="${ACS_URL}"`);
    expect(request).toContain(`ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"`);
    expect(request).toContain(`>${SP_ENTITY}</saml:Issuer>`);
    expect(request).not.toContain('RequestedAuthnContext');
  });

  it('refuses a relay state longer than 80 bytes', async () => {
    await expect(sp().authorizeUrl('x'.repeat(81))).rejects.toThrow(/at most 80 bytes/);
  });

  it('describes the service provider in metadata', () => {
    const xml = sp().metadataXml();
    expect(xml).toContain(`entityID="${SP_ENTITY}"`);
    expect(xml).toContain(`Location="${ACS_URL}"`);
    expect(xml).toContain('WantAssertionsSigned="true"');
  });
});

describe('samlServiceProvider.validatePostResponse', () => {
  it('accepts a response whose assertion the IdP signed', async () => {
    const identity = await sp().validatePostResponse(b64(sign(response({ attributes: { groups: ['admins', 'ops'] } }), 'Assertion', idpKeys)));
    expect(identity).toEqual({
      issuer: IDP_ENTITY,
      nameId: 'ada@example.com',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      sessionIndex: '_session-1',
      attributes: { email: 'ada@example.com', displayName: 'Ada Lovelace', groups: ['admins', 'ops'] },
    });
  });

  it('accepts a response signed as a whole, and one signed at both levels', async () => {
    expect((await sp().validatePostResponse(b64(sign(response(), 'Response', idpKeys)))).email).toBe('ada@example.com');
    const both = sign(sign(response(), 'Assertion', idpKeys), 'Response', idpKeys);
    expect((await sp().validatePostResponse(b64(both))).email).toBe('ada@example.com');
  });

  it('accepts line-wrapped base64 as browsers post it', async () => {
    const wrapped = b64(sign(response(), 'Assertion', idpKeys)).replace(/(.{76})/g, '$1\r\n');
    expect((await sp().validatePostResponse(wrapped)).nameId).toBe('ada@example.com');
  });

  it('rejects an unsigned response', async () => {
    const err = await rejection(sp().validatePostResponse(b64(response())));
    expect(err.reason).toBe('signature_invalid');
  });

  it('rejects an assertion altered after signing', async () => {
    const signed = sign(response(), 'Assertion', idpKeys);
    const tampered = signed.replace('<saml:AttributeValue>ada@example.com</saml:AttributeValue>', '<saml:AttributeValue>eve@example.com</saml:AttributeValue>');
    expect(tampered).not.toBe(signed);
    const err = await rejection(sp().validatePostResponse(b64(tampered)));
    expect(err.reason).toBe('signature_invalid');
    expect(err.message).toBe("the SAML response is not signed with the identity provider's certificate, or was altered after signing");
  });

  it('rejects a NameID altered after signing the response', async () => {
    const signed = sign(response(), 'Response', idpKeys);
    const tampered = signed.replace('nameid-format:emailAddress">ada@example.com<', 'nameid-format:emailAddress">eve@example.com<');
    expect(tampered).not.toBe(signed);
    expect((await rejection(sp().validatePostResponse(b64(tampered)))).reason).toBe('signature_invalid');
  });

  it('rejects a response signed with another key', async () => {
    expect(await rejection(sp().validatePostResponse(b64(sign(response(), 'Assertion', otherKeys))))).toMatchObject({ reason: 'signature_invalid' });
    expect(await rejection(sp().validatePostResponse(b64(sign(response(), 'Response', otherKeys))))).toMatchObject({ reason: 'signature_invalid' });
  });

  it('rejects a forged assertion wrapped around a genuine signed one', async () => {
    const genuine = sign(response(), 'Assertion', idpKeys);
    const signedAssertion = genuine.slice(genuine.indexOf('<saml:Assertion'), genuine.indexOf('</saml:Assertion>') + '</saml:Assertion>'.length);
    const forged = response({ email: 'eve@example.com' });
    const forgedAssertion = forged.slice(forged.indexOf('<saml:Assertion'), forged.indexOf('</saml:Assertion>') + '</saml:Assertion>'.length);
    // A second assertion next to the signed one, and the signed one hidden in Extensions.
    const twoAssertions = genuine.replace('</samlp:Response>', `${forgedAssertion}</samlp:Response>`);
    expect((await rejection(sp().validatePostResponse(b64(twoAssertions)))).reason).toBe('invalid_response');
    const hidden = genuine
      .replace(signedAssertion, forgedAssertion)
      .replace('<samlp:Status>', `<samlp:Extensions>${signedAssertion}</samlp:Extensions><samlp:Status>`);
    expect((await rejection(sp().validatePostResponse(b64(hidden)))).reason).toBe('signature_invalid');
  });

  it('rejects an expired assertion', async () => {
    const expired = sign(response({ notBeforeMs: -15 * 60_000, notOnOrAfterMs: -10 * 60_000 }), 'Assertion', idpKeys);
    const err = await rejection(sp().validatePostResponse(b64(expired)));
    expect(err.reason).toBe('expired');
    expect(err.message).toMatch(/expired or not yet valid/);
  });

  it('rejects an assertion not yet valid', async () => {
    const early = sign(response({ notBeforeMs: 5 * 60_000, notOnOrAfterMs: 10 * 60_000 }), 'Assertion', idpKeys);
    expect((await rejection(sp().validatePostResponse(b64(early)))).reason).toBe('expired');
  });

  it('tolerates a small clock skew, and no more than configured', async () => {
    const justExpired = b64(sign(response({ notBeforeMs: -5 * 60_000, notOnOrAfterMs: -20_000 }), 'Assertion', idpKeys));
    expect((await sp().validatePostResponse(justExpired)).email).toBe('ada@example.com');
    expect((await rejection(sp({ clockSkewMs: 5_000 }).validatePostResponse(justExpired))).reason).toBe('expired');
    const slightlyEarly = b64(sign(response({ notBeforeMs: 30_000 }), 'Assertion', idpKeys));
    expect((await sp().validatePostResponse(slightlyEarly)).email).toBe('ada@example.com');
  });

  it('rejects an assertion for another audience', async () => {
    const err = await rejection(sp().validatePostResponse(b64(sign(response({ audience: 'https://other-sp.example.test' }), 'Assertion', idpKeys))));
    expect(err.reason).toBe('audience_mismatch');
    expect(err.message).toBe('the SAML assertion is meant for another service provider (Audience)');
  });

  it('rejects an assertion without a NameID', async () => {
    const anonymous = sign(response().replace(/<saml:NameID [^>]*>[^<]*<\/saml:NameID>/, ''), 'Assertion', idpKeys);
    expect((await rejection(sp().validatePostResponse(b64(anonymous)))).message).toMatch(/names no subject/);
  });

  it('rejects an assertion without an audience restriction', async () => {
    const unrestricted = sign(response().replace(/<saml:AudienceRestriction>.*<\/saml:AudienceRestriction>/, ''), 'Assertion', idpKeys);
    const err = await rejection(sp().validatePostResponse(b64(unrestricted)));
    expect(err.reason).toBe('audience_mismatch');
    expect(err.message).toMatch(/names no audience/);
  });

  it('rejects an assertion for another recipient, and a response for another destination', async () => {
    const otherRecipient = sign(response({ recipient: 'https://elsewhere.example.test/acs', destination: ACS_URL }), 'Assertion', idpKeys);
    expect((await rejection(sp().validatePostResponse(b64(otherRecipient)))).reason).toBe('destination_mismatch');
    const otherDestination = sign(response({ destination: 'https://elsewhere.example.test/acs' }), 'Response', idpKeys);
    expect((await rejection(sp().validatePostResponse(b64(otherDestination)))).reason).toBe('destination_mismatch');
  });

  it('rejects an assertion issued under another entity ID, even with the right key', async () => {
    const err = await rejection(sp().validatePostResponse(b64(sign(response({ idpEntityId: 'https://other-idp.example.test' }), 'Assertion', idpKeys))));
    expect(err.reason).toBe('issuer_mismatch');
  });

  it('reports an IdP error status without an assertion', async () => {
    const failed = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_f1" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${ACS_URL}"><saml:Issuer>${IDP_ENTITY}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder"><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode><samlp:StatusMessage>secret internal detail</samlp:StatusMessage></samlp:Status></samlp:Response>`;
    const err = await rejection(sp().validatePostResponse(b64(failed)));
    expect(err.reason).toBe('idp_error');
    expect(err.message).toBe('the identity provider did not sign the user in (status Responder)');
  });

  it('rejects input that is not a SAML response', async () => {
    expect((await rejection(sp().validatePostResponse(''))).reason).toBe('invalid_response');
    expect((await rejection(sp().validatePostResponse('not base64!'))).message).toMatch(/not base64/);
    expect((await rejection(sp().validatePostResponse(b64('just text')))).message).toMatch(/not an XML document/);
    expect((await rejection(sp().validatePostResponse(b64('<!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>')))).message).toMatch(/document type definition/);
    expect(
      (await rejection(sp().validatePostResponse(b64('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"><oops></samlp:Response>')))).reason,
    ).toBe('invalid_response');
  });

  describe('with tracked request IDs (InResponseTo)', () => {
    async function requestId(provider: ReturnType<typeof sp>): Promise<string> {
      const id = /\sID="([^"]+)"/.exec(authnRequestOf(await provider.authorizeUrl()))?.[1];
      expect(id).toBeTruthy();
      return id!;
    }

    it('accepts the answer to our request once, and not a replay', async () => {
      const store = inMemoryRequestIdStore();
      const provider = sp({ requestIdStore: store });
      const id = await requestId(provider);
      const answer = b64(sign(response({ inResponseTo: id }), 'Assertion', idpKeys));
      expect((await provider.validatePostResponse(answer)).email).toBe('ada@example.com');
      expect((await rejection(provider.validatePostResponse(answer))).reason).toBe('request_mismatch');
    });

    it('works across service provider objects sharing the store (one per request)', async () => {
      const store = inMemoryRequestIdStore();
      const id = await requestId(sp({ requestIdStore: store }));
      const answer = b64(sign(response({ inResponseTo: id }), 'Assertion', idpKeys));
      expect((await sp({ requestIdStore: store }).validatePostResponse(answer)).nameId).toBe('ada@example.com');
    });

    it('rejects an expired answer to our request as expired', async () => {
      const provider = sp({ requestIdStore: inMemoryRequestIdStore() });
      const id = await requestId(provider);
      const late = b64(sign(response({ inResponseTo: id, notBeforeMs: -15 * 60_000, notOnOrAfterMs: -10 * 60_000 }), 'Assertion', idpKeys));
      expect((await rejection(provider.validatePostResponse(late))).reason).toBe('expired');
    });

    it('rejects an answer to a request that is too old', async () => {
      const provider = sp({ requestIdStore: inMemoryRequestIdStore(1) });
      const id = await requestId(provider);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const answer = b64(sign(response({ inResponseTo: id }), 'Assertion', idpKeys));
      expect((await rejection(provider.validatePostResponse(answer))).reason).toBe('request_mismatch');
    });

    it('rejects an answer to a request we did not send', async () => {
      const provider = sp({ requestIdStore: inMemoryRequestIdStore() });
      await requestId(provider);
      const answer = b64(sign(response({ inResponseTo: '_not-ours' }), 'Assertion', idpKeys));
      const err = await rejection(provider.validatePostResponse(answer));
      expect(err.reason).toBe('request_mismatch');
      expect(err.message).toMatch(/InResponseTo/);
    });

    it('rejects an unsolicited response unless allowed', async () => {
      const unsolicited = b64(sign(response(), 'Assertion', idpKeys));
      expect((await rejection(sp({ requestIdStore: inMemoryRequestIdStore() }).validatePostResponse(unsolicited))).reason).toBe('request_mismatch');
      const relaxed = sp({ requestIdStore: inMemoryRequestIdStore(), allowUnsolicited: true });
      expect((await relaxed.validatePostResponse(unsolicited)).email).toBe('ada@example.com');
    });

    it('rejects a response whose assertion answers another request', async () => {
      const store = inMemoryRequestIdStore();
      const provider = sp({ requestIdStore: store });
      const id = await requestId(provider);
      const other = await requestId(provider);
      const mixed = sign(response({ inResponseTo: id }), 'Assertion', idpKeys).replace(
        /(<saml:SubjectConfirmationData[^>]*InResponseTo=")[^"]+"/,
        `$1${other}"`,
      );
      // The assertion's InResponseTo is signed: altering it breaks the signature before anything else.
      expect((await rejection(provider.validatePostResponse(b64(mixed)))).reason).toBe('signature_invalid');
      const consistent = b64(sign(response({ inResponseTo: id }), 'Assertion', idpKeys).replace(`InResponseTo="${id}">`, `InResponseTo="${other}">`));
      expect((await rejection(provider.validatePostResponse(consistent))).reason).toBe('request_mismatch');
    });
  });
});
