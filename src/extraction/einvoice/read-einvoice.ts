// An e-invoice XML file (an uploaded one, or a PDF's attachment) → what it says, or why it could not be read.
// Runs in a reading worker: parsing a large XML file must not hold the event loop.
//
//   readEInvoiceXml(bytes, 'factur-x.xml') → { fileName, einvoice: { vendorName, total, lineItems, … } | null, error }
import type { ExtractedLineItem } from '../types.ts';
import { parseCii } from './cii.ts';
import { syntaxOf } from './syntax.ts';
import type { EInvoice, EInvoiceReading, ParsedEInvoice } from './types.ts';
import { parseUbl } from './ubl.ts';
import { round } from './values.ts';
import { parseXmlTree, XmlRefused } from './xml-tree.ts';

/** UNTDID 1001 document types of EN 16931 that are credit notes (380, 384, 389, 393, 751, … are invoices). */
const CREDIT_NOTE_TYPES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

/** Two amounts differ by more than rounding (EN 16931 sums are exact to the cent). */
const off = (a: number, b: number): boolean => Math.abs(a - b) > 0.011;

export function readEInvoiceXml(bytes: Uint8Array, fileName: string | null): EInvoiceReading {
  try {
    const root = parseXmlTree(decodeXml(bytes));
    const syntax = syntaxOf(root);
    if (!syntax) throw new XmlRefused(`its root element (${root.local || 'none'}) is not a CII or UBL invoice`);
    const einvoice = finish(syntax === 'cii' ? parseCii(root) : parseUbl(root));
    if (!einvoice.invoiceNumber && einvoice.total === null) throw new XmlRefused('it states neither an invoice number nor a total');
    return { fileName, einvoice, error: null };
  } catch (err) {
    if (!(err instanceof XmlRefused)) throw err;
    return { fileName, einvoice: null, error: err.message };
  }
}

/** The XML's text: a byte-order mark, else the encoding its declaration names, else UTF-8. */
function decodeXml(bytes: Uint8Array): string {
  let label = 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
  else if (!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) {
    const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/.exec(new TextDecoder('latin1').decode(bytes.subarray(0, 200)));
    if (declared) label = declared[1]!.toLowerCase();
  }
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch (err) {
    const reason = err instanceof RangeError ? `its encoding (${label}) is not supported` : `it is not valid ${label} text`;
    throw new XmlRefused(reason);
  }
}

/** The shared rules: which stated sums make subtotal, tax and total; the sum checks; credit notes negated. */
function finish(p: ParsedEInvoice): EInvoice {
  const s = p.sums;
  const fromLines = s.lineTotal !== null ? round(s.lineTotal - (s.allowances ?? 0) + (s.charges ?? 0), 2) : null;
  const subtotal = s.taxBasis ?? fromLines;
  const tax = s.taxTotal ?? s.taxBreakdown;
  const total = s.grandTotal ?? (subtotal !== null && tax !== null ? round(subtotal + tax, 2) : null);
  const totalsProblems: string[] = [];
  if (s.taxBasis !== null && fromLines !== null && off(s.taxBasis, fromLines)) {
    totalsProblems.push(`its tax basis total ${s.taxBasis} is not its line total ${s.lineTotal} − allowances ${s.allowances ?? 0} + charges ${s.charges ?? 0}`);
  }
  if (s.taxTotal !== null && s.taxBreakdown !== null && off(s.taxTotal, s.taxBreakdown)) {
    totalsProblems.push(`its tax total ${s.taxTotal} is not the sum of its VAT breakdown (${s.taxBreakdown})`);
  }
  if (s.grandTotal !== null && subtotal !== null && tax !== null && off(s.grandTotal, subtotal + tax)) {
    totalsProblems.push(`its grand total ${s.grandTotal} is not its tax basis ${subtotal} + tax ${tax}`);
  }
  const lineSum =
    p.lineItems.length && p.lineItems.every((l) => l.total !== null)
      ? round(
          p.lineItems.reduce((a, l) => a + l.total!, 0),
          2,
        )
      : null;
  const linesProblem =
    lineSum !== null && s.lineTotal !== null && off(lineSum, s.lineTotal) ? `its lines add up to ${lineSum}, its line total is ${s.lineTotal}` : null;
  const creditNote = p.creditNoteRoot || CREDIT_NOTE_TYPES.has(p.typeCode ?? '');
  const sign = (v: number | null) => (v === null || !creditNote ? v : v === 0 ? 0 : -v);
  return {
    syntax: p.syntax,
    profile: p.profile,
    typeCode: p.typeCode,
    creditNote,
    vendorName: p.vendorName,
    invoiceNumber: p.invoiceNumber,
    invoiceDate: p.invoiceDate,
    dueDate: p.dueDate,
    currency: p.currency && /^[A-Z]{3}$/.test(p.currency) ? p.currency : null,
    subtotal: sign(subtotal),
    tax: sign(tax),
    total: sign(total),
    amountDue: sign(s.due),
    lineItems: p.lineItems.map((l): ExtractedLineItem => ({ ...l, quantity: sign(l.quantity), total: sign(l.total) })),
    totalsProblems,
    linesProblem,
  };
}
