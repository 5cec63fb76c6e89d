// The offline provider: the worker-pool reader (PDF text layer / OCR) and the field rules in ./fields.
import type { DocumentExtractor } from './extractor.ts';
import { extractInvoiceFields } from './fields/invoice.ts';
import { extractReceiptFields } from './fields/receipt.ts';
import type { DocumentReader } from './reader.ts';
import { type DocumentKind, type PageText, UnreadableDocumentError } from './types.ts';

/** Uses `reader` without owning it: whoever created the reader closes it. */
export function createLocalExtractor(reader: DocumentReader): DocumentExtractor {
  async function read(bytes: Uint8Array, kind: DocumentKind): Promise<PageText[]> {
    const { pages } = await reader.read(bytes, kind);
    if (!pages.some((p) => p.words.length > 0)) throw new UnreadableDocumentError('no text could be read from the document');
    return pages;
  }

  return {
    provider: 'local',
    async extractInvoices(bytes) {
      const pages = await read(bytes, 'invoice');
      return { pageCount: pages.length, invoices: extractInvoiceFields(pages) };
    },
    async extractReceipt(bytes) {
      const pages = await read(bytes, 'receipt');
      return { pageCount: pages.length, receipt: extractReceiptFields(pages) };
    },
    close: async () => {},
  };
}
