// A small, safe XML tree for e-invoices: xml2js (sax underneath: no external entities, no DTD processing) turned
// into elements named by their local name. Documents that declare a type (<!DOCTYPE …>) are refused before any
// parser sees them: CII and UBL never need one, and refusing it closes every entity trick (XXE, entity expansion).

import { Parser } from 'xml2js';

/** An element: local name, namespace, attributes by local name, trimmed text, child elements (in order per name). */
export interface XNode {
  local: string;
  uri: string;
  attrs: Record<string, string>;
  text: string;
  children: XNode[];
}

/** Largest XML parsed into a tree (after embedded binary attachments are blanked, see below). */
export const MAX_XML_CHARS = 5 * 1024 * 1024;

export class XmlRefused extends Error {}

// XRechnung and UBL may carry whole PDFs base64-encoded inside the invoice; nothing we read is in them.
const BINARY_OBJECTS = /(<(?:[\w.-]+:)?(?:AttachmentBinaryObject|EmbeddedDocumentBinaryObject)\b[^>]*>)[^<]*/g;

/** Parses `xml`; throws XmlRefused (a DTD, too large, not well-formed) with a reason fit for a note. */
export function parseXmlTree(xml: string): XNode {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new XmlRefused('document type definitions (DOCTYPE) are not allowed');
  const slim = xml.replace(BINARY_OBJECTS, '$1');
  if (slim.length > MAX_XML_CHARS) {
    throw new XmlRefused(`it is too large to read (${(slim.length / 1048576).toFixed(1)} MB of XML, limit ${MAX_XML_CHARS / 1048576} MB)`);
  }
  let outcome: { error: unknown } | { doc: Record<string, RawElement> | null } | undefined;
  // Synchronous unless `async` is set; keep the first outcome (xml2js may report an error twice).
  new Parser({ xmlns: true, explicitCharkey: true, explicitRoot: true, trim: true }).parseString(slim, (error: unknown, doc: unknown) => {
    outcome ??= error ? { error } : { doc: doc as Record<string, RawElement> | null };
  });
  if (!outcome) throw new XmlRefused('the XML parser did not finish');
  if ('error' in outcome) throw new XmlRefused(`it is not well-formed XML (${firstLine(outcome.error)})`);
  const root = outcome.doc ? Object.values(outcome.doc)[0] : undefined;
  if (!root || typeof root !== 'object') throw new XmlRefused('the XML document is empty');
  return toNode(root);
}

interface RawElement {
  $?: Record<string, { local: string; value: string }>;
  $ns?: { uri: string; local: string };
  _?: string;
  [qualifiedName: string]: unknown;
}

function toNode(raw: RawElement): XNode {
  const attrs: Record<string, string> = {};
  for (const a of Object.values(raw.$ ?? {})) if (a && typeof a.local === 'string') attrs[a.local] = a.value;
  const children: XNode[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$' || key === '$ns' || key === '_' || !Array.isArray(value)) continue;
    for (const child of value) if (child && typeof child === 'object') children.push(toNode(child as RawElement));
  }
  return { local: raw.$ns?.local ?? '', uri: raw.$ns?.uri ?? '', attrs, text: typeof raw._ === 'string' ? raw._ : '', children };
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!.slice(0, 120);
}

/** The first child named by one of `locals` (alternatives: the names differ between syntax versions). */
export function child(node: XNode | null | undefined, ...locals: string[]): XNode | null {
  if (!node) return null;
  for (const local of locals) {
    const found = node.children.find((c) => c.local === local);
    if (found) return found;
  }
  return null;
}

/** Every child named `local`, in document order. */
export function kids(node: XNode | null | undefined, local: string): XNode[] {
  return node ? node.children.filter((c) => c.local === local) : [];
}

/** Follows a path of local names ("A/B|C/D": `|` separates alternatives); null when a step is missing. */
export function at(node: XNode | null | undefined, path: string): XNode | null {
  let cur: XNode | null = node ?? null;
  for (const step of path.split('/')) cur = child(cur, ...step.split('|'));
  return cur;
}

/** The trimmed text at `path`, or null when absent or empty. */
export function textAt(node: XNode | null | undefined, path: string): string | null {
  const text = at(node, path)?.text.trim();
  return text ? text : null;
}
