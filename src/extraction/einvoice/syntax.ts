// Which e-invoice syntax an XML document is, from its root element: UN/CEFACT CII (ZUGFeRD 2.x / Factur-X /
// XRechnung CII: CrossIndustryInvoice; ZUGFeRD 1.0: CrossIndustryDocument) or OASIS UBL 2.x (Invoice, CreditNote).

export type EInvoiceSyntax = 'cii' | 'ubl';

export const ROOTS = {
  CrossIndustryInvoice: { syntax: 'cii', ns: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100' },
  CrossIndustryDocument: { syntax: 'cii', ns: 'urn:ferd:CrossIndustryDocument:invoice:1p0' },
  Invoice: { syntax: 'ubl', ns: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2' },
  CreditNote: { syntax: 'ubl', ns: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2' },
} as const satisfies Record<string, { syntax: EInvoiceSyntax; ns: string }>;

/** The syntax of a parsed root element (local name and namespace must both match), or null. */
export function syntaxOf(root: { local: string; uri: string }): EInvoiceSyntax | null {
  const known = Object.hasOwn(ROOTS, root.local) ? ROOTS[root.local as keyof typeof ROOTS] : undefined;
  return known && known.ns === root.uri ? known.syntax : null;
}

// Before the root element: a byte-order mark, white space, the XML declaration, comments, processing
// instructions and a document type declaration (refused later, when the document is parsed).
const PROLOG = /^(?:\uFEFF|\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>)*/;
const ROOT_TAG = /^<(?:[\w.-]+:)?([\w.-]+)(\s[^>]*)?\/?>/;

/** The syntax the root element of an XML text declares (from its first few KB), or null when it is not an e-invoice. */
export function sniffEInvoiceXml(head: string): EInvoiceSyntax | null {
  const rest = head.replace(PROLOG, '');
  const m = ROOT_TAG.exec(rest);
  if (!m || !Object.hasOwn(ROOTS, m[1]!)) return null;
  const root = ROOTS[m[1] as keyof typeof ROOTS];
  // The namespace is declared on the root (as the default or for its prefix) by every producer we know.
  return (m[2] ?? '').includes(root.ns) ? root.syntax : null;
}

/** The first `limit` bytes as text, for sniffing (UTF-16 by its byte-order mark, else UTF-8; a character cut at the end is harmless). */
export function headText(bytes: Uint8Array, limit = 8192): string {
  const label = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  return new TextDecoder(label, { fatal: false }).decode(bytes.subarray(0, limit));
}
