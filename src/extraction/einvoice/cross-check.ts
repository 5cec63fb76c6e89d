// An e-invoice's values, checked against the document's visible text. The machine-readable invoice is what the
// issuer meant, so its values are kept; the visible text (the text engine's reading and what is printed anywhere
// on the pages) confirms them or not, which sets each field's confidence and notes every disagreement. Fields the
// e-invoice does not carry (a MINIMUM profile has no lines, many have no due date) come from the text.
//
// The e-invoice is not used — the caller falls back to the visible text — when it could not be read, when its own
// totals do not add up, or when the document's text layer reads another invoice number and another total and
// prints neither of the e-invoice's (it describes another document; a garbled text layer that reads no number or
// total does not count). An uploaded XML file has no visible text: its values stand alone.
import type { DeliveredInvoice, ExtractedInvoiceFields, FieldConfidences, PageText } from '../types.ts';
import { einvoiceEvidence } from './evidence.ts';
import { compactOf, printedText, type PrintedText, same, spacedOf } from './printed.ts';
import type { EInvoice, EInvoiceReading } from './types.ts';

/** Confirmed by the visible text. */
const AGREES = 99;
/** The visible text neither shows nor contradicts it (an image header, a scan). */
const UNCONFIRMED = 90;
/** Read from an XML file uploaded alone: there is nothing to check it against. */
const ALONE = 95;
/** The visible text reads something else (a vendor's printed name often differs from its legal one: less severe). */
const CONTRADICTED = { default: 70, vendorName: 80 } as const;
/** Values of an e-invoice whose sums do not add up (kept only when there is no text to fall back on). */
const INCONSISTENT = 60;

export interface FromEInvoice {
  /** Null: use the visible text (the notes say why). */
  invoice: DeliveredInvoice | null;
  notes: string[];
}

type Field = 'vendorName' | 'invoiceNumber' | 'invoiceDate' | 'dueDate' | 'subtotal' | 'tax' | 'total' | 'currency';
const FIELDS: Field[] = ['vendorName', 'invoiceNumber', 'invoiceDate', 'dueDate', 'subtotal', 'tax', 'total', 'currency'];
const LABELS: Record<Field, string> = {
  vendorName: 'vendor',
  invoiceNumber: 'invoice number',
  invoiceDate: 'invoice date',
  dueDate: 'due date',
  subtotal: 'subtotal',
  tax: 'tax',
  total: 'total',
  currency: 'currency',
};
const AMOUNTS = new Set<Field>(['subtotal', 'tax', 'total']);

export function fromEInvoice(reading: EInvoiceReading, text: ExtractedInvoiceFields[], pages: PageText[]): FromEInvoice {
  const name = reading.fileName ? `the e-invoice ${reading.fileName}` : pages.length ? 'the attached e-invoice' : 'the e-invoice';
  const e = reading.einvoice;
  if (!e) return { invoice: null, notes: [`${name} could not be read (${reading.error}); values come from the visible text`] };
  const printed = printedText(pages);
  const visible = printed.words > 0;
  if (visible && e.totalsProblems.length) {
    return { invoice: null, notes: [`${name} is inconsistent (${e.totalsProblems.join('; ')}); values come from the visible text`] };
  }
  const t = closest(e, text);
  if (aboutAnotherDocument(e, t, pages, printed)) {
    const what = `its number ${e.invoiceNumber} nor its total ${money(e.total!)}`;
    return { invoice: null, notes: [`${name} does not match the visible document (neither ${what} is printed on it); values come from the visible text`] };
  }

  const notes = [`values come from ${name} (${e.syntax.toUpperCase()}${e.profile ? `, ${e.profile}` : ''})`];
  const fieldConfidences: FieldConfidences = {};
  const values: Partial<Record<Field, string | number | null>> = {};
  for (const f of FIELDS) {
    const mine = e[f];
    const theirs = t?.[f] ?? null;
    if (mine === null) {
      // Not in the e-invoice: the text's reading, with the text's confidence.
      values[f] = theirs;
      fieldConfidences[f] = theirs === null ? 0 : (t?.fieldConfidences[f] ?? 0);
      continue;
    }
    values[f] = mine;
    // Kept only where there is no text to fall back on.
    const doubtful = AMOUNTS.has(f) && e.totalsProblems.length > 0;
    if (doubtful) fieldConfidences[f] = INCONSISTENT;
    else if (pages.length === 0) fieldConfidences[f] = ALONE;
    else if (same(f, mine, theirs) || shown(f, mine, printed)) fieldConfidences[f] = AGREES;
    else if (theirs === null) fieldConfidences[f] = UNCONFIRMED;
    else {
      fieldConfidences[f] = f === 'vendorName' ? CONTRADICTED.vendorName : CONTRADICTED.default;
      notes.push(`the visible ${LABELS[f]} (${show(f, theirs)}) differs from ${name}'s (${show(f, mine)}); the e-invoice's is kept`);
    }
  }
  if (!visible && e.totalsProblems.length) notes.push(`${name} is inconsistent: ${e.totalsProblems.join('; ')}`);

  const xmlLines = e.lineItems.length > 0;
  const lineItems = xmlLines ? e.lineItems : (t?.lineItems ?? []);
  fieldConfidences.lineItems = xmlLines ? (e.linesProblem ? INCONSISTENT : ALONE) : (t?.fieldConfidences.lineItems ?? 0);
  if (e.linesProblem) notes.push(`${name}'s lines do not add up: ${e.linesProblem}`);
  if (e.creditNote) notes.push(`${name} is a credit note (type ${e.typeCode ?? e.syntax.toUpperCase() + ' CreditNote'}): its amounts are recorded as negative`);
  if (e.amountDue !== null && e.total !== null && Math.abs(e.amountDue - e.total) > 0.005) {
    notes.push(`the amount due is ${money(e.amountDue)} (after prepayments or rounding); total is the invoice's grand total ${money(e.total)}`);
  }
  const keys = ['vendorName', 'invoiceNumber', 'invoiceDate', 'total'] as const;
  const invoice = {
    vendorName: values.vendorName as string | null,
    invoiceNumber: values.invoiceNumber as string | null,
    invoiceDate: values.invoiceDate as string | null,
    dueDate: values.dueDate as string | null,
    subtotal: values.subtotal as number | null,
    tax: values.tax as number | null,
    total: values.total as number | null,
    currency: values.currency as string | null,
    lineItems,
    confidence: Math.round(keys.reduce((s, k) => s + (fieldConfidences[k] ?? 0), 0) / keys.length),
    fieldConfidences,
    pages: pages.map((p) => p.page),
  };
  // Where each value is printed on the pages (evidence.ts).
  return { invoice: { ...invoice, source: 'e-invoice', evidence: einvoiceEvidence(e, invoice, t, pages) }, notes };
}

/**
 * The text layer reads another invoice: the text engine found a number and a total, both differ from the
 * e-invoice's, and neither of the e-invoice's is printed anywhere. OCR'd pages never decide it (OCR misreads).
 */
function aboutAnotherDocument(e: EInvoice, t: ExtractedInvoiceFields | null, pages: PageText[], printed: PrintedText): boolean {
  if (!t || pages.length === 0 || pages.some((p) => p.source !== 'text-layer')) return false;
  if (e.invoiceNumber === null || e.total === null || t.invoiceNumber === null || t.total === null) return false;
  if (same('invoiceNumber', e.invoiceNumber, t.invoiceNumber) || same('total', e.total, t.total)) return false;
  return !shown('invoiceNumber', e.invoiceNumber, printed) && !shown('total', e.total, printed);
}

/** Of the text engine's invoices (a split may give several), the one about this e-invoice. */
function closest(e: EInvoice, text: ExtractedInvoiceFields[]): ExtractedInvoiceFields | null {
  return text.find((t) => same('invoiceNumber', e.invoiceNumber, t.invoiceNumber)) ?? text.find((t) => same('total', e.total, t.total)) ?? text[0] ?? null;
}

/** The value is printed somewhere on the document. */
function shown(f: Field, v: string | number, p: PrintedText): boolean {
  if (typeof v === 'number') return p.cents.has(Math.round(Math.abs(v) * 100));
  switch (f) {
    case 'invoiceDate':
    case 'dueDate':
      return p.dates.has(v);
    case 'invoiceNumber': {
      const c = compactOf(v);
      return c.length > 0 && p.compact.includes(c);
    }
    case 'currency':
      return p.spaced.includes(` ${v.toLowerCase()} `) || (Object.hasOwn(SYMBOLS, v) && SYMBOLS[v]!.some((s) => p.raw.includes(s)));
    default:
      return spacedOf(v).length > 0 && p.spaced.includes(` ${spacedOf(v)} `);
  }
}

const SYMBOLS: Record<string, string[]> = { EUR: ['€', 'Euro', 'EURO'], USD: ['$'], GBP: ['£'], JPY: ['¥'], INR: ['₹'], PLN: ['zł'] };

const money = (n: number): string => n.toFixed(2);
const show = (f: Field, v: string | number): string => (typeof v === 'number' && AMOUNTS.has(f) ? money(v) : String(v));
