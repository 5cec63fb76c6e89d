// The offline provider: the worker-pool reader (PDF text layer / OCR, and the e-invoice a document carries) and
// the field rules in ./fields.
//
// Invoices are e-invoice first: a PDF with a CII/UBL attachment, or an uploaded XML file, is read from that data
// and checked against the visible text (einvoice/cross-check.ts); the visible text engine still reads every page,
// and is what an invoice without a (usable) e-invoice gets.
import { fromEInvoice } from './einvoice/cross-check.ts';
import type { DocumentExtractor, ExtractOptions, InvoiceExtraction } from './extractor.ts';
import { extractInvoiceFields } from './fields/invoice.ts';
import { extractReceiptFields } from './fields/receipt.ts';
import type { DocumentReader, ReadResult } from './reader.ts';
import { type DeliveredInvoice, type ExtractedInvoiceFields, type PageText, UnreadableDocumentError } from './types.ts';

/** Uses `reader` without owning it: whoever created the reader closes it. */
export function createLocalExtractor(reader: DocumentReader): DocumentExtractor {
  return {
    provider: 'local',
    async extractInvoices(bytes, _, options) {
      return deliverInvoices(await reader.read(bytes, 'invoice', options));
    },
    async extractReceipt(bytes, _, options: ExtractOptions = {}) {
      const { pageCount, pages, notes } = await reader.read(bytes, 'receipt', options);
      requireText(pages, notes);
      return { pageCount, receipt: extractReceiptFields(pages), notes };
    },
    close: async () => {},
  };
}

/** A read invoice document as delivered: from its e-invoice when it carries a usable one, else from its text. */
export function deliverInvoices(read: ReadResult): InvoiceExtraction {
  const hasText = read.pages.some((p) => p.words.length > 0);
  const text = hasText ? extractInvoiceFields(read.pages) : [];
  const checked = read.einvoice ? fromEInvoice(read.einvoice, text, read.pages) : null;
  const notes = [...read.notes, ...(checked?.notes ?? [])];
  if (checked?.invoice) return { pageCount: read.pageCount, invoices: [checked.invoice], notes };
  if (read.fileType === 'xml') throw new UnreadableDocumentError(`the e-invoice XML could not be read: ${read.einvoice?.error ?? 'it holds no invoice'}`);
  requireText(read.pages, notes);
  // What the text engine noticed about each invoice (pages named when the document holds several).
  for (const i of text) for (const n of i.notes ?? []) notes.push(text.length > 1 ? `invoice on ${pagesWere(i.pages)}: ${n}` : n);
  return { pageCount: read.pageCount, invoices: text.map((i) => withSource(i, read.pages)), notes };
}

/** Throws UnreadableDocumentError when no page yielded text; the notes say whether a budget left some unread. */
function requireText(pages: PageText[], notes: string[]): void {
  if (pages.some((p) => p.words.length > 0)) return;
  const why = notes.length ? ` (${notes.join('; ')})` : '';
  throw new UnreadableDocumentError(`no text could be read from the document${why}`);
}

/** An invoice read from the visible text: `ocr` when any of its pages was OCR'd, else `text`. */
function withSource({ notes: _, ...invoice }: ExtractedInvoiceFields, pages: PageText[]): DeliveredInvoice {
  const ocr = pages.some((p) => p.source === 'ocr' && invoice.pages.includes(p.page));
  return { ...invoice, source: ocr ? 'ocr' : 'text' };
}

const pagesWere = (pages: number[]) => (pages.length === 1 ? `page ${pages[0]}` : `pages ${pages[0]}–${pages.at(-1)}`);
