import { Parser } from 'xml2js';

// Namespace-aware reading of small SAML documents (metadata, assertions) on top of xml2js (`xmlns: true`), the
// parser node-saml itself uses. Documents type definitions are refused: SAML forbids them, and refusing them
// closes entity-expansion tricks before any parser sees the text.

export const NS = {
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

interface Attr {
  value: string;
  local: string;
  uri: string;
}

/** One element as xml2js gives it with `xmlns: true`: attributes, its name, text, and children by qualified name. */
export interface XmlElement {
  $?: Record<string, Attr>;
  $ns: { uri: string; local: string };
  _?: string;
  [qualifiedName: string]: unknown;
}

/** Parses `xml` and returns its root element; throws Error (with the parser's reason) when it is not XML. */
export function parseXml(xml: string): XmlElement {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new Error('document type definitions are not allowed');
  // xml2js parses synchronously unless `async` is set; keep the first outcome (it may report an error twice).
  let outcome: { error: unknown } | { doc: Record<string, XmlElement> | null } | undefined;
  new Parser({ xmlns: true, explicitCharkey: true, explicitRoot: true }).parseString(xml, (error: unknown, doc: unknown) => {
    outcome ??= error ? { error } : { doc: doc as Record<string, XmlElement> | null };
  });
  if (!outcome) throw new Error('the XML parser did not finish');
  if ('error' in outcome) throw outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
  const root = outcome.doc ? Object.values(outcome.doc)[0] : undefined;
  if (!root) throw new Error('the document is empty');
  return root;
}

export function isElement(el: XmlElement, ns: string, local: string): boolean {
  return el.$ns?.uri === ns && el.$ns.local === local;
}

/** The direct children of `el` named `local` in namespace `ns`, in document order per name. */
export function children(el: XmlElement, ns: string, local: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const [key, value] of Object.entries(el)) {
    if (key === '$' || key === '$ns' || key === '_' || !Array.isArray(value)) continue;
    for (const child of value as XmlElement[]) if (child && typeof child === 'object' && isElement(child, ns, local)) found.push(child);
  }
  return found;
}

/** Every descendant of `el` (not `el` itself) named `local` in namespace `ns`. */
export function descendants(el: XmlElement, ns: string, local: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const [key, value] of Object.entries(el)) {
    if (key === '$' || key === '$ns' || key === '_' || !Array.isArray(value)) continue;
    for (const child of value as XmlElement[]) {
      if (!child || typeof child !== 'object') continue;
      if (isElement(child, ns, local)) found.push(child);
      found.push(...descendants(child, ns, local));
    }
  }
  return found;
}

/** An unqualified attribute's value (SAML's own attributes carry no namespace). */
export function attr(el: XmlElement, name: string): string | undefined {
  const a = el.$?.[name];
  return a && a.uri === '' ? a.value : undefined;
}

export function text(el: XmlElement): string {
  return typeof el._ === 'string' ? el._ : '';
}
